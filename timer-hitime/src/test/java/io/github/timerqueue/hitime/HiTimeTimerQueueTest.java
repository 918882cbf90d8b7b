package io.github.timerqueue.hitime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What is special to {@code hitime}: where timers wait, how they move down the bins, what {@code
 * nextExpiryDelay} returns, and the order in which they fire. Most cases re-express the
 * original project's own tests. The structure is checked with {@link HiTimeInvariants} after
 * every step.
 */
class HiTimeTimerQueueTest {

  private static <T> HiTimeTimerQueue<T> queue(long start, long resolution) {
    return new HiTimeTimerQueue<>(
        TimerConfig.builder().startTime(start).resolution(resolution).build());
  }

  /** Advances to {@code now} and returns the payloads fired, in order; checks the structure. */
  private static <T> List<T> advanceTo(HiTimeTimerQueue<T> queue, long now) {
    List<T> fired = new ArrayList<>();
    queue.advance(now, timer -> fired.add(timer.payload()));
    HiTimeInvariants.check(queue);
    return fired;
  }

  private static <T> HiTimeTimer<T> timer(TimerHandle<T> handle) {
    return (HiTimeTimer<T>) handle;
  }

  private static <T> TimerBucket<T> bucketOf(HiTimeTimer<T> timer) {
    return timer.queue.bucketOf(timer);
  }

  /** The bin a pending timer waits in, or {@link TimerBucket#DUE}. */
  private static int binOf(HiTimeTimer<?> timer) {
    if ((timer.slot & HiTimeTimer.ID_SLOT) != 0) {
      HiTimeTimerQueue<?> queue = timer.queue;
      return 63 - Long.numberOfLeadingZeros(queue.tickOf(timer) ^ queue.nowTick);
    }
    return bucketOf(timer).bin;
  }

  // ---------------------------------------------------------------- bubbling down

