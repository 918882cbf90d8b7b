package io.github.timerqueue.cascade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerHandle;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Rescheduling a pending timer stores it in its new bucket before it checks the slot its position
 * names and clears that slot: a foreign handle is refused with nothing applied, whatever making
 * room in the new bucket did, and a timer that making room moved is taken out of the slot it was
 * moved to.
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

  /**
   * Fills level 1's bucket 1 as {@link #fillLevelOneBucketOne} does and cancels every other timer
   * from the first, so that the next add compacts the bucket instead of growing its array.
   */
  private static List<TimerHandle<Integer>> fillLevelOneBucketOneWithHoles(
      CascadeTimerQueue<Integer> queue) {
    List<TimerHandle<Integer>> timers = fillLevelOneBucketOne(queue);
    for (int i = 0; i < 64; i += 2) {
      queue.cancel(timers.get(i));
    }
    return timers;
  }

  @Test
  void aForeignPendingHandleIsRefusedWithNothingAppliedWhereverItWouldGo() {
    // 300: the full level bucket, which grows; 0: the due bucket; 2^40: the far bucket.
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
  void aForeignPendingHandleIsRefusedAfterMakingRoomCompactedTheBucket() {
    CascadeTimerQueue<Integer> mine = threeLevels();
    fillLevelOneBucketOneWithHoles(mine);
    CascadeTimerQueue<Integer> other = threeLevels();
    TimerHandle<Integer> foreign = other.schedule(300, 7);

    assertThatThrownBy(() -> mine.reschedule(foreign, 301))
        .isInstanceOf(IllegalArgumentException.class);

    Bucket bucket = mine.levels[1].buckets[1];
    assertThat(bucket.end).as("compacted").isEqualTo(32);
    assertThat(bucket.slots[32]).isNull();
    assertThat(mine.size()).isEqualTo(33);
    CascadeInvariants.check(mine);
  }

  /**
   * The timer in the last slot of a full bucket with holes is rescheduled into the same bucket:
   * making room compacts the bucket and moves the timer into the first hole, and that slot, not the
   * one it came from, is the one cleared.
   */
  @Test
  void aTimerMovedByMakingRoomForItselfIsTakenOutWhereItWasMoved() {
    CascadeTimerQueue<Integer> queue = threeLevels();
    List<TimerHandle<Integer>> timers = fillLevelOneBucketOneWithHoles(queue);
    Bucket bucket = queue.levels[1].buckets[1];
    TimerHandle<Integer> last = timers.get(63);

    assertThat(queue.reschedule(last, 305)).isTrue();

    assertThat(timer(last).position).isEqualTo(CascadeTimer.position(bucket.number, 32));
    assertThat(bucket.slots[0]).as("the hole it was moved into").isNull();
    assertThat(bucket.end).isEqualTo(33);
    assertThat(bucket.live).isEqualTo(32);
    assertThat(last.deadline()).isEqualTo(305);
    assertThat(queue.size()).isEqualTo(33);
    CascadeInvariants.check(queue);
  }
}
