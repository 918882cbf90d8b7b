package io.github.timerqueue.wheel;

import static io.github.timerqueue.wheel.WheelProbe.maxAllowedKey;
import static io.github.timerqueue.wheel.WheelProbe.wheel;
import static io.github.timerqueue.wheel.WheelProbe.where;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.testing.NullPointerTester;
import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerHandle;
import io.github.timerqueue.TimerQueue;
import io.github.timerqueue.TimerQueues;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What is special to the timing wheel: Jane Street's documented behaviour re-expressed for this
 * contract, its vocabulary, where timers are stored, and what advancing costs.
 */
class TimingWheelTest {
  private static final String SIXTY_TWO_ONES = "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1"
      + ",1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1";
  private static final String SIXTY_THREE_ONES = SIXTY_TWO_ONES + ",1";

  /** Records the payloads of fired timers, in firing order. */
  private static final class Fired<T> implements Consumer<TimerHandle<T>> {
    final List<T> payloads = new ArrayList<>();

    @Override
    public void accept(TimerHandle<T> timer) {
      payloads.add(timer.payload());
    }
  }

  // ---------------------------------------------------------------- level ranges

  @Test
  void levelRangesOfSmallConfigurationsAreTimingWheels() {
    // Timing_wheel's tests: level bits [1], [1; 1] and [3; 1] allow keys up to 1, 5 and 23 at start.
    assertThat(maxAllowedKey(wheel("1", 0, 1))).isEqualTo(1);
    assertThat(maxAllowedKey(wheel("1,1", 0, 1))).isEqualTo(5);
    assertThat(maxAllowedKey(wheel("3,1", 0, 1))).isEqualTo(23);
  }

  @ParameterizedTest
  @ValueSource(strings = {"1", "1,1", "3,1"})
  void maxAllowedAlarmTimeIsTheLastDeadlineInTheMaximumAllowedInterval(String levelBits) {
    TimingWheel<String> wheel = wheel(levelBits, 1_000, 10);
    long maxKey = maxAllowedKey(wheel);

    long lastHeld = wheel.maxAllowedAlarmTime();

    assertThat(lastHeld).isEqualTo(1_000 + (maxKey + 1) * 10);
    assertThat(wheel.intervalNum(lastHeld - 1)).isEqualTo(maxKey);
    TimerHandle<String> held = wheel.schedule(lastHeld, "held");
    TimerHandle<String> beyond = wheel.schedule(lastHeld + 1, "beyond");
    assertThat(where(wheel, held)).startsWith("level ");
    assertThat(where(wheel, beyond)).isEqualTo("overflow");
    TimingWheelInvariants.check(wheel);
  }

  @Test
  void levelRangesFollowTheMinimumAllowedKey() {
    // [1; 1]: level 0 holds the minimum and the key after it; level 1 starts at the next even key.
    TimingWheel<String> wheel = wheel("1,1", 0, 1);
    List<Long> maxKeys = new ArrayList<>();
    for (int now = 0; now <= 4; now++) {
      wheel.advance(now, timer -> {});
      maxKeys.add(maxAllowedKey(wheel));
    }
    assertThat(maxKeys).containsExactly(5L, 5L, 7L, 7L, 9L);
  }

  @ParameterizedTest
  @ValueSource(strings = {"1", "1,1", "3,1", "2,2,2", "5,1,3", "11,10,10,10,10,10,1"})
  void levelsHoldAtLeastTwoToTheirBitsKeysWhereverTheClockIs(String levelBits) {
    // Timing_wheel's guarantee: max_allowed_key >= min_allowed_key + 2^B - 1 (B: the sum of the bits).
    TimingWheel<String> wheel = wheel(levelBits, 0, 1);
    int top = wheel.levels.length - 1;
    long guaranteed = (1L << (wheel.levels[top].shift + wheel.levels[top].bits)) - 1;
    java.util.SplittableRandom random = new java.util.SplittableRandom(levelBits.hashCode());
    for (int i = 0; i < 2_000; i++) {
      wheel.advance(wheel.now() + random.nextLong(1, 1L << random.nextInt(1, 50)), timer -> {});
      assertThat(maxAllowedKey(wheel) - wheel.nowIntervalNum())
          .as("range at key %d", wheel.nowIntervalNum()).isGreaterThanOrEqualTo(guaranteed);
    }
  }