  @ParameterizedTest
  @ValueSource(longs = {0, Long.MIN_VALUE, Long.MAX_VALUE, -1, 0x7A3D_91C4_55E0_0B17L})
  void aTimerAt0x0FBubblesDownOneBinPerStepWaiting8Then4Then2Then1(long start) {
    HiTimeTimerQueue<String> queue = queue(start, 1);
    HiTimeTimer<String> timer = timer(queue.schedule(start + 0x0F, "t"));
    HiTimeInvariants.check(queue);

    List<Long> waits = new ArrayList<>();
    List<Integer> bins = new ArrayList<>();
    List<String> fired = new ArrayList<>();
    while (fired.isEmpty()) {
      bins.add(binOf(timer));
      long wait = queue.nextExpiryDelay();
      waits.add(wait);
      fired.addAll(advanceTo(queue, queue.now() + wait));
    }

    assertThat(waits).containsExactly(8L, 4L, 2L, 1L);
    assertThat(bins).containsExactly(3, 2, 1, 0);
    assertThat(queue.now()).isEqualTo(start + 0x0F);
    assertThat(queue.nextExpiryDelay()).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void theClassDocumentationsWorkedExampleHoldsStepByStep() {
    HiTimeTimerQueue<String> queue = queue(0, 1);
    HiTimeTimer<String> timer = timer(queue.schedule(13, "t"));
    List<Integer> bins = new ArrayList<>();
    List<Long> waits = new ArrayList<>();
    while (timer.isPending()) {
      bins.add(binOf(timer));
      waits.add(queue.nextExpiryDelay());
      advanceTo(queue, queue.now() + waits.get(waits.size() - 1));
    }
    assertThat(bins).containsExactly(3, 2, 0);
    assertThat(waits).containsExactly(8L, 4L, 1L);

    HiTimeTimerQueue<String> jumping = queue(0, 1);
    jumping.schedule(13, "13");
    jumping.schedule(9, "9");
    assertThat(advanceTo(jumping, 20)).as("bin 3, whole and in its own order")
        .containsExactly("13", "9");
  }

  @Test
  void binsAreCountedInTicksOfTheResolutionFromTheStartTime() {
    HiTimeTimerQueue<String> queue = queue(1_000_003, 10);
    // 0x0F ticks of 10 from the start, minus a little: rounded up to tick 0x0F.
    HiTimeTimer<String> timer = timer(queue.schedule(1_000_003 + 0x0F * 10 - 4, "t"));

    assertThat(queue.tickOf(timer)).isEqualTo(0x0F);
    assertThat(binOf(timer)).isEqualTo(3);
    List<Long> waits = new ArrayList<>();
    while (timer.isPending()) {
      long wait = queue.nextExpiryDelay();
      waits.add(wait);
      advanceTo(queue, queue.now() + wait);
    }
    assertThat(waits).containsExactly(80L, 40L, 20L, 10L);
  }

  @Test
  void aDelayFromAClockBetweenTicksIsMeasuredToTheNextTickBoundary() {
    HiTimeTimerQueue<String> queue = queue(0, 64);
    advanceTo(queue, 3);
    TimerHandle<String> timer = queue.schedule(4, "t");

    assertThat(queue.nextExpiryDelay()).isEqualTo(61);
    assertThat(advanceTo(queue, 63)).isEmpty();
    assertThat(queue.nextExpiryDelay()).isEqualTo(1);
    assertThat(advanceTo(queue, 64)).containsExactly("t");
    assertThat(timer.isPending()).isFalse();
  }

  // ---------------------------------------------------------------- one per step

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void twoHundredFiftyFiveTimersOneUnitApartFireOnePerStepInOrder(boolean scheduledInReverse) {
    HiTimeTimerQueue<Long> queue = queue(-100, 1);
    for (long i = 1; i <= 255; i++) {
      long offset = scheduledInReverse ? 256 - i : i;
      queue.schedule(-100 + offset, offset);
    }
    HiTimeInvariants.check(queue);

    List<Long> firedPerStep = new ArrayList<>();
    for (int step = 1; step <= 255; step++) {
      assertThat(queue.nextExpiryDelay()).as("wait before step %d", step).isEqualTo(1);
      List<Long> fired = advanceTo(queue, queue.now() + 1);
      assertThat(fired).as("fired at step %d", step).hasSize(1);
      firedPerStep.add(fired.get(0));
    }

    List<Long> expected = new ArrayList<>();
    for (long i = 1; i <= 255; i++) {
      expected.add(i);
    }
    assertThat(firedPerStep).isEqualTo(expected);
    assertThat(queue.size()).isZero();
  }

  // ---------------------------------------------------------------- random 64-bit

  @Test
  void aTimerAtARandomDeadlineFromARandomStartFiresExactlyOnTimeInOneStepPerBitLeft() {
    SplittableRandom random = new SplittableRandom(0x4171_3E);
    for (int i = 0; i < 2_000; i++) {
      long start = random.nextLong();
      long distance = Math.max(1, random.nextLong(1, Long.MAX_VALUE) >>> random.nextInt(63));
      HiTimeTimerQueue<String> queue = queue(start, 1);
      long elapsed = random.nextLong(1L << random.nextInt(1, 62));
      advanceTo(queue, start + elapsed);
      TimerHandle<String> timer = queue.schedule(queue.now() + distance, "t");
      long tick = elapsed + distance;
      int topBin = 63 - Long.numberOfLeadingZeros(tick ^ elapsed);
      // One step to the flip of its first bin, then one per bit of the deadline below it.
      int expectedSteps = 1 + Long.bitCount(tick & ((1L << topBin) - 1));

      int steps = 0;
      while (timer.isPending()) {
        queue.advance(queue.now() + queue.nextExpiryDelay(), fired -> {});
        steps++;
      }

      String what = "start " + start + ", elapsed " + elapsed + ", distance " + distance;
      assertThat(queue.now()).as(what).isEqualTo(timer.deadline());
      assertThat(steps).as(what).isEqualTo(expectedSteps)
          .isLessThanOrEqualTo(2 + 63 - Long.numberOfLeadingZeros(distance));
    }
  }

  @Test
  void followingTheWaitThrough128RandomTimersTakesFewerThan8192StepsAndFiresThemSorted() {
    SplittableRandom random = new SplittableRandom(128);
    long start = random.nextLong();
    HiTimeTimerQueue<Long> queue = queue(start, 1);
    for (int i = 0; i < 128; i++) {
      long distance = Math.max(1, random.nextLong(1, Long.MAX_VALUE) >>> random.nextInt(64));
      queue.schedule(start + distance, distance);
    }
    HiTimeInvariants.check(queue);

    List<Long> fired = new ArrayList<>();
    int steps = 0;
    while (queue.size() > 0) {
      long wait = queue.nextExpiryDelay();
      assertThat(wait).isBetween(1L, Long.MAX_VALUE - 1);
      queue.advance(queue.now() + wait, timer -> {
        assertThat(queue.now()).isEqualTo(timer.deadline());
        fired.add(timer.payload());
      });
      HiTimeInvariants.check(queue);
      steps++;
    }

    assertThat(fired).hasSize(128).isSorted();
    assertThat(steps).isLessThan(8192);
  }

  // ---------------------------------------------------------------- ordering

  @Test
  void timersWithEqualDeadlinesFireInArmingOrderEvenWhenArmedAtDifferentTimes() {
    HiTimeTimerQueue<String> queue = queue(0, 1);
    queue.schedule(100, "a");
    queue.schedule(101, "later");
    advanceTo(queue, 50);
    queue.schedule(100, "b");
    queue.schedule(99, "earlier");
    advanceTo(queue, 70);
    queue.schedule(100, "c");
    assertThat(binOf(timer(queue.schedule(100, "d")))).isEqualTo(5);

    List<String> fired = new ArrayList<>();
    while (queue.size() > 0) {
      fired.addAll(advanceTo(queue, queue.now() + queue.nextExpiryDelay()));
    }
    assertThat(fired).containsExactly("earlier", "a", "b", "c", "d", "later");
  }

  @Test
  void aJumpExpiresLowerBinsWholeInBinOrderUnsortedWithinEachThenTheReexaminedBin() {
    HiTimeTimerQueue<Long> queue = queue(0, 1);
    for (long deadline : new long[] {1, 3, 2, 5, 4, 12, 9, 14}) {
      queue.schedule(deadline, deadline);
    }
    assertThat(queue.occupied).isEqualTo(0b1111);

    // 0 -> 12 changes bit 3 first: bins 0, 1 and 2 are due whole; bin 3 is re-examined.
    List<Long> fired = advanceTo(queue, 12);

    assertThat(fired).containsExactly(1L, 3L, 2L, 5L, 4L, 12L, 9L);
    assertThat(queue.occupied).as("14 moved from bin 3 to bin 1").isEqualTo(0b10);
    assertThat(advanceTo(queue, 14)).containsExactly(14L);
  }

  @Test
  void binsAboveTheHighestChangedBitAreLeftAlone() {
    HiTimeTimerQueue<String> queue = queue(0, 1);
    HiTimeTimer<String> far = timer(queue.schedule(0b1_0000_0101, "far"));
    HiTimeTimer<String> near = timer(queue.schedule(0b0111, "near"));
    assertThat(binOf(far)).isEqualTo(8);
    assertThat(binOf(near)).isEqualTo(2);

    assertThat(advanceTo(queue, 0b0110)).isEmpty();

    assertThat(binOf(far)).isEqualTo(8);
    assertThat(binOf(near)).isEqualTo(0);
    assertThat(advanceTo(queue, 0b0111)).containsExactly("near");
  }

  @Test
  void dueTimersLeftByALimitComeFirstInTheNextAdvance() {
    HiTimeTimerQueue<Integer> queue = queue(0, 1);
    for (int i = 0; i < 6; i++) {
      queue.schedule(1 + i, i);
    }
    List<Integer> fired = new ArrayList<>();

    assertThat(queue.advance(10, timer -> fired.add(timer.payload()), 2)).isEqualTo(2);
    HiTimeInvariants.check(queue);
    assertThat(queue.size()).isEqualTo(4);
    assertThat(queue.nextExpiryDelay()).isZero();
    queue.schedule(queue.now(), 100);
    queue.schedule(queue.now() + 1, 101);
    assertThat(queue.advance(11, timer -> fired.add(timer.payload()))).isEqualTo(6);

    assertThat(fired).containsExactly(0, 1, 2, 3, 4, 5, 100, 101);
    HiTimeInvariants.check(queue);
  }

  @Test
  void dueTimersLeftByAThrowingHandlerComeFirstAndTimersItArmedAfterThem() {
    HiTimeTimerQueue<Integer> queue = queue(0, 1);
    for (int i = 0; i < 5; i++) {
      queue.schedule(i, i);
    }
    RuntimeException failure = new RuntimeException("handler failed");

    Throwable thrown = catchThrowable(() -> queue.advance(10, timer -> {
      if (timer.payload() == 1) {
        queue.schedule(queue.now(), 50);
        throw failure;
      }
    }));

    assertThat(thrown).isSameAs(failure);
    HiTimeInvariants.check(queue);
    assertThat(queue.firing.isEmpty()).isTrue();
    assertThat(advanceTo(queue, 10)).containsExactly(2, 3, 4, 50);
  }

  // ---------------------------------------------------------------- moving timers

  @Test
  void rescheduleMovesAPendingTimerToTheBinItsNewDeadlineDictates() {
    HiTimeTimerQueue<String> queue = queue(0, 1);
    HiTimeTimer<String> timer = timer(queue.schedule(1_000, "t"));
    assertThat(binOf(timer)).isEqualTo(9);

    assertThat(queue.reschedule(timer, 5)).isTrue();

    assertThat(binOf(timer)).isEqualTo(2);
    assertThat(queue.bins[9].isEmpty()).isTrue();
    assertThat(queue.occupied).isEqualTo(1L << 2);
    HiTimeInvariants.check(queue);
    assertThat(advanceTo(queue, 4)).isEmpty();
    assertThat(advanceTo(queue, 5)).containsExactly("t");
    assertThat(advanceTo(queue, 1_000)).isEmpty();
  }

  @Test
  void aBinThatBecameDueWholeIsFiledInOrderAndEachTimerCanStillBeCancelledOrMoved() {
    HiTimeTimerQueue<String> queue = queue(0, 1);
    HiTimeTimer<String> first = timer(queue.schedule(2, "first"));
    HiTimeTimer<String> second = timer(queue.schedule(3, "second"));
    HiTimeTimer<String> third = timer(queue.schedule(3, "third"));
    TimerBucket<String> binOne = queue.bins[1];
    assertThat(List.of(bucketOf(first), bucketOf(second), bucketOf(third))).containsOnly(binOne);
    queue.advance(4, timer -> {}, 1);
    assertThat(List.of(bucketOf(second), bucketOf(third))).as("bin 1 became due whole")
        .containsOnly(queue.due);
    assertThat(queue.due.first()).isSameAs(second);
    assertThat(binOne.isEmpty()).isTrue();
    HiTimeTimer<String> refill = timer(queue.schedule(6, "refill"));
    assertThat(bucketOf(refill)).isSameAs(binOne);

    assertThat(queue.cancel(second)).isTrue();
    assertThat(queue.occupied).as("bin 1 still holds the refill").isEqualTo(1L << 1);
    HiTimeInvariants.check(queue);

    assertThat(queue.reschedule(third, 5)).isTrue();
    assertThat(binOf(third)).isEqualTo(0);
    assertThat(queue.due.isEmpty()).isTrue();
    HiTimeInvariants.check(queue);
    assertThat(advanceTo(queue, 5)).containsExactly("third");
    assertThat(advanceTo(queue, 6)).containsExactly("refill");
  }

  // ---------------------------------------------------------------- nextExpiryDelay

  @Test
  void nextExpiryDelayIsTheTimeToTheFlipOfTheLowestNonEmptyBin() {
    HiTimeTimerQueue<String> queue = queue(0, 1);
    assertThat(queue.nextExpiryDelay()).isEqualTo(Long.MAX_VALUE);
    queue.schedule(Long.MAX_VALUE, "far");
    assertThat(queue.nextExpiryDelay()).as("bin 62 flips at 2^62").isEqualTo(1L << 62);
    queue.schedule(0b1011_0000, "middle");
    assertThat(queue.nextExpiryDelay()).as("bin 7 flips at 128").isEqualTo(128);
    queue.schedule(0, "due");
    assertThat(queue.nextExpiryDelay()).isZero();
    assertThat(advanceTo(queue, 0)).containsExactly("due");
    assertThat(advanceTo(queue, 127)).isEmpty();
    assertThat(queue.nextExpiryDelay()).isEqualTo(1);
  }

  @Test
  void aTimerBeyondTheEndOfTheClockGivesTheLargestFiniteDelayNeverAWrappedOne() {
    HiTimeTimerQueue<String> queue = queue(0, 1000);
    advanceTo(queue, Long.MAX_VALUE);
    advanceTo(queue, queue.now() + Long.MAX_VALUE - 2_000);
    // The clock is 2^64 - 2002 units from its start; this deadline saturates at 2^64 - 1, whose
    // tick starts past the end of the clock.
    queue.schedule(queue.now() + 10_000, "beyond");

    assertThat(queue.nextExpiryDelay()).isEqualTo(Long.MAX_VALUE - 1);
  }

  // ---------------------------------------------------------------- scheduleWithin

  @ParameterizedTest
  @ValueSource(strings = {
    // resolution, now, earliest, latest -> chosen deadline
    "1, 0, 32, 64, 64",
    "1, 0, 33, 63, 48",
    "1, 0, 1, 1, 1",
    "1, 0, 5, 7, 6",
    "1, 0, 9, 11, 10",
    "1, 0, 17, 31, 24",
    "1, 0, 15, 15, 15",
    "1, 0, 100, 1000, 512",
    "1, 0, 1, 9223372036854775807, 4611686018427387904",
    "1, 100, 101, 110, 104",
    "1, 100, 128, 200, 128",
    "10, 0, 15, 95, 80",
    "10, 0, 15, 18, 18",
    "10, 0, 21, 39, 39",
    "10, 0, 20, 20, 20",
    "10, 3, 4, 9, 9",
    // At the horizon: tick 2^57 of 64 would start at 2^63, past now + MAX; 2^56 is chosen instead,
    // unless, as in the second row, no tick of the range starts before the horizon.
    "64, 0, 10, 9223372036854775807, 4611686018427387904",
    "64, 0, 9223372036854775800, 9223372036854775807, 9223372036854775807",
  })
  void scheduleWithinChoosesTheTickWithTheMostTrailingZeros(String row) {
    long[] v = parse(row);
    long resolution = v[0];
    long earliest = v[2];
    long latest = v[3];
    HiTimeTimerQueue<String> queue = queue(0, resolution);
    advanceTo(queue, v[1]);

    TimerHandle<String> timer = queue.scheduleWithin(earliest, latest, "t");

    assertThat(timer.deadline()).isEqualTo(v[4]);
    HiTimeInvariants.check(queue);
    // The start time is 0, so times are distances from it, compared unsigned near the horizon.
    long firedAt = followUntilFired(queue, timer);
    assertThat(Long.compareUnsigned(firedAt, earliest)).as("fired at %s, before %s",
        Long.toUnsignedString(firedAt), earliest).isNotNegative();
    long latestTicks = Long.divideUnsigned(latest, resolution);
    long latestRoundedUp = (latestTicks * resolution == latest ? latestTicks : latestTicks + 1)
        * resolution;
    assertThat(Long.compareUnsigned(firedAt, latestRoundedUp)).as("fired at %s, after %s",
        Long.toUnsignedString(firedAt), Long.toUnsignedString(latestRoundedUp)).isNotPositive();
  }

  @Test
  void aChosenPowerOfTwoIsReachedInOneStepWhereTheEarliestDeadlineNeedsOnePerBit() {
    HiTimeTimerQueue<String> queue = queue(0, 1);
    TimerHandle<String> ranged = queue.scheduleWithin(0b10_0111, 64, "ranged");
    int rangedSteps = stepsUntilFired(queue, ranged);

    HiTimeTimerQueue<String> other = queue(0, 1);
    TimerHandle<String> exact = other.schedule(0b10_0111, "exact");
    int exactSteps = stepsUntilFired(other, exact);

    assertThat(ranged.deadline()).isEqualTo(64);
    assertThat(rangedSteps).isEqualTo(1);
    assertThat(exactSteps).isEqualTo(4);
  }

  @Test
  void aRangeStartingAtOrBeforeNowIsDueAtOnceWithEarliestAsItsDeadline() {
    HiTimeTimerQueue<String> queue = queue(0, 64);
    advanceTo(queue, 100);

    TimerHandle<String> timer = queue.scheduleWithin(90, 200, "t");

    assertThat(timer.deadline()).isEqualTo(90);
    assertThat(queue.due.first()).isSameAs(timer);
    assertThat(queue.nextExpiryDelay()).isZero();
    assertThat(advanceTo(queue, 100)).containsExactly("t");
  }

  @Test
  void aRangeWhoseLatestWrapsPastLongMaxValueAheadEndsThere() {
    HiTimeTimerQueue<String> queue = queue(0, 1);
    long earliest = Long.MAX_VALUE - 2;
    long latest = earliest + 10; // wraps: by the signed rule alone this lies behind the clock

    TimerHandle<String> timer = queue.scheduleWithin(earliest, latest, "t");

    // The range is [MAX - 2, MAX]: of those ticks, MAX - 1 has the most trailing zeros.
    assertThat(timer.deadline()).isEqualTo(Long.MAX_VALUE - 1);
    HiTimeInvariants.check(queue);
    assertThat(advanceTo(queue, Long.MAX_VALUE - 2)).isEmpty();
    assertThat(advanceTo(queue, Long.MAX_VALUE - 1)).containsExactly("t");
  }

  private static long[] parse(String row) {
    String[] parts = row.split(",");
    long[] values = new long[parts.length];
    for (int i = 0; i < parts.length; i++) {
      values[i] = Long.parseLong(parts[i].trim());
    }
    return values;
  }

  private static long followUntilFired(HiTimeTimerQueue<String> queue, TimerHandle<String> timer) {
    stepsUntilFired(queue, timer);
    return queue.now();
  }

  private static int stepsUntilFired(HiTimeTimerQueue<String> queue, TimerHandle<String> timer) {
    int steps = 0;
    while (timer.isPending()) {
      advanceTo(queue, queue.now() + queue.nextExpiryDelay());
      steps++;
    }
    return steps;
  }
}
