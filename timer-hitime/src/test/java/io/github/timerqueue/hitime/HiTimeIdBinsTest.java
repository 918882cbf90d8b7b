package io.github.timerqueue.hitime;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerHandle;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * How {@code hitime} holds its {@value IdBins#BINS} lowest bins by id: which way of filing a bin
 * chooses that layout, the bound on the timers held so, the stale entries that cancelling leaves
 * and the ids it frees, and timers held by id rescheduled, fired at the end of the clock, cleared
 * and drained. The structure, ids included, is checked with {@link HiTimeInvariants} at every
 * step.
 */
class HiTimeIdBinsTest {
  /** The first tick of bin 12 from tick 0: the re-examination of bin 12 fills the low bins. */
  private static final long BIN_12 = 1 << 12;

  private static HiTimeTimerQueue<Integer> queue(long start, int freeHeld) {
    return new HiTimeTimerQueue<>(TimerConfig.builder().startTime(start).build(), freeHeld);
  }

  private static HiTimeTimer<Integer> timer(TimerHandle<Integer> handle) {
    return (HiTimeTimer<Integer>) handle;
  }

  private static boolean heldById(HiTimeTimer<?> timer) {
    return timer.isPending() && (timer.slot & HiTimeTimer.ID_SLOT) != 0;
  }

  /**
   * Arms {@code count} timers at ticks 2^12 + 1 to 2^13 - 1 from {@code start}, in an order of
   * ticks at random, all in bin 12; payloads number them in arming order.
   */
  private static List<HiTimeTimer<Integer>> armOutOfOrderInBin12(
      HiTimeTimerQueue<Integer> queue, long start, int count, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    List<HiTimeTimer<Integer>> timers = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      timers.add(timer(queue.schedule(start + BIN_12 + 1 + random.nextLong(BIN_12 - 1), i)));
    }
    assertThat(queue.bins[12].size).isEqualTo(count);
    return timers;
  }

  /** Advances one unit at a time until {@code end}, checking each timer fires at its deadline. */
  private static List<Integer> fireOneUnitAtATime(HiTimeTimerQueue<Integer> queue, long end) {
    List<Integer> fired = new ArrayList<>();
    while (queue.now() - end < 0) {
      queue.advance(queue.now() + 1, timer -> {
        assertThat(timer.deadline()).as("deadline of timer %s", timer.payload())
            .isEqualTo(queue.now());
        fired.add(timer.payload());
      });
      if (queue.now() % 97 == 0) {
        HiTimeInvariants.check(queue);
      }
    }
    HiTimeInvariants.check(queue);
    return fired;
  }

  /**
   * The payloads of the timers sorted by deadline counted from {@code origin}, in arming order
   * (that of the payloads) among equal deadlines.
   */
  private static List<Integer> byDeadline(List<HiTimeTimer<Integer>> timers, long origin) {
    List<HiTimeTimer<Integer>> sorted = new ArrayList<>(timers);
    sorted.sort(Comparator.comparingLong((HiTimeTimer<Integer> timer) -> timer.deadline() - origin)
        .thenComparing(HiTimeTimer::payload));
    List<Integer> payloads = new ArrayList<>();
    sorted.forEach(timer -> payloads.add(timer.payload()));
    return payloads;
  }

  @ParameterizedTest
  @ValueSource(longs = {0, Long.MIN_VALUE, Long.MAX_VALUE - 5_000, -1})
  void aBinOutOfTickOrderFilesItsTimersIntoTheEmptyLowBinsByIdAndEachFiresAtItsDeadline(
      long start) {
    HiTimeTimerQueue<Integer> queue = queue(start, HiTimeTimerQueue.FREE_HELD);
    List<HiTimeTimer<Integer>> timers = armOutOfOrderInBin12(queue, start, 1_000, start);
    assertThat(queue.bins[12].sorted()).isFalse();

    assertThat(queue.advance(start + BIN_12, timer -> {})).isZero();

    HiTimeInvariants.check(queue);
    assertThat(timers).allMatch(HiTimeIdBinsTest::heldById);
    assertThat(queue.low.held()).isEqualTo(1_000);
    for (int bin = 0; bin < IdBins.BINS; bin++) {
      boolean occupied = (queue.occupied & (1L << bin)) != 0;
      assertThat(queue.isIdBin(bin)).as("bin %d", bin).isEqualTo(occupied);
    }
    assertThat(fireOneUnitAtATime(queue, start + 2 * BIN_12)).isEqualTo(byDeadline(timers, start));
    assertThat(queue.size()).isZero();
    assertThat(queue.low.held()).isZero();
  }

  @Test
  void aBinOutOfTickOrderWhoseTimersWouldPassTheBoundFilesThemByReference() {
    HiTimeTimerQueue<Integer> queue = queue(0, 0);
    List<HiTimeTimer<Integer>> timers = armOutOfOrderInBin12(queue, 0, 1_000, 5);

    queue.advance(BIN_12, timer -> {});

    HiTimeInvariants.check(queue);
    assertThat(timers).noneMatch(HiTimeIdBinsTest::heldById);
    assertThat(queue.idLayout & queue.occupied).isZero();
    assertThat(fireOneUnitAtATime(queue, 2 * BIN_12)).isEqualTo(byDeadline(timers, 0));
  }

  @Test
  void aBinInTickOrderFilesItsTimersIntoTheLowBinsByReference() {
    HiTimeTimerQueue<Integer> queue = queue(0, HiTimeTimerQueue.FREE_HELD);
    List<HiTimeTimer<Integer>> timers = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      timers.add(timer(queue.schedule(BIN_12 + 1 + 4 * i, i)));
    }
    assertThat(queue.bins[12].sorted()).isTrue();

    queue.advance(BIN_12, timer -> {});

    HiTimeInvariants.check(queue);
    assertThat(timers).noneMatch(HiTimeIdBinsTest::heldById);
    assertThat(fireOneUnitAtATime(queue, 2 * BIN_12)).isEqualTo(byDeadline(timers, 0));
  }

  @Test
  void anArmingJoinsABinHeldByIdByIdAndFillsAnEmptyLowBinByReference() {
    HiTimeTimerQueue<Integer> queue = queue(0, HiTimeTimerQueue.FREE_HELD);
    List<HiTimeTimer<Integer>> timers = armOutOfOrderInBin12(queue, 0, 200, 11);
    queue.advance(BIN_12, timer -> {});
    int heldBin = Long.numberOfTrailingZeros(queue.occupied & queue.idLayout);
    int emptyBin = Long.numberOfTrailingZeros(~queue.occupied);
    assertThat(heldBin).isLessThan(IdBins.BINS);
    assertThat(emptyBin).isLessThan(IdBins.BINS);

    HiTimeTimer<Integer> joining = timer(queue.schedule(BIN_12 + (1L << heldBin), 1_000));
    HiTimeTimer<Integer> filling = timer(queue.schedule(BIN_12 + (1L << emptyBin), 1_001));

    HiTimeInvariants.check(queue);
    assertThat(heldById(joining)).isTrue();
    assertThat(heldById(filling)).isFalse();
    assertThat(queue.isIdBin(emptyBin)).isFalse();
    assertThat(queue.bins[emptyBin].size).isEqualTo(1);
    timers.add(joining);
    timers.add(filling);
    assertThat(fireOneUnitAtATime(queue, 2 * BIN_12)).isEqualTo(byDeadline(timers, 0));
  }

  @Test
  void armingsPastTheBoundMoveTheBinTheyJoinToItsBucketAndTheHeldTimersNeverPassTheBound() {
    HiTimeTimerQueue<Integer> queue = queue(0, 0);
    List<HiTimeTimer<Integer>> timers = new ArrayList<>();
    // 8,000 timers far ahead let the low bins hold a thousand by id: an eighth of 9,000.
    for (int i = 0; i < 8_000; i++) {
      timers.add(timer(queue.schedule((1L << 20) + i, 10_000 + i)));
    }
    timers.addAll(armOutOfOrderInBin12(queue, 0, 1_000, 17));
    queue.advance(BIN_12, timer -> {});
    assertThat(queue.low.held()).isEqualTo(1_000);
    long heldBins = queue.occupied & queue.idLayout;

    SplittableRandom random = new SplittableRandom(3);
    for (int i = 0; i < 2_000; i++) {
      timers.add(timer(queue.schedule(BIN_12 + 1 + random.nextLong(BIN_12 - 1), 20_000 + i)));
      assertThat(queue.low.held()).as("arming %d", i).isLessThanOrEqualTo(queue.size() / 8);
    }

    HiTimeInvariants.check(queue);
    assertThat(heldBins & ~(queue.occupied & queue.idLayout))
        .as("bins held by id that moved to their buckets").isNotZero();
    for (int bin = 0; bin < IdBins.BINS; bin++) {
      if ((heldBins & (1L << bin)) != 0 && !queue.isIdBin(bin)) {
        assertThat(queue.bins[bin].size).as("bin %d", bin).isPositive();
      }
    }
    List<HiTimeTimer<Integer>> low = timers.subList(8_000, timers.size());
    assertThat(fireOneUnitAtATime(queue, 2 * BIN_12)).isEqualTo(byDeadline(low, 0));
    assertThat(queue.size()).isEqualTo(8_000);
  }

  @Test
  void cancellingTimersHeldByIdBoundsTheStaleEntriesAndFreesEveryIdOnceTheBinsEmpty() {
    HiTimeTimerQueue<Integer> queue = queue(0, HiTimeTimerQueue.FREE_HELD);
    List<HiTimeTimer<Integer>> timers = armOutOfOrderInBin12(queue, 0, 1_000, 23);
    queue.advance(BIN_12, timer -> {});
    int ids = queue.low.ids();
    List<HiTimeTimer<Integer>> order = new ArrayList<>(timers);
    Collections.shuffle(order, new java.util.Random(23));

    for (HiTimeTimer<Integer> timer : order.subList(0, 990)) {
      assertThat(queue.cancel(timer)).isTrue();
      HiTimeInvariants.check(queue);
    }
    List<HiTimeTimer<Integer>> left = order.subList(990, 1_000);
    assertThat(queue.low.held()).isEqualTo(10);
    assertThat(fireOneUnitAtATime(queue, 2 * BIN_12)).isEqualTo(byDeadline(left, 0));
    assertThat(queue.low.ids()).as("ids used").isEqualTo(ids);
    assertThat(queue.low.freeCount).as("ids free").isEqualTo(ids);
    assertThat(queue.nextExpiryDelay()).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void anAppendToAFullBinOfMostlyStaleEntriesCompactsItInsteadOfGrowing() {
    HiTimeTimerQueue<Integer> queue = queue(0, HiTimeTimerQueue.FREE_HELD);
    // Ticks 2^12 + 2^11 + 7 down to + 0, descending: bin 12 out of order, all going to bin 11.
    List<HiTimeTimer<Integer>> timers = new ArrayList<>();
    for (int i = 0; i < IdBins.INITIAL_ENTRIES; i++) {
      timers.add(timer(queue.schedule(BIN_12 + (1 << 11) + 7 - i, i)));
    }
    queue.advance(BIN_12, timer -> {});
    IdBin bin11 = queue.low.bins[11];
    assertThat(queue.isIdBin(11)).isTrue();
    int[] entries = bin11.entries;
    assertThat(bin11.tail).isEqualTo(entries.length);
    for (int i = 0; i < 6; i++) {
      queue.cancel(timers.get(i));
    }
    assertThat(bin11.tail).as("stale entries kept").isEqualTo(entries.length);

    HiTimeTimer<Integer> added = timer(queue.schedule(BIN_12 + (1 << 11) + 100, 8));

    HiTimeInvariants.check(queue);
    assertThat(heldById(added)).isTrue();
    assertThat(bin11.entries).isSameAs(entries);
    assertThat(bin11.tail).isEqualTo(2 * 3);
    assertThat(fireOneUnitAtATime(queue, 2 * BIN_12)).containsExactly(7, 6, 8);
  }

  @Test
  void aTimerHeldByIdIsRescheduledIntoItsOwnBinAnotherBinTheDueBucketOrFarAhead() {
    HiTimeTimerQueue<Integer> queue = queue(0, HiTimeTimerQueue.FREE_HELD);
    List<HiTimeTimer<Integer>> timers = armOutOfOrderInBin12(queue, 0, 500, 29);
    queue.advance(BIN_12, timer -> {});
    SplittableRandom random = new SplittableRandom(29);
    List<HiTimeTimer<Integer>> moved = new ArrayList<>();
    for (int i = 0; i < 400 && timers.size() > 100; i++) {
      HiTimeTimer<Integer> timer = timers.get(random.nextInt(timers.size()));
      int kind = random.nextInt(4);
      long deadline = kind == 0 ? timer.deadline()
          : kind == 1 ? BIN_12 + 1 + random.nextLong(BIN_12 - 1)
          : kind == 2 ? BIN_12 - random.nextLong(3)
          : (1L << 30) + i;
      // By id if it goes to a bin held by id that holds another timer, which keeps it held so.
      boolean toBinById = false;
      if (kind <= 1) {
        int bin = 63 - Long.numberOfLeadingZeros(deadline ^ queue.nowTick);
        int own = 63 - Long.numberOfLeadingZeros(timer.deadline() ^ queue.nowTick);
        toBinById = queue.isIdBin(bin) && queue.low.bins[bin].size > (bin == own ? 1 : 0);
      }
      assertThat(queue.reschedule(timer, deadline)).isTrue();
      assertThat(timer.deadline()).isEqualTo(deadline);
      assertThat(heldById(timer)).as("rescheduled to %d", deadline).isEqualTo(toBinById);
      HiTimeInvariants.check(queue);
      if (kind >= 2) {
        timers.remove(timer);
        moved.add(timer);
      }
    }
    List<Integer> fired = new ArrayList<>();
    queue.advance(BIN_12, timer -> fired.add(timer.payload()));
    for (HiTimeTimer<Integer> timer : moved) {
      if (timer.deadline() - queue.now() <= 0) {
        assertThat(fired).contains(timer.payload());
      } else {
        assertThat(timer.isPending()).isTrue();
      }
    }
    // Each fires at its deadline (checked as it fires); a rescheduled timer counts as armed when
    // it was rescheduled, so among equal deadlines the order is not that of the payloads.
    assertThat(fireOneUnitAtATime(queue, 2 * BIN_12))
        .containsExactlyInAnyOrderElementsOf(byDeadline(timers, 0));
  }

  /**
   * Within 2^13 units of the end of the clock, 2^64 - 1 units from the start, where a tick is not
   * derived by a shift and a deadline past the end saturates at the last tick: the tick of a timer
   * held by id is rebuilt from the low 32 bits of its entry. (What happens past the end is not
   * specified; {@code hitime} fires such a timer at the last tick.)
   */
  @ParameterizedTest
  @ValueSource(longs = {0, Long.MIN_VALUE, 12_345_678_901L})
  void timersHeldByIdAtTheEndOfTheClockFireAtTheirDeadlinesOrAtTheLastTick(long start) {
    HiTimeTimerQueue<Integer> queue = queue(start, HiTimeTimerQueue.FREE_HELD);
    queue.advance(start + Long.MAX_VALUE, timer -> {});
    // Now 2^64 - 2^13 units from the start: a tick with its 13 low bits clear.
    queue.advance(queue.now() + Long.MAX_VALUE - (1 << 13) + 2, timer -> {});
    long from = queue.now();
    assertThat(queue.elapsed).isEqualTo(-(1L << 13));
    List<HiTimeTimer<Integer>> timers = armOutOfOrderInBin12(queue, from, 500, start);
    // Past the end of the clock: saturated at its last tick, in bin 12.
    HiTimeTimer<Integer> last = timer(queue.schedule(from + (1 << 13) + 10, 500));

    queue.advance(from + BIN_12, timer -> {});

    HiTimeInvariants.check(queue);
    assertThat(timers).allMatch(HiTimeIdBinsTest::heldById);
    assertThat(heldById(last)).isTrue();
    assertThat(queue.tickOf(last)).isEqualTo(-1L);
    long lastTickStart = from + (1 << 13) - 1;
    List<HiTimeTimer<Integer>> before = new ArrayList<>();
    List<Integer> atTheEnd = new ArrayList<>();
    for (HiTimeTimer<Integer> timer : timers) {
      if (timer.deadline() == lastTickStart) {
        atTheEnd.add(timer.payload());
      } else {
        before.add(timer);
      }
    }
    atTheEnd.add(last.payload());
    assertThat(fireOneUnitAtATime(queue, lastTickStart - 1)).isEqualTo(byDeadline(before, from));
    List<Integer> fired = new ArrayList<>();
    queue.advance(lastTickStart, timer -> fired.add(timer.payload()));
    assertThat(fired).isEqualTo(atTheEnd);
    assertThat(queue.size()).isZero();
  }

  @Test
  void clearAndDrainTakeOutTheTimersHeldByIdAndLetGoOfTheGrownTables() {
    for (boolean clear : new boolean[] {true, false}) {
      HiTimeTimerQueue<Integer> queue = queue(0, HiTimeTimerQueue.FREE_HELD);
      List<HiTimeTimer<Integer>> timers = armOutOfOrderInBin12(queue, 0, 1_000, 31);
      queue.advance(BIN_12, timer -> {});
      assertThat(queue.low.byId.length).isGreaterThan(IdBins.INITIAL_IDS);

      List<TimerHandle<Integer>> drained = new ArrayList<>();
      if (clear) {
        queue.clear();
      } else {
        assertThat(queue.drain(drained::add)).isEqualTo(1_000);
        assertThat(drained).containsExactlyInAnyOrderElementsOf(timers);
      }

      HiTimeInvariants.check(queue);
      assertThat(timers).noneMatch(TimerHandle::isPending);
      assertThat(queue.low.held()).isZero();
      assertThat(queue.low.ids()).isZero();
      assertThat(queue.low.byId).isEmpty();
      for (IdBin bin : queue.low.bins) {
        assertThat(bin.entries).isSameAs(IdBin.NO_ENTRIES);
      }
      HiTimeTimer<Integer> again = timers.get(0);
      assertThat(queue.reschedule(again, BIN_12 + 5)).isFalse();
      assertThat(fireOneUnitAtATime(queue, 2 * BIN_12)).containsExactly(again.payload());
    }
  }
}
