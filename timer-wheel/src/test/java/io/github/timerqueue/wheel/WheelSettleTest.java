package io.github.timerqueue.wheel;

import static io.github.timerqueue.wheel.WheelProbe.scheduleAt;
import static io.github.timerqueue.wheel.WheelProbe.wheel;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.timerqueue.TimerHandle;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/**
 * A cancel or a reschedule outside an advance leaves its bucket's counting the timer out to the
 * next operation ({@link TimingWheel#settle}): the timer is not pending, or pending in its new
 * bucket, at once, and its old bucket counts it out before anything reads the bucket's counts, or
 * just after the next append.
 */
class WheelSettleTest {
  /** Runs of {@link #longRunsOfCancelsAndMovesKeepTheWheelConsistent}: 50 times as many in soak. */
  private static final int RUNS = Boolean.getBoolean("timerqueue.soak") ? 100_000 : 2_000;

  /** A wheel of two 4-bit levels at clock 0, eight timers in the bucket of level 1 at key 100. */
  private static TimingWheel<Integer> wheelWithABucket(List<TimerHandle<Integer>> timers) {
    TimingWheel<Integer> wheel = wheel("4,4", 0, 1);
    timers.addAll(scheduleAt(wheel, 100, 8));
    return wheel;
  }

  private static Bucket<Integer> bucketOf(TimerHandle<Integer> timer) {
    return ((WheelTimer<Integer>) timer).bucket();
  }

  /**
   * Operations, by name, that settle what the last cancel or reschedule left and leave nothing to
   * settle, on a wheel of {@link #wheelWithABucket} with its timers.
   */
  private static Map<String, BiConsumer<TimingWheel<Integer>, List<TimerHandle<Integer>>>>
      settlingOperations() {
    Map<String, BiConsumer<TimingWheel<Integer>, List<TimerHandle<Integer>>>> operations =
        new TreeMap<>();
    operations.put("schedule", (wheel, timers) -> wheel.schedule(200, 9));
    operations.put("scheduleWithin", (wheel, timers) -> wheel.scheduleWithin(150, 250, 9));
    operations.put("advance", (wheel, timers) -> wheel.advance(1, timer -> {}));
    operations.put("nextExpiryDelay", (wheel, timers) -> wheel.nextExpiryDelay());
    operations.put("nextAlarmFiresAt", (wheel, timers) -> wheel.nextAlarmFiresAt());
    operations.put("forEach", (wheel, timers) -> wheel.forEach(timer -> {}));
    return operations;
  }

