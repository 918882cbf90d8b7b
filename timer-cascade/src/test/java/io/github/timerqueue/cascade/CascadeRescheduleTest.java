package io.github.timerqueue.cascade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Rescheduling refuses a pending handle of another queue before it changes anything, wherever the
 * new deadline would file the timer: in a full level bucket, the due bucket or the far bucket. A
 * timer moved to a bucket with room is filed there before its old slot is emptied; into a full
 * one, it leaves its slot first, so that the compaction that makes room cannot move it.
 */
class CascadeRescheduleTest {

  private static CascadeTimer<Integer> timer(TimerHandle<Integer> handle) {
    return (CascadeTimer<Integer>) handle;
  }

  /** A queue of 256-bucket levels whose clock is at 1, with levels 0 to 2 created. */
  private static CascadeTimerQueue<Integer> threeLevels() {
    CascadeTimerQueue<Integer> queue = new CascadeTimerQueue<>(TimerConfig.defaults(), 8);
    queue.schedule(1 << 20, -1);
    queue.advance(1, timer -> {});
    return queue;
  }

  /** Fills level 1's bucket 1 (ticks 256 to 511) with 64 timers: its array is then full. */
  private static List<TimerHandle<Integer>> fillLevelOneBucketOne(CascadeTimerQueue<Integer> queue) {
    List<TimerHandle<Integer>> timers = new ArrayList<>();
    for (int i = 0; i < 64; i++) {
      timers.add(queue.schedule(300 + i % 7, i));
    }
    assertThat(queue.levels[1].buckets[1].slots).hasSize(64);
    return timers;
  }

  @Test
  void aForeignPendingHandleIsRefusedWithNothingAppliedWhereverItWouldGo() {
    // 300: a full level bucket; 0: the due bucket; 2^40: the far bucket.
    for (long deadline : new long[] {300, 0, 1L << 40}) {
      CascadeTimerQueue<Integer> mine = threeLevels();
      List<TimerHandle<Integer>> timers = fillLevelOneBucketOne(mine);
      mine.schedule(0, 100);
      mine.schedule(1L << 41, 101);
      CascadeTimerQueue<Integer> other = threeLevels();
      TimerHandle<Integer> foreign = other.schedule(300, 7);
      assertThat(timer(foreign).position).isEqualTo(timer(timers.get(0)).position);
      long delay = mine.nextExpiryDelay();

      assertThatThrownBy(() -> mine.reschedule(foreign, deadline))
          .as("to %d", deadline)
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not created by");

      for (SlotBucket bucket : new SlotBucket[] {mine.levels[1].buckets[1], mine.due, mine.far}) {
        assertThat(bucket.end < bucket.slots.length ? bucket.slots[bucket.end] : null)
            .as("the slot after the last of bucket %d, to %d", bucket.number, deadline).isNull();
      }
      assertThat(mine.levels[1].buckets[1].live).isEqualTo(64);
      assertThat(mine.size()).isEqualTo(67);
      assertThat(mine.nextExpiryDelay()).isEqualTo(delay);
      assertThat(foreign.deadline()).isEqualTo(300);
      assertThat(foreign.isPending()).isTrue();
      CascadeInvariants.check(mine);
      CascadeInvariants.check(other);
      assertThat(other.cancel(foreign)).isTrue();
    }
  }

  @Test
  void aTimerMovedWithinItsBucketWithRoomGoesToTheEndAndLeavesAHole() {
    CascadeTimerQueue<Integer> mine = threeLevels();
    List<TimerHandle<Integer>> timers = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      timers.add(mine.schedule(300 + i, i));
    }
    Bucket bucket = mine.levels[1].buckets[1];
    assertThat(bucket.slots).hasSize(8);

    assertThat(mine.reschedule(timers.get(1), 400)).isTrue();

    assertLast(bucket, timers.get(1), 6, 5);
    assertThat(mine.size()).isEqualTo(6);
    assertThat(bucket.slots[1]).as("the old slot, emptied by the next operation")
        .isSameAs(timers.get(1));

    assertThat(mine.reschedule(timers.get(2), 401)).isTrue();