  @Test
  void aTimerGoesToTheLowestLevelThatHoldsItsKey() {
    // [3; 1] at start: level 0 holds keys 0..7, level 1 keys 8..23; a deadline's key is one less.
    TimingWheel<String> wheel = wheel("3,1", 0, 1);

    assertThat(where(wheel, wheel.schedule(8, "key 7"))).isEqualTo("level 0");
    assertThat(where(wheel, wheel.schedule(9, "key 8"))).isEqualTo("level 1");
    assertThat(where(wheel, wheel.schedule(24, "key 23"))).isEqualTo("level 1");
    assertThat(where(wheel, wheel.schedule(25, "key 24"))).isEqualTo("overflow");
    assertThat(where(wheel, wheel.schedule(0, "due"))).isEqualTo("due");
    TimingWheelInvariants.check(wheel);
  }

  @Test
  void timersMoveDownALevelAtATimeAsTheClockMoves() {
    // The worked example of TimingWheel's documentation.
    TimingWheel<String> wheel = wheel("3,1", 0, 1);
    TimerHandle<String> at20 = wheel.schedule(20, "20");
    TimerHandle<String> at30 = wheel.schedule(30, "30");
    assertThat(where(wheel, at20)).isEqualTo("level 1");
    assertThat(where(wheel, at30)).isEqualTo("overflow");

    wheel.advance(8, timer -> {});
    assertThat(where(wheel, at20)).isEqualTo("level 1");
    assertThat(where(wheel, at30)).isEqualTo("level 1");

    wheel.advance(16, timer -> {});
    assertThat(where(wheel, at20)).isEqualTo("level 0");
    assertThat(where(wheel, at30)).isEqualTo("level 1");

    Fired<String> fired = new Fired<>();
    wheel.advance(19, fired);
    assertThat(fired.payloads).isEmpty();
    wheel.advance(20, fired);
    assertThat(fired.payloads).containsExactly("20");
    TimingWheelInvariants.check(wheel);
  }

  // ---------------------------------------------------------------- intervals and alarms

  @Test
  void intervalsAreCountedFromTheStartInUnitsOfTheResolution() {
    TimingWheel<String> wheel = wheel("11,10,10,10,10,10,1", 1_000, 10);

    assertThat(wheel.intervalNum(1_000)).isZero();
    assertThat(wheel.intervalNum(1_009)).isZero();
    assertThat(wheel.intervalNum(1_010)).isEqualTo(1);
    assertThat(wheel.intervalStart(1_015)).isEqualTo(1_010);
    assertThat(wheel.intervalNumStart(5)).isEqualTo(1_050);
    assertThat(wheel.nowIntervalNum()).isZero();
    wheel.advance(1_234, timer -> {});
    assertThat(wheel.nowIntervalNum()).isEqualTo(23);
    assertThat(wheel.intervalStart(wheel.now())).isEqualTo(1_230);
  }

