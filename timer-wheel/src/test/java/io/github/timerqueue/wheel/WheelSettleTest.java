package io.github.timerqueue.wheel;

import static io.github.timerqueue.wheel.WheelProbe.scheduleAt;
import static io.github.timerqueue.wheel.WheelProbe.wheel;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.timerqueue.TimerHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/**
 * A cancel outside an advance leaves its bucket's counting the timer out to the next operation
 * ({@link TimingWheel#settle}): the timer is not pending at once, and its bucket counts it out
 * before anything reads the bucket's counts, or just after the next append.
 */
class WheelSettleTest {

  /** A wheel of two 4-bit levels at clock 0, eight timers in the bucket of level 1 at key 100. */
  private static TimingWheel<Integer> wheelWithABucket(List<TimerHandle<Integer>> timers) {
    TimingWheel<Integer> wheel = wheel("4,4", 0, 1);
    timers.addAll(scheduleAt(wheel, 100, 8));
    return wheel;
  }

  private static Bucket<Integer> bucketOf(TimerHandle<Integer> timer) {
    return ((WheelTimer<Integer>) timer).bucket();
  }

  @Test
  void aCancelIsNotPendingAtOnceAndItsBucketCountsItOutAtTheNextOperation() {
    Map<String, BiConsumer<TimingWheel<Integer>, List<TimerHandle<Integer>>>> operations =
        new TreeMap<>();
    operations.put("schedule", (wheel, timers) -> wheel.schedule(200, 9));
    operations.put("scheduleWithin", (wheel, timers) -> wheel.scheduleWithin(150, 250, 9));
    operations.put("cancel of a timer not pending", (wheel, timers) -> {
      assertThat(wheel.cancel(timers.get(3))).isFalse();
    });
    operations.put("advance", (wheel, timers) -> wheel.advance(1, timer -> {}));
    operations.put("nextExpiryDelay", (wheel, timers) -> wheel.nextExpiryDelay());
    operations.put("nextAlarmFiresAt", (wheel, timers) -> wheel.nextAlarmFiresAt());
    operations.put("forEach", (wheel, timers) -> wheel.forEach(timer -> {}));
    for (var operation : operations.entrySet()) {
      List<TimerHandle<Integer>> timers = new ArrayList<>();
      TimingWheel<Integer> wheel = wheelWithABucket(timers);
      Bucket<Integer> bucket = bucketOf(timers.get(0));

      assertThat(wheel.cancel(timers.get(3))).isTrue();

      assertThat(timers.get(3).isPending()).isFalse();
      assertThat(wheel.size()).isEqualTo(7);
      assertThat(bucket.size).as("counted out by the next operation").isEqualTo(8);
      TimingWheelInvariants.check(wheel);
      assertThat(bucket.size).as("as the check does").isEqualTo(7);

      wheel.cancel(timers.get(4));
      assertThat(bucket.size).isEqualTo(7);
      operation.getValue().accept(wheel, timers);

      assertThat(wheel.unsettledSlot).as(operation.getKey()).isEqualTo(WheelTimer.NOT_PENDING);
      assertThat(bucket.size).as(operation.getKey()).isEqualTo(6);
      TimingWheelInvariants.check(wheel);
    }
  }

  @Test
  void reschedulingEitherTimerAfterACancelCountsTheCancelOut() {
    for (int rescheduled : new int[] {3, 5}) {
      List<TimerHandle<Integer>> timers = new ArrayList<>();
      TimingWheel<Integer> wheel = wheelWithABucket(timers);
      Bucket<Integer> bucket = bucketOf(timers.get(0));
      wheel.cancel(timers.get(3));

      // Timer 3 is re-armed (not pending), timer 5 moved (pending): both leave the bucket counted.
      wheel.reschedule(timers.get(rescheduled), 200);

      assertThat(wheel.unsettledSlot).isEqualTo(WheelTimer.NOT_PENDING);
      assertThat(bucket.size).isEqualTo(rescheduled == 3 ? 7 : 6);
      TimingWheelInvariants.check(wheel);
    }
  }

