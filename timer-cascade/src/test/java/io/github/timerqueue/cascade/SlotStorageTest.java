package io.github.timerqueue.cascade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Buckets are arrays of slots: a handle records its bucket and slot, cancel frees one slot without
 * leaving a hole, arrays shrink as their timers go and pass from emptied buckets to filling ones,
 * and a handle is recognized as foreign whether or not it is pending.
 */
class SlotStorageTest {

  private static CascadeTimer<Integer> timer(TimerHandle<Integer> handle) {
    return (CascadeTimer<Integer>) handle;
  }

  @Test
  void cancellingMovesTheLastTimerOfTheBucketIntoTheFreedSlot() {
    CascadeTimerQueue<Integer> queue = new CascadeTimerQueue<>(TimerConfig.defaults(), 8);
    queue.schedule(1 << 20, -1);
    queue.advance(1, timer -> {});
    List<TimerHandle<Integer>> timers = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      timers.add(queue.schedule(300 + i, i));
    }
    Bucket bucket = queue.levels[1].buckets[1];
    assertThat(bucket.end).isEqualTo(5);

    queue.cancel(timers.get(1));

    assertThat(bucket.end).isEqualTo(4);
    assertThat(bucket.slots[1]).isSameAs(timers.get(4));
    assertThat(timer(timers.get(4)).position).isEqualTo(CascadeTimer.position(bucket.number, 1));
    CascadeInvariants.checkNotPending(queue, timer(timers.get(1)));
    CascadeInvariants.check(queue);
  }

  /**
   * However timers are cancelled, a level or far bucket holds no hole, and its array is at most
   * four times larger than its timers once it is above the size that is never shrunk.
   */
  @Test
  void cancelledSlotsNeverAccumulateAndArraysShrinkWithTheirTimers() {
    CascadeTimerQueue<Integer> queue = new CascadeTimerQueue<>(TimerConfig.defaults(), 8);
    queue.schedule(1L << 40, -1);
    queue.advance(1, timer -> {});
    List<TimerHandle<Integer>> timers = new ArrayList<>();
    for (int i = 0; i < 100_000; i++) {
      timers.add(queue.schedule(70_000 + i % 7, i));
    }
    Bucket bucket = queue.levels[2].buckets[1];
    assertThat(bucket.end).isEqualTo(100_000);
    SplittableRandom random = new SplittableRandom(15);
    while (timers.size() > 10) {
      TimerHandle<Integer> victim = timers.remove(random.nextInt(timers.size()));
      assertThat(queue.cancel(victim)).isTrue();
      assertThat(bucket.slots.length).as("capacity for %d timers", bucket.end)
          .isLessThanOrEqualTo(Math.max(SlotPool.KEPT_CAPACITY, 4 * (bucket.end + 1)));
      if (timers.size() % 9_999 == 0) {
        CascadeInvariants.check(queue);
      }
    }
    assertThat(bucket.end).isEqualTo(10);
    assertThat(queue.pool.heldSlots())
        .isLessThanOrEqualTo((long) queue.size() + SlotPool.SPARE_SLOTS);
    CascadeInvariants.check(queue);
  }

  /** The due bucket keeps order, so cancelling leaves holes; they never outgrow its timers. */
  @Test
  void holesInTheDueBucketStayBoundedByItsTimers() {
    CascadeTimerQueue<Integer> queue = new CascadeTimerQueue<>(TimerConfig.defaults(), 8);
    List<TimerHandle<Integer>> timers = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      timers.add(queue.schedule(0, i));
    }
    SplittableRandom random = new SplittableRandom(19);
    while (timers.size() > 100) {
      queue.cancel(timers.remove(random.nextInt(timers.size())));
      DueBucket due = queue.due;
      assertThat(due.end - due.first - due.live)
          .isLessThanOrEqualTo(due.live + DueBucket.SLACK);
    }
    List<Integer> fired = new ArrayList<>();
    queue.advance(0, timer -> fired.add(timer.payload()));
    assertThat(fired).hasSize(100).isSorted();
    CascadeInvariants.check(queue);
  }

  /** Arrays of emptied buckets go to the pool, which never holds more slots than it may. */
  @Test
  void aTurningWheelReusesTheArraysOfEmptiedBuckets() {
    CascadeTimerQueue<Integer> queue = new CascadeTimerQueue<>(TimerConfig.defaults(), 4);
    SplittableRandom random = new SplittableRandom(23);
    for (int i = 0; i < 5_000; i++) {
      queue.schedule(random.nextLong(1, 100_000), i);
    }
    for (long now = 0; now < 400_000; now += 16) {
      queue.advance(now, timer -> queue.reschedule(timer, queue.now() + 1 + random.nextInt(99_999)));
      assertThat(queue.pool.heldSlots())
          .isLessThanOrEqualTo((long) queue.size() + SlotPool.SPARE_SLOTS);
    }
    assertThat(queue.size()).isEqualTo(5_000);
    CascadeInvariants.check(queue);
  }

  @Test
  void aHandleOfAnotherQueueIsRefusedPendingOrNot() {
    CascadeTimerQueue<Integer> mine = new CascadeTimerQueue<>(TimerConfig.defaults(), 8);
    CascadeTimerQueue<Integer> other = new CascadeTimerQueue<>(TimerConfig.defaults(), 8);
    // The same operations on both queues put their timers at the same bucket and slot.
    TimerHandle<Integer> mineTimer = mine.schedule(5, 1);
    TimerHandle<Integer> otherTimer = other.schedule(5, 1);
    TimerHandle<Integer> otherDue = other.schedule(0, 2);
    mine.schedule(0, 2);
    assertThat(timer(otherTimer).position).isEqualTo(timer(mineTimer).position);

    assertThatThrownBy(() -> mine.cancel(otherTimer))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not created by");
    assertThatThrownBy(() -> mine.reschedule(otherDue, 9))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(other.cancel(otherTimer)).isTrue();
    assertThatThrownBy(() -> mine.cancel(otherTimer))
        .as("not pending").isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> mine.reschedule(otherTimer, 9))
        .as("not pending").isInstanceOf(IllegalArgumentException.class);
    other.clear();
    assertThatThrownBy(() -> mine.cancel(otherDue))
        .as("cleared").isInstanceOf(IllegalArgumentException.class);

    assertThat(mine.size()).isEqualTo(2);
    assertThat(mineTimer.isPending()).isTrue();
    CascadeInvariants.check(mine);
  }
}