  @Test
  void intervalNumRejectsTimesOutsideTheClocksRange() {
    TimingWheel<String> wheel = wheel("11,10,10,10,10,10,1", 1_000, 10);

    assertThatThrownBy(() -> wheel.intervalNum(999))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("999");
    assertThatThrownBy(() -> wheel.intervalNumStart(-1L))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void intervalsWrapAroundTheEndOfTheLongRange() {
    TimingWheel<String> wheel = wheel("11,10,10,10,10,10,1", Long.MAX_VALUE - 5, 10);

    assertThat(wheel.intervalNum(Long.MAX_VALUE)).isZero();
    assertThat(wheel.intervalNum(Long.MIN_VALUE + 4)).isEqualTo(1);
    assertThat(wheel.intervalStart(Long.MIN_VALUE + 4)).isEqualTo(Long.MIN_VALUE + 4);
  }

  @Test
  void alarmsInTheSameIntervalFireTogether() {
    // Resolution 10: deadlines in (10, 20] share key 1 and fire when the clock reaches 20.
    TimingWheel<String> wheel = wheel("11,10,10,10,10,10,1", 0, 10);
    wheel.schedule(10, "10");
    wheel.schedule(11, "11");
    wheel.schedule(15, "15");
    wheel.schedule(20, "20");
    wheel.schedule(21, "21");
    Fired<String> fired = new Fired<>();

    assertThat(wheel.nextAlarmFiresAt()).hasValue(10);
    assertThat(wheel.advance(10, fired)).isEqualTo(1);
    assertThat(wheel.nextAlarmFiresAt()).hasValue(20);
    assertThat(wheel.advance(19, fired)).isZero();
    assertThat(wheel.advance(20, fired)).isEqualTo(3);
    assertThat(fired.payloads).containsExactly("10", "11", "15", "20");
    assertThat(wheel.nextAlarmFiresAt()).hasValue(30);
  }

  @Test
  void rescheduleAndNextAlarmSequence() {
    TimingWheel<String> wheel = wheel("11,10,10,10,10,10,1", 0, 10);
    assertThat(wheel.nextAlarmFiresAt()).isEmpty();
    assertThat(wheel.nextExpiryDelay()).isEqualTo(Long.MAX_VALUE);

    TimerHandle<String> a = wheel.schedule(5, "a");
    assertThat(wheel.nextAlarmFiresAt()).hasValue(10);
    TimerHandle<String> b = wheel.schedule(30, "b");
    assertThat(wheel.nextAlarmFiresAt()).hasValue(10);
    assertThat(wheel.reschedule(a, 25)).isTrue();
    assertThat(wheel.nextAlarmFiresAt()).hasValue(30);
    assertThat(wheel.reschedule(b, 12)).isTrue();
    assertThat(wheel.nextAlarmFiresAt()).hasValue(20);
    assertThat(wheel.nextExpiryDelay()).isEqualTo(20);
    assertThat(wheel.reschedule(a, 0)).isTrue();
    assertThat(wheel.nextAlarmFiresAt()).hasValue(0);
    assertThat(wheel.nextExpiryDelay()).isZero();

    Fired<String> fired = new Fired<>();
    assertThat(wheel.advance(0, fired)).isEqualTo(1);
    assertThat(wheel.nextAlarmFiresAt()).hasValue(20);
    assertThat(wheel.advance(19, fired)).isZero();
    assertThat(wheel.nextExpiryDelay()).isEqualTo(1);
    assertThat(wheel.advance(20, fired)).isEqualTo(1);
    assertThat(fired.payloads).containsExactly("a", "b");
    assertThat(wheel.nextAlarmFiresAt()).isEmpty();

    assertThat(wheel.reschedule(a, 47)).as("re-arming a fired timer").isFalse();
    assertThat(wheel.nextAlarmFiresAt()).hasValue(50);
    assertThat(wheel.cancel(a)).isTrue();
    assertThat(wheel.nextAlarmFiresAt()).isEmpty();
  }

  @Test
  void nextAlarmFiresAtIsWithinOneResolutionAfterTheEarliestDeadline() {
    java.util.SplittableRandom random = new java.util.SplittableRandom(42);
    for (int i = 0; i < 2_000; i++) {
      long resolution = random.nextLong(1, 5_000);
      TimingWheel<String> wheel =
          wheel(random.nextBoolean() ? "2,2,2" : TimingWheel.DEFAULT_LEVEL_BITS, random.nextLong(),
              resolution);
      wheel.advance(wheel.now() + random.nextLong(0, 1L << 30), timer -> {});
      long earliest = Long.MAX_VALUE;
      for (int j = random.nextInt(1, 5); j > 0; j--) {
        long distance = random.nextLong(1, 1L << random.nextInt(1, 40));
        earliest = Math.min(earliest, distance);
        wheel.schedule(wheel.now() + distance, "t");
      }
      long deadline = wheel.now() + earliest;

      long next = wheel.nextAlarmFiresAt().getAsLong();

      assertThat(next - deadline).as("next at or after the deadline").isGreaterThanOrEqualTo(0);
      assertThat(next - resolution - deadline).as("within one resolution").isLessThan(0);
      assertThat(wheel.intervalStart(next)).as("on an interval boundary").isEqualTo(next);
      assertThat(wheel.advance(next - 1, timer -> {})).isZero();
      assertThat(wheel.advance(next, timer -> {})).isPositive();
    }
  }

  @Test
  void advanceStopAtNextAlarmStopsAtEachAlarmInTurn() {
    TimingWheel<String> wheel = wheel("3,1", 0, 1);
    wheel.schedule(5, "5a");
    wheel.schedule(5, "5b");
    wheel.schedule(9, "9");
    wheel.schedule(100, "100");
    Fired<String> fired = new Fired<>();

    assertThat(wheel.advanceStopAtNextAlarm(50, fired)).isEqualTo(2);
    assertThat(wheel.now()).isEqualTo(5);
    assertThat(wheel.advanceStopAtNextAlarm(50, fired)).isEqualTo(1);
    assertThat(wheel.now()).isEqualTo(9);
    assertThat(wheel.advanceStopAtNextAlarm(50, fired)).isZero();
    assertThat(wheel.now()).isEqualTo(50);
    assertThat(wheel.advanceStopAtNextAlarm(200, fired)).isEqualTo(1);
    assertThat(wheel.now()).isEqualTo(100);
    assertThat(wheel.advanceStopAtNextAlarm(300, fired)).isZero();
    assertThat(wheel.now()).isEqualTo(300);
    assertThat(fired.payloads).containsExactly("5a", "5b", "9", "100");
  }

  // ---------------------------------------------------------------- order

  @Test
  void sameTimeAlarmsFireInInsertionOrder() {
    TimingWheel<Integer> wheel = wheel("11,10,10,10,10,10,1", 0, 1);
    for (int i = 0; i < 10; i++) {
      wheel.schedule(1_000_000, i);
    }
    Fired<Integer> fired = new Fired<>();
    wheel.advance(1_000_000, fired);
    assertThat(fired.payloads).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
  }

  @Test
  void sameTimeAlarmsArmedAsTheClockMovesFireInInsertionOrder() {
    // In Timing_wheel, key 20 would be stored at level 2 when armed at 0 and at level 1 when armed at
    // 4; at 12 the first would be appended behind the second, and fire after it.
    TimingWheel<String> wheel = wheel("2,2,2", 0, 1);
    TimerHandle<String> first = wheel.schedule(21, "armed at 0");
    wheel.advance(4, timer -> {});
    TimerHandle<String> second = wheel.schedule(21, "armed at 4");
    assertThat(where(wheel, first)).isEqualTo("level 2");
    assertThat(where(wheel, second)).isEqualTo("level 2");

    wheel.advance(12, timer -> {});
    assertThat(where(wheel, first)).isEqualTo("level 1");
    TimerHandle<String> third = wheel.schedule(21, "armed at 12");
    Fired<String> fired = new Fired<>();
    wheel.advance(21, fired);

    assertThat(fired.payloads).containsExactly("armed at 0", "armed at 4", "armed at 12");
    assertThat(third.isPending()).isFalse();
  }

  @Test
  void aRescheduledTimerFiresAfterTheOthersWithItsDeadline() {
    TimingWheel<String> wheel = wheel("11,10,10,10,10,10,1", 0, 1);
    TimerHandle<String> a = wheel.schedule(5_000, "a");
    wheel.schedule(5_000, "b");
    wheel.schedule(5_000, "c");
    wheel.reschedule(a, 5_000);
    Fired<String> fired = new Fired<>();
    wheel.advance(5_000, fired);
    assertThat(fired.payloads).containsExactly("b", "c", "a");
  }

  @Test
  void advancingTickByTickFiresInIntervalOrder() {
    java.util.SplittableRandom random = new java.util.SplittableRandom(7);
    TimingWheel<Long> wheel = wheel("3,2,2", 0, 4);
    for (int i = 0; i < 2_000; i++) {
      wheel.schedule(random.nextLong(1, 1_000), (long) i);
    }
    List<Long> firedIntervals = new ArrayList<>();
    while (wheel.size() > 0) {
      wheel.advance(wheel.now() + 4, timer -> {
        assertThat(wheel.intervalNum(timer.deadline() - 1)).isEqualTo(wheel.nowIntervalNum() - 1);
        firedIntervals.add(wheel.intervalNum(timer.deadline() - 1));
      });
    }
    assertThat(firedIntervals).hasSize(2_000).isSorted();
  }

  // ---------------------------------------------------------------- the end of the clock

  @ParameterizedTest
  @ValueSource(longs = {1, 1024})
  void advancingToTheMaximumTimeFiresEverythingDueOnTheWay(long resolution) {
    long start = 12_345;
    TimingWheel<String> wheel = wheel("11,10,10,10,10,10,1", start, resolution);
    Fired<String> fired = new Fired<>();
    wheel.schedule(start + Long.MAX_VALUE, "max value ahead");
    wheel.advance(start + Long.MAX_VALUE, fired);
    // With resolution 1024 the deadline rounds up to 2^63, which the next step passes.
    assertThat(fired.payloads).hasSize(resolution == 1 ? 1 : 0);
    TimingWheelInvariants.check(wheel);

    // A second step of Long.MAX_VALUE and one of 1 end one unit before the start time again:
    // 2^64 - 1 units from it, the end of the clock.
    wheel.schedule(wheel.now() + Long.MAX_VALUE - 2 * resolution, "just before");
    wheel.advance(wheel.now() + Long.MAX_VALUE, fired);
    assertThat(fired.payloads).containsExactly("max value ahead", "just before");
    TimingWheelInvariants.check(wheel);
    TimerHandle<String> last = wheel.schedule(wheel.now() + 1, "on the last unit");
    wheel.advance(wheel.now() + 1, fired);
    assertThat(wheel.now()).isEqualTo(start - 1);
    TimingWheelInvariants.check(wheel);
    if (resolution == 1) {
      assertThat(wheel.nowIntervalNum()).isEqualTo(-1L);
      assertThat(fired.payloads).endsWith("on the last unit");
    } else {
      // Its deadline rounds up to 2^64, beyond the clock: the contract leaves it unspecified.
      assertThat(last.isPending()).isTrue();
    }
    TimerHandle<String> due = wheel.schedule(wheel.now(), "due at the end");
    assertThat(wheel.nextExpiryDelay()).isZero();
    wheel.advance(wheel.now(), fired);
    assertThat(due.isPending()).isFalse();
    TimingWheelInvariants.check(wheel);
  }

  // ---------------------------------------------------------------- overflow

  @Test
  void theOverflowListIsReexaminedOnlyWhenTheTopLevelReachesItsSmallestKey() {
    // [3; 1]: the top level covers 16 keys and moves by 8 when the clock crosses a multiple of 8.
    TimingWheel<String> wheel = wheel("3,1", 0, 1);
    TimerHandle<String> far = wheel.schedule(40, "key 39");
    for (int now = 1; now < 16; now++) {
      wheel.advance(now, timer -> {});
      assertThat(where(wheel, far)).isEqualTo("overflow");
    }
    assertThat(wheel.overflowScans).as("the top level reached key 31 only").isZero();

    wheel.advance(16, timer -> {});
    assertThat(wheel.overflowScans).isEqualTo(1);
    assertThat(where(wheel, far)).isEqualTo("level 1");
    TimingWheelInvariants.check(wheel);
  }

  @Test
  void aTimerFarBeyondTheLevelsFiresOnTimeAfterOneFarAdvance() {
    TimingWheel<String> wheel = wheel("2,2", 0, 1);
    TimerHandle<String> far = wheel.schedule(1L << 50, "far");
    assertThat(wheel.nextExpiryDelay()).isEqualTo(1L << 50);
    Fired<String> fired = new Fired<>();
    wheel.advance((1L << 50) - 1, fired);
    assertThat(fired.payloads).isEmpty();
    assertThat(where(wheel, far)).isEqualTo("level 0");
    assertThat(wheel.nextExpiryDelay()).isEqualTo(1);
    wheel.advance(1L << 50, fired);
    assertThat(fired.payloads).containsExactly("far");
  }

  // ---------------------------------------------------------------- costs

  @Test
  void advancingOneIntervalAtATimeWithManyTimersFarAwayVisitsNoSlots() {
    TimingWheel<Integer> wheel = wheel("11,10,10,10,10,10,1", 0, 1);
    for (int i = 0; i < 10_000; i++) {
      wheel.schedule((1L << 30) + i * 4_096L, i);
    }
    for (int now = 1; now <= 2_000; now++) {
      wheel.advance(now, timer -> {});
    }
    assertThat(wheel.slotVisits).isZero();
    assertThat(wheel.size()).isEqualTo(10_000);
  }

  @Test
  void advancingPastEverythingPassesEachOccupiedSlotOnce() {
    TimingWheel<Long> wheel = wheel("4,4,4", 0, 1);
    long maxKey = maxAllowedKey(wheel);
    for (long key = 0; key <= maxKey; key++) {
      wheel.schedule(key + 1, key);
    }
    for (int level = 0; level < 3; level++) {
      assertThat(WheelProbe.timersInLevel(wheel, level)).as("level %d", level).isPositive();
    }
    wheel.schedule(1L << 45, -1L);

    int fired = wheel.advance(1L << 40, timer -> {});

    assertThat(fired).isEqualTo(maxKey + 1);
    // Level 0 has 16 occupied slots, level 1 the 15 after its first (whose keys are level 0's),
    // level 2 all 16.
    assertThat(wheel.slotVisits).isLessThanOrEqualTo(3 * 16).isEqualTo(16 + 16 + 15);
    TimingWheelInvariants.check(wheel);
  }

  // ---------------------------------------------------------------- scheduleWithin

  @Test
  void aWideRangeGoesToTheCoarsestSlotThatFiresWithinItAndNeverCascades() {
    // Default bits, resolution 1: level 2's first slot is passed when the clock reaches
    // 2^21 - 2^11, which lies within [1_000, 10_000_000]; level 3's first pass lies beyond it.
    TimingWheel<String> wheel = wheel("11,10,10,10,10,10,1", 0, 1);
    TimerHandle<String> timer = wheel.scheduleWithin(1_000, 10_000_000, "ranged");
    long passedAt = (1L << 21) - (1L << 11);

    assertThat(timer.deadline()).isEqualTo(passedAt);
    assertThat(where(wheel, timer)).isEqualTo("coarse level 2");
    assertThat(wheel.nextExpiryDelay()).isEqualTo(passedAt);
    java.util.SplittableRandom random = new java.util.SplittableRandom(3);
    Fired<String> fired = new Fired<>();
    while (wheel.now() < passedAt - 1) {
      wheel.advance(Math.min(passedAt - 1, wheel.now() + random.nextLong(1, 50_000)), fired);
      assertThat(where(wheel, timer)).isEqualTo("coarse level 2");
    }
    assertThat(fired.payloads).isEmpty();
    wheel.advance(passedAt, fired);
    assertThat(fired.payloads).containsExactly("ranged");
    TimingWheelInvariants.check(wheel);
  }

  @Test
  void aRangeEndingAtAPassTakesLatestAsItsDeadline() {
    TimingWheel<String> wheel = wheel("11,10,10,10,10,10,1", 0, 1);
    TimerHandle<String> timer = wheel.scheduleWithin(1, 2_048, "ranged");
    assertThat(where(wheel, timer)).isEqualTo("coarse level 1");
    assertThat(timer.deadline()).isEqualTo(2_048);
  }

  @Test
  void aNarrowRangeIsScheduledAtItsEarliest() {
    TimingWheel<String> wheel = wheel("11,10,10,10,10,10,1", 0, 1);
    TimerHandle<String> narrow = wheel.scheduleWithin(100, 200, "narrow");
    TimerHandle<String> started = wheel.scheduleWithin(-5, 5_000, "started");
    assertThat(narrow.deadline()).isEqualTo(100);
    assertThat(where(wheel, narrow)).isEqualTo("level 0");
    assertThat(started.deadline()).isEqualTo(-5);
    assertThat(where(wheel, started)).isEqualTo("due");
  }

  @Test
  void coarseTimersFireAfterTheOtherTimersOfTheirInterval() {
    TimingWheel<String> wheel = wheel("11,10,10,10,10,10,1", 0, 1);
    wheel.schedule(2_048, "first by key");
    wheel.scheduleWithin(1, 3_000, "first coarse");
    wheel.scheduleWithin(2, 2_100, "second coarse");
    wheel.schedule(2_048, "second by key");
    Fired<String> fired = new Fired<>();
    wheel.advance(2_047, fired);
    assertThat(fired.payloads).isEmpty();
    wheel.advance(2_048, fired);
    assertThat(fired.payloads)
        .containsExactly("first by key", "second by key", "first coarse", "second coarse");
  }

  @Test
  void scheduleWithinRespectsTheResolution() {
    // Resolution 10, tiny levels: every chosen deadline lies in the range, and the timer fires
    // neither before it nor after latest rounded up to a multiple of 10.
    java.util.SplittableRandom random = new java.util.SplittableRandom(11);
    for (int i = 0; i < 1_000; i++) {
      TimingWheel<String> wheel = wheel("2,2,2", 0, 10);
      wheel.advance(random.nextLong(0, 1_000), timer -> {});
      long earliest = wheel.now() + random.nextLong(1, 2_000);
      long latest = earliest + random.nextLong(0, 3_000);
      TimerHandle<String> timer = wheel.scheduleWithin(earliest, latest, "t");
      TimingWheelInvariants.check(wheel);
      assertThat(timer.deadline()).isBetween(earliest, latest);
      long mustFireBy = (latest + 9) / 10 * 10;
      long[] firedAt = {-1};
      Consumer<TimerHandle<String>> record = fired -> firedAt[0] = wheel.now();
      while (firedAt[0] < 0) {
        assertThat(wheel.now()).as("range [%d, %d]", earliest, latest).isLessThan(mustFireBy);
        wheel.advance(Math.min(mustFireBy, wheel.now() + random.nextLong(1, 16)), record);
      }
      assertThat(firedAt[0]).isBetween(earliest, mustFireBy)
          .isGreaterThanOrEqualTo(timer.deadline());
    }
  }

  // ---------------------------------------------------------------- configuration

  @Test
  void levelDurationsAreTheResolutionTimesTwoToTheBitsUpToEachLevel() {
    TimerConfig defaults = TimerConfig.defaults();
    assertThat(TimingWheel.levelDurations(defaults)).containsExactly(
        1L << 11, 1L << 21, 1L << 31, 1L << 41, 1L << 51, 1L << 61, 1L << 62);
    TimerConfig small = TimerConfig.builder().resolution(10)
        .option(TimingWheel.LEVEL_BITS_OPTION, "3,1").build();
    assertThat(TimingWheel.levelDurations(small)).containsExactly(80, 160);
    TimerConfig coarse = TimerConfig.builder().resolution(1_000).build();
    assertThat(TimingWheel.levelDurations(coarse))
        .endsWith(1_000L << 51, Long.MAX_VALUE, Long.MAX_VALUE);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", " ", "0", "-1", "a", "11,,10", "11,10,", "21", "10.5",
      "20,20,20,3", SIXTY_THREE_ONES})
  void invalidLevelBitsAreRejectedNamingTheOptionTheValueAndWhatIsAllowed(String levelBits) {
    TimerConfig config = TimerConfig.builder()
        .option(TimingWheel.LEVEL_BITS_OPTION, levelBits).build();

    assertThatThrownBy(() -> TimerQueues.create("wheel", config))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("levelBits")
        .hasMessageContaining("'" + levelBits + "'")
        .hasMessageContaining("at most 62")
        .hasMessageContaining("each from 1 to 20");
    assertThatThrownBy(() -> TimingWheel.levelDurations(config))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @ParameterizedTest
  @ValueSource(strings = {"1", " 3 , 1 ", "20,20,20,2", SIXTY_TWO_ONES})
  void validLevelBitsAreAccepted(String levelBits) {
    TimingWheel<String> wheel = wheel(levelBits, 0, 1);
    TimerHandle<String> timer = wheel.schedule(1L << 40, "t");
    wheel.advance(1L << 40, t -> {});
    assertThat(timer.isPending()).isFalse();
  }

  @Test
  void theQueueMadeByTheRegistryIsATimingWheel() {
    TimerQueue<String> queue = TimerQueues.create("wheel");
    assertThat(queue).isInstanceOf(TimingWheel.class);
    @SuppressWarnings("unchecked") // the documented cast path to Timing_wheel's vocabulary
    TimingWheel<String> wheel = (TimingWheel<String>) queue;
    assertThat(wheel.nextAlarmFiresAt()).isEqualTo(OptionalLong.empty());
    // At start, the default levels reach 3 * 2^61 intervals ahead: level 6 covers 2^61 to 3 * 2^61.
    assertThat(wheel.maxAllowedAlarmTime()).isEqualTo(3L << 61);
    TimingWheel<String> millis = wheel(TimingWheel.DEFAULT_LEVEL_BITS, 0, 1_000);
    assertThat(millis.maxAllowedAlarmTime()).as("beyond any deadline").isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void timingWheelsOwnVocabularyRejectsNullArguments() {
    TimingWheel<String> wheel = wheel("2,2,2", 0, 1);
    TimerHandle<String> timer = wheel.schedule(5, "t");
    NullPointerTester tester = new NullPointerTester()
        .setDefault(TimerConfig.class, TimerConfig.defaults())
        .setDefault(TimerHandle.class, timer)
        .setDefault(Consumer.class, (Consumer<TimerHandle<String>>) handle -> {});
    tester.testAllPublicStaticMethods(TimingWheel.class);
    tester.testAllPublicInstanceMethods(wheel);
    assertThat(wheel.now()).isZero();
    assertThat(timer.isPending()).isTrue();
    TimingWheelInvariants.check(wheel);
  }

  @Test
  void createRejectsOptionsOfOtherStrategies() {
    TimerConfig config = TimerConfig.builder().option("buckets", "8").build();
    assertThatThrownBy(() -> TimingWheel.create(config))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("buckets")
        .hasMessageContaining("levelBits");
  }
}