    assertThat(bucket.slots[1]).isNull();
    assertThat(bucket.slots[2]).isSameAs(timers.get(2));
    assertLast(bucket, timers.get(2), 7, 5);
    mine.nextExpiryDelay();
    assertThat(bucket.slots[2]).isNull();
    CascadeInvariants.check(mine);
    for (int i = 0; i < 5; i++) {
      assertThat(mine.cancel(timers.get(i))).isTrue();
    }
    assertThat(bucket.live).isZero();
    assertThat(mine.size()).isEqualTo(1);
    CascadeInvariants.check(mine);
  }

  @Test
  void everyOtherOperationEmptiesTheSlotAMoveLeft() {
    List<Consumer<CascadeTimerQueue<Integer>>> operations = List.of(
        queue -> queue.schedule(450, 9),
        queue -> queue.scheduleWithin(450, 460, 9),
        queue -> queue.cancel(queue.schedule(0, 9)),
        queue -> queue.advance(1, timer -> {}),
        queue -> queue.nextExpiryDelay(),
        queue -> assertOnce(queue::forEach),
        queue -> assertOnce(queue::drain),
        CascadeTimerQueue::clear);
    for (Consumer<CascadeTimerQueue<Integer>> operation : operations) {
      CascadeTimerQueue<Integer> mine = threeLevels();
      List<TimerHandle<Integer>> timers = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        timers.add(mine.schedule(300 + i, i));
      }
      Bucket bucket = mine.levels[1].buckets[1];
      mine.reschedule(timers.get(1), 400);
      assertThat(bucket.slots[1]).isSameAs(timers.get(1));

      operation.accept(mine);

      assertThat(bucket.slots.length < 2 ? null : bucket.slots[1]).isNull();
      CascadeInvariants.check(mine);
    }
  }

  @Test
  void aTimerMovedWithinItsFullBucketLeavesItsSlotBeforeTheBucketMakesRoom() {
    CascadeTimerQueue<Integer> mine = threeLevels();
    List<TimerHandle<Integer>> timers = fillLevelOneBucketOne(mine);
    Bucket bucket = mine.levels[1].buckets[1];
    CascadeTimer<?>[] array = bucket.slots;
    for (int i = 0; i < 32; i += 2) {
      mine.cancel(timers.get(i));
    }

    // A quarter of the full array is holes: making room compacts it, with the timer's slot 1 a
    // hole already, so the timer moved is in the bucket once, at the end.
    assertThat(mine.reschedule(timers.get(1), 400)).isTrue();

    assertThat(bucket.slots).isSameAs(array);
    assertLast(bucket, timers.get(1), 48, 48);
    CascadeInvariants.check(mine);
  }

  /** Asserts that {@code visit} hands each of its timers over once. */
  private static void assertOnce(Consumer<Consumer<TimerHandle<Integer>>> visit) {
    List<Integer> payloads = new ArrayList<>();
    visit.accept(timer -> payloads.add(timer.payload()));
    assertThat(payloads).doesNotHaveDuplicates().hasSize(6);
  }

  /** Asserts that a bucket ends at {@code end} with {@code timer}, and holds {@code live}. */
  private static void assertLast(Bucket bucket, TimerHandle<Integer> timer, int end, int live) {
    assertThat(bucket.end).isEqualTo(end);
    assertThat(bucket.live).isEqualTo(live);
    assertThat(bucket.slots[end - 1]).isSameAs(timer);
    assertThat(timer(timer).position).isEqualTo(bucket.positionOf(end - 1));
  }

  @Test
  void aTimerMovedBetweenLevelsAndTheFarBucketLeavesOnlyItsNewSlotFilled() {
    CascadeTimerQueue<Integer> mine = threeLevels();
    List<TimerHandle<Integer>> timers = fillLevelOneBucketOne(mine);
    Bucket from = mine.levels[1].buckets[1];

    assertThat(mine.reschedule(timers.get(3), 1L << 40)).isTrue();
    assertThat(from.slots[3]).isNull();
    assertThat(mine.where(timer(timers.get(3)))).isEqualTo(CascadeTimer.FAR);
    assertThat(mine.far.slots[mine.slotOf(timer(timers.get(3)).position)])
        .isSameAs(timers.get(3));
    CascadeInvariants.check(mine);

    assertThat(mine.reschedule(timers.get(3), 70_000)).isTrue();
    assertThat(mine.far.live).isZero();
    assertThat(mine.where(timer(timers.get(3)))).isEqualTo(2);
    assertThat(mine.reschedule(timers.get(3), 0)).isTrue();
    assertThat(mine.where(timer(timers.get(3)))).isEqualTo(CascadeTimer.DUE);
    assertThat(mine.size()).isEqualTo(65);
    CascadeInvariants.check(mine);
  }
}
