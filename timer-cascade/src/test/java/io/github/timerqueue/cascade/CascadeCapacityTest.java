package io.github.timerqueue.cascade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerHandle;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A position is an int, the kind of bucket above the slot: a queue holds at most as many timers as
 * a position can name slots, refuses one more without changing anything, and a bucket at that
 * many slots compacts instead of growing.
 */
class CascadeCapacityTest {

  private static CascadeTimer<Integer> timer(TimerHandle<Integer> handle) {
    return (CascadeTimer<Integer>) handle;
  }

  @Test
  void theMostTimersFollowFromTheKindsOfBucket() {
    assertThat(CascadeTimerQueue.maxTimers(1)).isEqualTo(1 << 24);
    assertThat(CascadeTimerQueue.maxTimers(2)).isEqualTo(1 << 25);
    assertThat(CascadeTimerQueue.maxTimers(4)).isEqualTo(1 << 26);
    assertThat(CascadeTimerQueue.maxTimers(8)).isEqualTo(1 << 27);
    assertThat(CascadeTimerQueue.maxTimers(12)).isEqualTo(1 << 27);
    assertThat(CascadeTimerQueue.maxTimers(13)).isEqualTo(1 << 28);
    assertThat(CascadeTimerQueue.maxTimers(16)).isEqualTo(1 << 28);
  }

  @Test
  void everyKindOfBucketReadsBackFromThePositionsOfItsTimers() {
    for (int bits : new int[] {1, 8, 16}) {
      CascadeTimerQueue<Integer> queue = new CascadeTimerQueue<>(TimerConfig.defaults(), bits);
      // 2^20 - 1 ticks after the base once it moves: the sweep creates the levels up to its.
      TimerHandle<Integer> highest = queue.schedule(1 << 20, 0);
      queue.advance(1, timer -> {});
      TimerHandle<Integer> farthest = queue.schedule(Long.MAX_VALUE, 1);
      TimerHandle<Integer> due = queue.schedule(0, 2);
      TimerHandle<Integer> lowest = queue.schedule(2, 3);

      assertThat(queue.where(timer(highest))).as("bits %d", bits).isEqualTo(19 / bits);
      assertThat(queue.where(timer(farthest))).as("bits %d", bits).isEqualTo(CascadeTimer.FAR);
      assertThat(queue.where(timer(due))).isEqualTo(CascadeTimer.DUE);
      assertThat(queue.where(timer(lowest))).isZero();
      CascadeInvariants.check(queue);
      for (TimerHandle<Integer> timer : List.of(highest, farthest, due, lowest)) {
        assertThat(queue.cancel(timer)).isTrue();
      }
      assertThat(queue.size()).isZero();
      CascadeInvariants.check(queue);
    }
  }

  @Test
  void aFullQueueRefusesOneMoreTimerAndChangesNothing() {
    CascadeTimerQueue<Integer> queue = new CascadeTimerQueue<>(TimerConfig.defaults(), 8, 64);
    List<TimerHandle<Integer>> timers = new ArrayList<>();
    for (int i = 0; i < 64; i++) {
      timers.add(queue.schedule(i % 3 == 0 ? 0 : 300 + i, i));
    }
    TimerHandle<Integer> cancelled = timers.get(5);
    queue.cancel(cancelled);
    timers.add(queue.schedule(400, 64));
    long delay = queue.nextExpiryDelay();

    assertThatThrownBy(() -> queue.schedule(500, 65))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("at most 64 timers");
    assertThatThrownBy(() -> queue.scheduleWithin(500, 600, 65))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> queue.reschedule(cancelled, 500))
        .isInstanceOf(IllegalStateException.class);
    assertThat(cancelled.isPending()).isFalse();
    assertThat(queue.size()).isEqualTo(64);
    assertThat(queue.nextExpiryDelay()).isEqualTo(delay);
    CascadeInvariants.check(queue);

    // A pending timer still moves anywhere: it is counted once.
    assertThat(queue.reschedule(timers.get(1), 70_000)).isTrue();
    assertThat(queue.reschedule(timers.get(2), 0)).isTrue();
    assertThat(queue.size()).isEqualTo(64);
    CascadeInvariants.check(queue);
    queue.cancel(timers.get(1));
    assertThat(queue.reschedule(cancelled, 500)).isFalse();
    assertThat(queue.size()).isEqualTo(64);
    CascadeInvariants.check(queue);
  }

  @Test
  void aLevelBucketAtTheMostSlotsCompactsInsteadOfGrowing() {
    CascadeTimerQueue<Integer> queue = new CascadeTimerQueue<>(TimerConfig.defaults(), 8, 64);
    queue.schedule(1 << 20, -1);
    queue.advance(1, timer -> {});
    List<TimerHandle<Integer>> timers = new ArrayList<>();
    for (int i = 0; i < 63; i++) {
      timers.add(queue.schedule(300, i));
    }
    Bucket bucket = queue.levels[1].buckets[1];
    queue.cancel(timers.get(0));
    timers.add(queue.schedule(300, 63));
    assertArray(bucket, 64, 64, 63);
    queue.cancel(timers.get(1));

    // One hole in 64 slots: the array would double, but its slots would then pass the most.
    queue.schedule(300, 64);

    assertArray(bucket, 64, 63, 63);
    CascadeInvariants.check(queue);
  }

  /** Asserts a bucket's array length, end and number of timers. */
  private static void assertArray(SlotBucket bucket, int length, int end, int live) {
    assertThat(bucket.slots).hasSize(length);
    assertThat(bucket.end).isEqualTo(end);
    assertThat(bucket.live).isEqualTo(live);
  }

  @Test
  void aDueBucketAtTheMostSlotsCompactsInsteadOfGrowing() {
    CascadeTimerQueue<Integer> queue = new CascadeTimerQueue<>(TimerConfig.defaults(), 8, 64);
    List<TimerHandle<Integer>> timers = new ArrayList<>();
    for (int i = 0; i < 64; i++) {
      timers.add(queue.schedule(0, i));
    }
    DueBucket due = queue.due;
    assertArray(due, 64, 64, 64);
    queue.cancel(timers.get(10));

    queue.schedule(0, 64);

    assertArray(due, 64, 64, 64);
    CascadeInvariants.check(queue);
    List<Integer> fired = new ArrayList<>();
    queue.advance(0, timer -> fired.add(timer.payload()));
    assertThat(fired).hasSize(64).doesNotContain(10).endsWith(63, 64);
  }
}