  @Test
  void drainAndClearCountTheCancelOutBeforeTheyEmptyTheBuckets() {
    for (boolean drain : new boolean[] {true, false}) {
      List<TimerHandle<Integer>> timers = new ArrayList<>();
      TimingWheel<Integer> wheel = wheelWithABucket(timers);
      wheel.cancel(timers.get(3));
      List<Integer> drained = new ArrayList<>();

      if (drain) {
        assertThat(wheel.drain(timer -> drained.add(timer.payload()))).isEqualTo(7);
        assertThat(drained).containsExactly(0, 1, 2, 4, 5, 6, 7);
      } else {
        wheel.clear();
      }

      assertThat(wheel.size()).isZero();
      assertThat(wheel.unsettledSlot).isEqualTo(WheelTimer.NOT_PENDING);
      assertThat(wheel.slab.freeChunks).isEqualTo(wheel.slab.chunks());
      TimingWheelInvariants.check(wheel);
    }
  }

  @Test
  void aCancelFromAHandlerIsCountedOutAtOnce() {
    List<TimerHandle<Integer>> timers = new ArrayList<>();
    TimingWheel<Integer> wheel = wheelWithABucket(timers);
    TimerHandle<Integer> early = wheel.schedule(10, 99);
    Bucket<Integer> bucket = bucketOf(timers.get(0));

    wheel.advance(10, timer -> {
      wheel.cancel(timers.get(2));
      assertThat(wheel.unsettledSlot).isEqualTo(WheelTimer.NOT_PENDING);
      assertThat(bucket.size).isEqualTo(7);
    });

    assertThat(early.isPending()).isFalse();
    TimingWheelInvariants.check(wheel);
  }

  @Test
  void theLastTimerOfABucketCancelledThenOneArmedInItsSlotFiresAlone() {
    TimingWheel<Integer> wheel = wheel("4,4", 0, 1);
    List<TimerHandle<Integer>> timers = scheduleAt(wheel, 100, 5);
    Bucket<Integer> bucket = bucketOf(timers.get(0));
    for (TimerHandle<Integer> timer : timers) {
      wheel.cancel(timer);
    }

    // The bucket still counts the last timer when this one joins it, and then counts it out.
    TimerHandle<Integer> added = wheel.schedule(101, 5);

    assertThat(bucketOf(added)).isSameAs(bucket);
    assertThat(bucket.size).isOne();
    TimingWheelInvariants.check(wheel);
    List<Integer> fired = new ArrayList<>();
    wheel.advance(200, timer -> fired.add(timer.payload()));
    assertThat(fired).containsExactly(5);
    TimingWheelInvariants.check(wheel);
  }

  /**
   * Cancels at random, each followed by another operation at random, against a model of which
   * timers are pending, with the invariants checked after every step: a cancel's counting out is
   * settled by whatever comes next.
   */
  @Test
  void randomCancelsFollowedByAnyOperationKeepTheWheelConsistent() {
    SplittableRandom random = new SplittableRandom(0x5E77L);
    TimingWheel<Integer> wheel = wheel("3,3,3", 0, 1);
    List<TimerHandle<Integer>> pending = new ArrayList<>();
    long now = 0;
    for (int step = 0; step < 20_000; step++) {
      if (pending.size() < 40) {
        pending.add(wheel.schedule(now + 1 + random.nextInt(600), step));
        continue;
      }
      TimerHandle<Integer> cancelled = pending.remove(random.nextInt(pending.size()));
      assertThat(wheel.cancel(cancelled)).isTrue();
      switch (random.nextInt(5)) {
        case 0 -> pending.add(wheel.schedule(now + 1 + random.nextInt(600), step));
        case 1 -> {
          TimerHandle<Integer> moved = pending.get(random.nextInt(pending.size()));
          assertThat(wheel.reschedule(moved, now + 1 + random.nextInt(600))).isTrue();
        }
        case 2 -> {
          assertThat(wheel.reschedule(cancelled, now + 1 + random.nextInt(600))).isFalse();
          pending.add(cancelled);
        }
        case 3 -> {
          now += random.nextInt(8);
          wheel.advance(now, timer -> assertThat(pending.remove(timer)).isTrue());
        }
        default -> wheel.nextExpiryDelay();
      }
      assertThat(wheel.size()).isEqualTo(pending.size());
      TimingWheelInvariants.check(wheel);
    }
  }
}