  @Test
  void aCancelIsNotPendingAtOnceAndItsBucketCountsItOutAtTheNextOperation() {
    var operations = settlingOperations();
    operations.put("cancel of a timer not pending", (wheel, timers) -> {
      assertThat(wheel.cancel(timers.get(3))).isFalse();
    });
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

      int oldSlot = ((WheelTimer<Integer>) timers.get(rescheduled)).slot;

      // Timer 3 is re-armed (not pending), timer 5 moved (pending): both count the cancel out, and
      // the move leaves its own old slot to the next operation.
      wheel.reschedule(timers.get(rescheduled), 200);

      assertThat(bucket.size).isEqualTo(7);
      assertThat(wheel.unsettledSlot)
          .isEqualTo(rescheduled == 3 ? WheelTimer.NOT_PENDING : oldSlot);
      TimingWheelInvariants.check(wheel);
      assertThat(bucket.size).isEqualTo(rescheduled == 3 ? 7 : 6);
    }
  }

  @Test
  void aRescheduleIsPendingAtOnceAndItsOldBucketCountsItOutAtTheNextOperation() {
    var operations = settlingOperations();
    operations.put("cancel", (wheel, timers) -> assertThat(wheel.cancel(timers.get(1))).isTrue());
    operations.put("reschedule", (wheel, timers) -> wheel.reschedule(timers.get(1), 300));
    operations.put("drain", (wheel, timers) -> wheel.drain(timer -> {}));
    operations.put("clear", (wheel, timers) -> wheel.clear());
    for (var operation : operations.entrySet()) {
      List<TimerHandle<Integer>> timers = new ArrayList<>();
      TimingWheel<Integer> wheel = wheelWithABucket(timers);
      Bucket<Integer> bucket = bucketOf(timers.get(0));
      WheelTimer<Integer> moved = (WheelTimer<Integer>) timers.get(4);
      int oldSlot = moved.slot;
      int otherSlot = ((WheelTimer<Integer>) timers.get(1)).slot;

      assertThat(wheel.reschedule(moved, 400)).isTrue();

      assertThat(moved.isPending()).isTrue();
      assertThat(moved.slot).isNotEqualTo(oldSlot);
      assertThat(wheel.size()).isEqualTo(8);
      assertThat(bucket.size).as("counted out by the next operation").isEqualTo(8);
      assertThat(wheel.unsettledSlot).isEqualTo(oldSlot);
      operation.getValue().accept(wheel, timers);

      // The move is counted out; a cancel or move of timer 1 leaves its own slot to the next.
      String name = operation.getKey();
      boolean leavesOther = name.equals("cancel") || name.equals("reschedule");
      assertThat(wheel.unsettledSlot).as(name)
          .isEqualTo(leavesOther ? otherSlot : WheelTimer.NOT_PENDING);
      boolean emptied = name.equals("drain") || name.equals("clear");
      assertThat(bucket.size).as(name).isEqualTo(emptied ? 0 : 7);
      TimingWheelInvariants.check(wheel);
      assertThat(bucket.size).as(name).isEqualTo(emptied ? 0 : leavesOther ? 6 : 7);
    }
  }

  @Test
  void aCompactionWhileARescheduleIsUnsettledKeepsItsOldSlotForItsBucketToCountOut() {
    TimingWheel<Integer> wheel = wheel("4,4", 0, 1);
    List<TimerHandle<Integer>> timers = scheduleAt(wheel, 100, 64);
    Bucket<Integer> bucket = bucketOf(timers.get(0));
    for (int i = 1; i <= 48; i++) {
      wheel.cancel(timers.get(i));
    }
    wheel.settle();
    assertThat(bucket.size).isEqualTo(16);
    assertThat(bucket.fill).as("48 holes for 16 timers: not yet sparse").isEqualTo(64);
    wheel.cancel(timers.get(60));
    WheelTimer<Integer> moved = (WheelTimer<Integer>) timers.get(55);

    // Moved to another bucket: settling the cancel after it makes the bucket sparse (49 holes
    // for 15 timers, the move still counted), and compaction keeps the stale slot the move left,
    // after the seven timers before it.
    assertThat(wheel.reschedule(moved, 200)).isTrue();

    assertThat(bucket.fill).as("compacted").isEqualTo(15);
    assertThat(bucket.size).isEqualTo(15);
    int kept = wheel.unsettledSlot;
    assertThat(kept).isEqualTo(Bucket.slotIn(bucket.first, 7));
    assertThat(wheel.slab.get(kept)).isSameAs(moved);
    assertThat(wheel.slab.bucketOf(kept)).isSameAs(bucket);
    assertThat(moved.isListed()).as("the timer keeps its new place, a short list").isTrue();
    TimingWheelInvariants.check(wheel);
    assertThat(bucket.size).isEqualTo(14);

    List<Integer> fired = new ArrayList<>();
    wheel.advance(200, timer -> fired.add(timer.payload()));
    assertThat(fired)
        .containsExactly(0, 49, 50, 51, 52, 53, 54, 56, 57, 58, 59, 61, 62, 63, 55);
    TimingWheelInvariants.check(wheel);
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

  /**
   * Cancels and moves at random in runs of operations with nothing else between them, so that
   * each settles the slot the one before left, and the compactions that this may cause meet the
   * slot that the operation itself left; against a model of the pending timers' deadlines. The
   * slot left to settle is checked after every operation, the invariants only between runs, since
   * that check settles. {@code -Dtimerqueue.soak=true} makes the runs 50 times as many.
   */
  @Test
  void longRunsOfCancelsAndMovesKeepTheWheelConsistent() {
    SplittableRandom random = new SplittableRandom(0x5E78L);
    TimingWheel<Integer> wheel = wheel("3,3,3", 0, 1);
    Map<TimerHandle<Integer>, Long> model = new HashMap<>();
    List<TimerHandle<Integer>> timers = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      long deadline = 1 + random.nextInt(600);
      TimerHandle<Integer> timer = wheel.schedule(deadline, i);
      timers.add(timer);
      model.put(timer, deadline);
    }
    long now = 0;
    for (int run = 0; run < RUNS; run++) {
      for (int operation = 0; operation < 32; operation++) {
        TimerHandle<Integer> timer = timers.get(random.nextInt(timers.size()));
        if (random.nextInt(3) == 0) {
          assertThat(wheel.cancel(timer)).isEqualTo(model.remove(timer) != null);
        } else {
          long deadline = now + 1 + random.nextInt(600);
          boolean pending = model.put(timer, deadline) != null;
          assertThat(wheel.reschedule(timer, deadline)).isEqualTo(pending);
        }
        TimingWheelInvariants.checkUnsettled(wheel);
      }
      TimingWheelInvariants.check(wheel);
      now += random.nextInt(16);
      long clock = now;
      wheel.advance(now, timer -> assertThat(model.remove(timer)).isLessThanOrEqualTo(clock));
      assertThat(model.values()).as("all due timers fired").allMatch(deadline -> deadline > clock);
      assertThat(wheel.size()).isEqualTo(model.size());
    }
    TimingWheelInvariants.check(wheel);
  }
}
