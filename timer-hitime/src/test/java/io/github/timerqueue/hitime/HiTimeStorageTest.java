package io.github.timerqueue.hitime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerHandle;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * How {@code hitime} stores its timers: each bin is a bucket, an array of slots in arming order.
 * Cancelled slots (holes) are bounded and compacted away without disturbing the order; a bucket
 * that empties gives its array to be reused; and a handle, pending or not, is recognized as the
 * queue's own through its bucket. The structure is checked with {@link HiTimeInvariants}, which
 * also checks the bound on holes, after every step.
 */
class HiTimeStorageTest {

  private static HiTimeTimerQueue<Integer> queue() {
    return new HiTimeTimerQueue<>(TimerConfig.builder().startTime(0).build());
  }

  private static HiTimeTimer<Integer> timer(TimerHandle<Integer> handle) {
    return (HiTimeTimer<Integer>) handle;
  }

  /** Deadlines 2^13 to 2^14 - 1 from tick 0 all go to bin 13. */
  private static List<HiTimeTimer<Integer>> fillBin13(HiTimeTimerQueue<Integer> queue, int count) {
    List<HiTimeTimer<Integer>> timers = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      timers.add(timer(queue.schedule((1 << 13) + (i % (1 << 13)), i)));
    }
    return timers;
  }

  @Test
  void aReexaminedBinHandsItsArrayToTheEmptyBinBelowWhichTakesItsLaterHalfInTheSameSlots() {
    HiTimeTimerQueue<Integer> queue = queue();
    List<HiTimeTimer<Integer>> timers = fillBin13(queue, 1 << 13);
    HiTimeTimer<Integer>[] array = queue.bins[13].slots;
    List<Integer> slotsBefore = new ArrayList<>();
    for (HiTimeTimer<Integer> timer : timers) {
      slotsBefore.add(timer.slot);
    }

    List<Integer> fired = new ArrayList<>();
    assertThat(queue.advance(1 << 13, timer -> fired.add(timer.payload()))).isEqualTo(1);

    HiTimeInvariants.check(queue);
    // Deadlines 2^13 + 2^12 to 2^14 - 1 lie 2^12 to 2^13 - 1 ticks ahead: bin 12, a quarter or
    // more of the array.
    assertThat(queue.bins[12].slots).isSameAs(array);
    assertThat(queue.bins[12].size).isEqualTo(1 << 12);
    for (int i = 1 << 12; i < 1 << 13; i++) {
      assertThat(timers.get(i).slot).as("slot of timer %d", i).isEqualTo(slotsBefore.get(i));
    }
    for (long now = (1 << 13) + 1; now < 1 << 14; now++) {
      queue.advance(now, timer -> fired.add(timer.payload()));
    }
    List<Integer> inOrder = new ArrayList<>();
    for (int i = 0; i < 1 << 13; i++) {
      inOrder.add(i);
    }
    assertThat(fired).isEqualTo(inOrder);
    HiTimeInvariants.check(queue);
  }

  @Test
  void aSmallBinInTickOrderFiledRunByRunLeavesEveryBinBelowInOrder() {
    HiTimeTimerQueue<Integer> queue = queue();
    fillBin13(queue, 1 << 13);
    assertThat(queue.bins[13].sorted()).isTrue();
    assertThat(queue.bins[13].size).isLessThan(HiTimeTimerQueue.MIN_SEARCHED_BIN);

    queue.advance(1 << 13, timer -> { });

    HiTimeInvariants.check(queue);
    for (int bin = 0; bin < 13; bin++) {
      assertThat(queue.bins[bin]).as("bin %d", bin).isNotNull();
      assertThat(queue.bins[bin].sorted()).as("bin %d", bin).isTrue();
    }
  }

  @Test
  void aBinOfDeadlinesAtRandomIsFiledTimerByTimerKeepingTheArmingOrderInEveryBinOutOfTickOrder() {
    HiTimeTimerQueue<Integer> queue = queue();
    SplittableRandom random = new SplittableRandom(13);
    List<long[]> deadlineAndPayload = new ArrayList<>();
    for (int i = 0; i < 5_000; i++) {
      long deadline = (1 << 13) + random.nextInt(1 << 13);
      queue.schedule(deadline, i);
      deadlineAndPayload.add(new long[] {deadline, i});
    }
    TimerBucket<Integer> bin13 = queue.bins[13];
    assertThat(bin13.descents)
        .isGreaterThan(bin13.size >>> HiTimeTimerQueue.SCATTERED_DESCENTS_SHIFT);

    List<Integer> fired = new ArrayList<>();
    queue.advance(1 << 13, timer -> fired.add(timer.payload()));

    HiTimeInvariants.check(queue);
    for (int bin = 0; bin < 13; bin++) {
      TimerBucket<Integer> bucket = queue.bins[bin];
      if (bucket == null) {
        continue;
      }
      // Each timer counts as out of order, its tick not compared with the one before.
      assertThat(bucket.descents).as("descents of bin %d", bin).isEqualTo(bucket.size);
      assertThat(bucket.sorted()).isFalse();
      int previous = -1;
      for (int index = bucket.head; index < bucket.tail; index++) {
        int payload = bucket.slots[index].payload();
        assertThat(payload).as("bin %d, slot %d", bin, index).isGreaterThan(previous);
        previous = payload;
      }
    }
    for (long now = (1 << 13) + 1; now < 1 << 14; now++) {
      queue.advance(now, timer -> fired.add(timer.payload()));
    }
    // Advancing a tick at a time fires by deadline, first in, first out among equal deadlines.
    deadlineAndPayload.sort((a, b) -> Long.compare(a[0], b[0]));
    List<Integer> expected = new ArrayList<>();
    for (long[] timer : deadlineAndPayload) {
      expected.add((int) timer[1]);
    }
    assertThat(fired).isEqualTo(expected);
    HiTimeInvariants.check(queue);
  }

  /**
   * A bin of deadlines at random works out each timer's tick from the deadline's distance past the
   * clock's tick, by a shift when the resolution is a power of two: deadlines on a tick's boundary
   * and one unit either side of it, from a start time that is not a multiple of the resolution,
   * fire at the first advance that reaches them, never before.
   */
  @ParameterizedTest
  @ValueSource(longs = {1, 2, 1024, 1000})
  void aBinOfDeadlinesAtRandomFiresEachTimerAtTheFirstAdvanceThatReachesIt(long resolution) {
    long start = -7_777;
    HiTimeTimerQueue<Integer> queue = new HiTimeTimerQueue<>(
        TimerConfig.builder().startTime(start).resolution(resolution).build());
    SplittableRandom random = new SplittableRandom(resolution);
    List<Long> deadlines = new ArrayList<>();
    for (int i = 0; i < 3_000; i++) {
      // Ticks 2^11 to 2^12 - 1 from tick 0, all in bin 11, a boundary or one unit off it.
      long boundary = start + ((1 << 11) + 1 + random.nextInt((1 << 11) - 2)) * resolution;
      long deadline = boundary + random.nextInt(3) - 1;
      deadlines.add(deadline);
      queue.schedule(deadline, i);
    }
    TimerBucket<Integer> bin11 = queue.bins[11];
    assertThat(bin11.size).isEqualTo(3_000);
    assertThat(bin11.descents)
        .isGreaterThan(bin11.size >>> HiTimeTimerQueue.SCATTERED_DESCENTS_SHIFT);

    int[] firedAt = new int[deadlines.size()];
    long[] now = {start};
    for (int step = 1; step <= 1 << 12; step++) {
      now[0] = start + step * resolution;
      int at = step;
      queue.advance(now[0], timer -> firedAt[timer.payload()] = at);
      if (step == 1 << 11) {
        HiTimeInvariants.check(queue);
      }
    }
    for (int i = 0; i < deadlines.size(); i++) {
      long deadline = deadlines.get(i);
      int expected = (int) -Math.floorDiv(-(deadline - start), resolution);
      assertThat(firedAt[i]).as("timer %d with deadline %d", i, deadline).isEqualTo(expected);
    }
    assertThat(queue.size()).isZero();
    HiTimeInvariants.check(queue);
  }

  @Test
  void aTimerMovedWithinItsFullBinIsClearedBeforeTheCompactionElseAppendedBeforeItsSlotIsCleared() {
    HiTimeTimerQueue<Integer> queue = queue();
    // Deadlines 64 to 71 from tick 0: bin 6, whose first array of 8 slots they fill.
    List<HiTimeTimer<Integer>> timers = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      timers.add(timer(queue.schedule(64 + i, i)));
    }
    TimerBucket<Integer> bin6 = queue.bins[6];
    assertThat(bin6.isFull()).isTrue();

    assertThat(queue.reschedule(timers.get(0), 100)).isTrue();
    HiTimeInvariants.check(queue);
    // The append grew the bin and packed the other seven into slots 0 to 6: the moved one is last.
    assertThat(timers.get(0).slot).isEqualTo(7);
    assertThat(timers.get(1).slot).isZero();
    assertThat(bin6.isFull()).isFalse();

    assertThat(queue.reschedule(timers.get(1), 101)).isTrue();
    HiTimeInvariants.check(queue);
    assertThat(timers.get(1).slot).isEqualTo(8);
    assertThat(bin6.slots[0]).isNull();
    assertThat(bin6.size).isEqualTo(8);

    List<Integer> fired = new ArrayList<>();
    for (long now = 1; now <= 101; now++) {
      queue.advance(now, timer -> fired.add(timer.payload()));
    }
    assertThat(fired).containsExactly(2, 3, 4, 5, 6, 7, 0, 1);
    HiTimeInvariants.check(queue);
  }

  @Test
  void aDescentIsATickBelowTheOneAppendedBeforeItComparedUnsigned() {
    HiTimeTimerQueue<Integer> queue = queue();
    TimerBucket<Integer> bucket = new TimerBucket<>(queue, 62);
    long[] ticks = {1, 2, 2, -1L, Long.MIN_VALUE, Long.MAX_VALUE, -1L, 3};
    int[] descentsAfter = {0, 0, 0, 0, 1, 2, 2, 3};
    for (int i = 0; i < ticks.length; i++) {
      bucket.append(new HiTimeTimer<>(queue, i), ticks[i]);
      assertThat(bucket.descents).as("after tick %d", ticks[i]).isEqualTo(descentsAfter[i]);
    }
    assertThat(bucket.sorted()).isFalse();

    // Past 2^32 descents (a bin appended to at random for hours without emptying), the count
    // neither wraps to 0, which would pass the bin off as sorted, nor turns negative.
    bucket.descents = (1L << 32) - 1;
    bucket.append(new HiTimeTimer<>(queue, 8), 0);
    assertThat(bucket.descents).isEqualTo(1L << 32);
    assertThat(bucket.sorted()).isFalse();
  }

  @Test
  void aLargeBinInTickOrderIsFiledStretchByStretchThroughItsHolesAndTheBinsBelowStayInOrder() {
    HiTimeTimerQueue<Integer> queue = queue();
    // Deadlines 2^15 to 2^16 - 1 from tick 0, in order: bin 15.
    List<HiTimeTimer<Integer>> timers = new ArrayList<>();
    for (int i = 0; i < 1 << 15; i++) {
      timers.add(timer(queue.schedule((1 << 15) + i, i)));
    }
    assertThat(queue.bins[15].sorted()).isTrue();
    List<Integer> expected = new ArrayList<>();
    for (int i = 0; i < timers.size(); i++) {
      if (i % 3 == 0 || i % 7 == 0) {
        queue.cancel(timers.get(i));
      } else {
        expected.add(i);
      }
    }
    assertThat(queue.bins[15].size).isGreaterThanOrEqualTo(HiTimeTimerQueue.MIN_SEARCHED_BIN);

    List<Integer> fired = new ArrayList<>();
    queue.advance(1 << 15, timer -> fired.add(timer.payload()));

    HiTimeInvariants.check(queue);
    for (int bin = 0; bin < 15; bin++) {
      assertThat(queue.bins[bin]).as("bin %d", bin).isNotNull();
      assertThat(queue.bins[bin].sorted()).as("bin %d", bin).isTrue();
    }
    for (long now = (1 << 15) + 1; now < 1 << 16; now++) {
      queue.advance(now, timer -> fired.add(timer.payload()));
      if (now % 997 == 0) {
        HiTimeInvariants.check(queue);
      }
    }
    assertThat(fired).isEqualTo(expected);
    HiTimeInvariants.check(queue);
  }

  @Test
  void aTimerDueBeforeTheLastOneAppendedPutsItsBinOutOfOrderUntilTheBinEmpties() {
    HiTimeTimerQueue<Integer> queue =
        new HiTimeTimerQueue<>(TimerConfig.builder().startTime(0).resolution(1_000).build());
    // Ticks 0xB000, 0xB000 (the deadlines decrease, the ticks do not), then 0xAFFF: all in bin 15,
    // above the bins that may hold timers by id.
    queue.schedule(45_055_500, 1);
    queue.schedule(45_055_001, 2);
    assertThat(queue.bins[15].sorted()).isTrue();
    queue.schedule(45_054_999, 3);
    assertThat(queue.bins[15].sorted()).isFalse();
    HiTimeInvariants.check(queue);

    // Moving to tick 0x8000 re-examines bin 15 timer by timer: all three go to bin 13, out of
    // order.
    List<Integer> fired = new ArrayList<>();
    queue.advance(32_768_000, timer -> fired.add(timer.payload()));
    assertThat(queue.bins[15].sorted()).as("emptied").isTrue();
    assertThat(queue.bins[13].sorted()).isFalse();
    HiTimeInvariants.check(queue);
    queue.advance(45_056_000, timer -> fired.add(timer.payload()));
    assertThat(fired).containsExactly(1, 2, 3);
  }

  @Test
  void cancelledSlotsNeverExceedThreePerPendingTimerPlusASlackWhateverTheOrderOfCancelling() {
    HiTimeTimerQueue<Integer> queue = queue();
    List<HiTimeTimer<Integer>> timers = fillBin13(queue, 20_000);
    TimerBucket<Integer> bin = queue.bins[13];
    List<HiTimeTimer<Integer>> order = new ArrayList<>(timers);
    Collections.shuffle(order, new java.util.Random(13));

    for (int i = 0; i < order.size() - 10; i++) {
      assertThat(queue.cancel(order.get(i))).isTrue();
      int holes = bin.tail - bin.head - bin.size;
      assertThat(holes).as("holes after %d cancellations", i + 1)
          .isLessThanOrEqualTo(3 * bin.size + TimerBucket.SLACK);
    }

    HiTimeInvariants.check(queue);
    // The last cancel's removal completes with the queue's next operation.
    queue.settle();
    assertThat(bin.size).isEqualTo(10);
    assertThat(bin.tail).as("the survivors were moved down over the holes")
        .isLessThanOrEqualTo(4 * 10 + TimerBucket.SLACK);
  }

  @Test
  void compactionKeepsTheArmingOrderSoTimersWithEqualDeadlinesStillFireFirstInFirstOut() {
    HiTimeTimerQueue<Integer> queue = queue();
    List<Integer> kept = armThenCancelAtRandom(queue, 7, true);
    // Appending to the bin now finds it full of holes, and compacts it in place.
    HiTimeTimer<Integer>[] before = queue.bins[13].slots;
    armHundredMore(queue, kept);
    assertThat(queue.bins[13].slots).as("compacted, not grown").isSameAs(before);
    HiTimeInvariants.check(queue);

    assertFiresInOrder(queue, kept);
  }

  @Test
  void aBucketThatGrowsWithHolesPacksItsTimersInOrderIntoTheLargerArray() {
    HiTimeTimerQueue<Integer> queue = queue();
    List<Integer> kept = armThenCancelAtRandom(queue, 11, false);
    // More than half the slots still hold timers when the append finds the array full, so the
    // bucket grows, and the timers are packed over the holes, in order, into the new array.
    HiTimeTimer<Integer>[] before = queue.bins[13].slots;
    armHundredMore(queue, kept);
    TimerBucket<Integer> bin = queue.bins[13];
    assertThat(bin.slots).as("grown").isNotSameAs(before).hasSize(2 * before.length);
    assertThat(bin.tail).as("no hole left").isEqualTo(bin.size).isEqualTo(kept.size());
    HiTimeInvariants.check(queue);

    assertFiresInOrder(queue, kept);
  }

  /**
   * Arms 1,000 timers at 10,000 (bin 13, an array of 1,024 slots), then cancels at random nine in
   * ten of them if {@code keepFew}, else one in ten; returns the payloads of those kept, in order.
   */
  private static List<Integer> armThenCancelAtRandom(
      HiTimeTimerQueue<Integer> queue, long seed, boolean keepFew) {
    List<HiTimeTimer<Integer>> timers = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      timers.add(timer(queue.schedule(10_000, i)));
    }
    SplittableRandom random = new SplittableRandom(seed);
    List<Integer> kept = new ArrayList<>();
    for (HiTimeTimer<Integer> timer : timers) {
      if ((random.nextInt(10) == 0) == keepFew) {
        kept.add(timer.payload());
      } else {
        queue.cancel(timer);
      }
    }
    return kept;
  }

  /** Arms 100 more timers at 10,000, after those of {@code kept}, and adds them to it. */
  private static void armHundredMore(HiTimeTimerQueue<Integer> queue, List<Integer> kept) {
    for (int i = 1_000; i < 1_100; i++) {
      queue.schedule(10_000, i);
      kept.add(i);
    }
  }

  /** Advances to 10,000 and checks that exactly {@code kept} fire, in that order. */
  private static void assertFiresInOrder(HiTimeTimerQueue<Integer> queue, List<Integer> kept) {
    List<Integer> fired = new ArrayList<>();
    queue.advance(10_000, timer -> fired.add(timer.payload()));
    assertThat(fired).isEqualTo(kept);
  }

  @Test
  void aBinIsCreatedWhenTheFirstTimerGoesThere() {
    HiTimeTimerQueue<Integer> queue = queue();
    assertThat(queue.bins).containsOnlyNulls();
    queue.schedule(1 << 13, 1);
    assertThat(queue.bins[13]).isNotNull();
    assertThat(java.util.Arrays.stream(queue.bins).filter(bin -> bin != null)).hasSize(1);
    HiTimeInvariants.check(queue);
  }

  /**
   * The deadlines read ahead in a re-examination take a small array until a larger bin is
   * re-examined in a queue of {@link HiTimeTimerQueue#TIMERS_PER_LOOKAHEAD} times as many timers,
   * and never more than {@link HiTimeTimerQueue#LOOKAHEAD}, so that a small queue stays small; a
   * bin of deadlines at random longer than that is read in several batches and still fires each
   * timer exactly at its deadline, first in, first out.
   */
  @Test
  void theDeadlinesReadAheadTakeRoomOnlyAsLargerBinsAreReexaminedInLargerQueuesUpToTheLookahead() {
    HiTimeTimerQueue<Integer> queue = queue();
    assertThat(queue.lookaheadLength()).isEqualTo(HiTimeTimerQueue.FIRST_LOOKAHEAD);
    SplittableRandom random = new SplittableRandom(17);
    List<long[]> deadlineAndPayload = new ArrayList<>();
    List<Integer> fired = new ArrayList<>();
    int payload = 0;
    // Bins of 20, 1000, 3000 and 10,000 timers at random in ticks 2^11 to 2^12 - 1 past the
    // clock's, alone in the queue: 1000 timers are too few for more than 32 deadlines read ahead,
    // 3000 enough for 93, rounded up to 128; 10,000 for 312, more than the most, 256.
    int[] counts = {20, 1_000, 3_000, 10_000};
    int[] lengths = {HiTimeTimerQueue.FIRST_LOOKAHEAD, HiTimeTimerQueue.FIRST_LOOKAHEAD, 128,
        HiTimeTimerQueue.LOOKAHEAD};
    for (int round = 0; round < counts.length; round++) {
      long base = queue.now();
      for (int i = 0; i < counts[round]; i++) {
        long deadline = base + (1 << 11) + random.nextInt(1 << 11);
        queue.schedule(deadline, payload);
        deadlineAndPayload.add(new long[] {deadline, payload++});
      }
      assertThat(queue.bins[11].descents)
          .isGreaterThan(queue.bins[11].size >>> HiTimeTimerQueue.SCATTERED_DESCENTS_SHIFT);
      for (long now = base + 1; now <= base + (1 << 12); now++) {
        queue.advance(now, timer -> fired.add(timer.payload()));
      }
      assertThat(queue.lookaheadLength()).as("round %d", round).isEqualTo(lengths[round]);
      HiTimeInvariants.check(queue);
    }
    deadlineAndPayload.sort((a, b) -> Long.compare(a[0], b[0]));
    List<Integer> expected = new ArrayList<>();
    for (long[] timer : deadlineAndPayload) {
      expected.add((int) timer[1]);
    }
    assertThat(fired).isEqualTo(expected);
    assertThat(queue.size()).isZero();
  }

  @Test
  void aBucketThatFillsUpWithNoHolesGrowsWithoutTouchingItsTimers() {
    HiTimeTimerQueue<Integer> queue = queue();
    List<HiTimeTimer<Integer>> timers = fillBin13(queue, 1_000);
    for (int i = 0; i < timers.size(); i++) {
      assertThat(timers.get(i).slot).isEqualTo(i);
    }
    assertThat(queue.bins[13].slots.length).isEqualTo(1_024);
    HiTimeInvariants.check(queue);
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void aBinThatFillsAgainFromEmptyTakesAtOnceTheRoomItUsedBeforeUnlessTheQueueWasCleared(
      boolean cleared) {
    HiTimeTimerQueue<Integer> queue = queue();
    fillBin13(queue, 1_000);
    // Tick 2^13 re-examines bin 13, which fires the timer of that tick and hands its array to bin
    // 9 with the latest timers; tick 2^14 fires the rest, and bin 13 then holds the ticks from
    // 2^14 + 2^13 on.
    assertThat(queue.advance(1 << 13, timer -> {})).isEqualTo(1);
    assertThat(queue.bins[13].isEmpty()).isTrue();
    assertThat(queue.bins[13].lastFill).isEqualTo(1_000);
    assertThat(queue.advance(1 << 14, timer -> {})).isEqualTo(999);
    if (cleared) {
      queue.clear();
      assertThat(queue.bins[13].lastFill).isZero();
    }

    queue.schedule((1 << 14) + (1 << 13), -1);
    HiTimeTimer<Integer>[] array = queue.bins[13].slots;
    assertThat(array).hasSize(cleared ? TimerBucket.INITIAL_CAPACITY : 1_024);
    for (int i = 1; i < 1_000; i++) {
      queue.schedule((1 << 14) + (1 << 13) + i, i);
    }
    if (!cleared) {
      assertThat(queue.bins[13].slots).as("the same array, never grown").isSameAs(array);
    }
    HiTimeInvariants.check(queue);
    assertThat(queue.advance((1 << 14) + (1 << 13) + 1_000, timer -> {})).isEqualTo(1_000);
  }

  @Test
  void anEmptiedBinGivesItsArrayToTheBinsThatFillAndAQueueThatIsOnlyFillingKeepsNoneAside() {
    HiTimeTimerQueue<Integer> queue = queue();
    fillBin13(queue, 1_000);
    assertThat(queue.slotArrays.count(512)).as("filling keeps no outgrown array").isZero();
    HiTimeTimer<Integer>[] array = queue.bins[13].slots;

    // Moving to tick 2^13 re-examines bin 13: its timers go to the lower bins or fire.
    queue.advance(1 << 13, timer -> {});

    assertThat(queue.bins[13].slots).isEmpty();
    HiTimeInvariants.check(queue);
    assertThat(queue.slotArrays.count(1_024) + (containsSameArray(queue, array) ? 1 : 0))
        .as("the array is kept or already reused").isEqualTo(1);
  }

  private static boolean containsSameArray(HiTimeTimerQueue<Integer> queue, Object array) {
    for (TimerBucket<Integer> bin : queue.bins) {
      if (bin != null && bin.slots == array) {
        return true;
      }
    }
    return queue.due.slots == array || queue.firing.slots == array;
  }

  @Test
  void clearAndDrainLetGoOfTheArrays() {
    HiTimeTimerQueue<Integer> queue = queue();
    fillBin13(queue, 1_000);
    queue.advance(1 << 13, timer -> {}, 1);
    fillBin13(queue, 1_000);
    queue.clear();
    for (TimerBucket<Integer> bin : queue.bins) {
      if (bin != null) {
        assertThat(bin.slots.length).isLessThanOrEqualTo(TimerBucket.INITIAL_CAPACITY);
      }
    }
    assertThat(queue.due.slots.length).isLessThanOrEqualTo(TimerBucket.INITIAL_CAPACITY);
    assertThat(queue.slotArrays.count(1_024)).isZero();

    fillBin13(queue, 1_000);
    queue.drain(timer -> {});
    assertThat(queue.bins[13].slots.length).isLessThanOrEqualTo(TimerBucket.INITIAL_CAPACITY);
    assertThat(queue.bins[13].lastFill).isZero();
    HiTimeInvariants.check(queue);
  }

  @Test
  void aCancelLeavesItsSlotToTheNextArmingWhichClearsItAfterItsOwnAppend() {
    HiTimeTimerQueue<Integer> queue = queue();
    List<HiTimeTimer<Integer>> timers = fillBin13(queue, 100);
    HiTimeTimer<Integer> cancelled = timers.get(40);
    TimerBucket<Integer> bin = queue.bins[13];

    queue.cancel(cancelled);

    assertThat(cancelled.isPending()).isFalse();
    assertThat(queue.size()).isEqualTo(99);
    assertThat(queue.unsettledSlot).isEqualTo(40);
    assertThat(bin.slots[40]).isSameAs(cancelled);
    assertThat(bin.size).as("the bin still counts it").isEqualTo(100);
    HiTimeInvariants.check(queue);

    queue.reschedule(cancelled, (1 << 13) + 5);

    assertThat(queue.unsettledSlot).isEqualTo(HiTimeTimer.NOT_PENDING);
    assertThat(bin.slots[40]).isNull();
    assertThat(cancelled.slot).as("appended after the 100 slots taken before").isEqualTo(100);
    assertThat(bin.size).isEqualTo(100);
    HiTimeInvariants.check(queue);
  }

  /**
   * Settling the last cancel's removal may compact the bin of the timer a reschedule moves: the
   * reschedule finds the timer in the slot compaction moved it to, and clears that one.
   */
  @Test
  void aRescheduleWhoseSettlingCompactsTheTimersOwnBinClearsTheSlotTheTimerWasMovedTo() {
    HiTimeTimerQueue<Integer> queue = queue();
    List<HiTimeTimer<Integer>> timers = fillBin13(queue, 200);
    TimerBucket<Integer> bin = queue.bins[13];
    // 167 cancels, the last one's removal outstanding: settling it leaves 33 timers behind 167
    // holes, past the bound of 3 * 33 + SLACK, so it compacts.
    for (int i = 0; i < 167; i++) {
      queue.cancel(timers.get(i));
    }
    assertThat(bin.tail).as("not compacted yet").isEqualTo(200);
    HiTimeTimer<Integer> moved = timers.get(199);

    assertThat(queue.reschedule(moved, (1 << 13) + 1)).isTrue();

    assertThat(bin.tail).as("compacted, then appended to").isEqualTo(34);
    HiTimeInvariants.check(queue);
    assertThat(slotsReferringTo(queue, moved)).isEqualTo(1);
    List<Integer> fired = new ArrayList<>();
    queue.advance(1 << 14, timer -> fired.add(timer.payload()));
    assertThat(fired).hasSize(33).doesNotHaveDuplicates().contains(199);
  }

  /**
   * An arming into a full bin settles first, and if the bin held only the cancelled timer it
   * empties and is unmarked in the bitmap: the timer armed into it then marks it again.
   */
  @Test
  void anArmingIntoAFullBinThatSettlingEmptiesMarksTheBinAgain() {
    HiTimeTimerQueue<Integer> queue = queue();
    List<HiTimeTimer<Integer>> timers = fillBin13(queue, TimerBucket.INITIAL_CAPACITY);
    TimerBucket<Integer> bin = queue.bins[13];
    for (HiTimeTimer<Integer> timer : timers) {
      queue.cancel(timer);
    }
    assertThat(bin.isFull()).isTrue();
    assertThat(bin.size).as("the last cancel's timer, still counted").isEqualTo(1);

    queue.schedule((1 << 13) + 3, 100);

    HiTimeInvariants.check(queue);
    assertThat(queue.nextExpiryDelay()).isEqualTo(1 << 13);
    List<Integer> fired = new ArrayList<>();
    queue.advance(1 << 14, timer -> fired.add(timer.payload()));
    assertThat(fired).containsExactly(100);
  }

  /**
   * Whatever operation follows a cancel, it finds the slot the cancel left cleared and the bin's
   * count corrected before it uses them: the timer is not handed out, visited, moved or counted,
   * even when it has been re-armed into the same bin since, and no timer filed later loses its slot
   * to it.
   */
  @ParameterizedTest
  @ValueSource(strings = {"advance", "forEach", "drain", "clear", "nextExpiryDelay", "cancel",
      "reschedule", "schedule into a full bin", "scheduleWithin", "re-arm, then advance",
      "cancel the last timer of a bin"})
  void theNextOperationAfterACancelNeverMeetsItsTimerInTheSlotItLeft(String next) {
    HiTimeTimerQueue<Integer> queue = queue();
    // 64 timers fill bin 13's array, so the next append to it compacts or grows it.
    List<HiTimeTimer<Integer>> timers = fillBin13(queue, 64);
    // Each cancel clears the slot the one before left: the last leaves the first slot that still
    // refers to a timer, after four holes, where a compaction or a pass from the bin's head that
    // met it would take it for a timer.
    for (int i = 0; i < 5; i++) {
      queue.cancel(timers.get(i));
    }
    HiTimeTimer<Integer> cancelled = timers.get(4);
    assertThat(queue.unsettledSlot).isEqualTo(4);
    HiTimeInvariants.check(queue);

    List<Integer> seen = new ArrayList<>();
    switch (next) {
      case "advance" -> queue.advance(1 << 14, timer -> seen.add(timer.payload()));
      case "forEach" -> queue.forEach(timer -> seen.add(timer.payload()));
      case "drain" -> queue.drain(timer -> seen.add(timer.payload()));
      case "clear" -> queue.clear();
      case "nextExpiryDelay" -> assertThat(queue.nextExpiryDelay()).isEqualTo(1 << 13);
      case "cancel" -> queue.cancel(timers.get(20));
      case "reschedule" -> queue.reschedule(timers.get(30), (1 << 13) + 7);
      case "schedule into a full bin" -> {
        assertThat(queue.bins[13].isFull()).isTrue();
        queue.schedule((1 << 13) + 9, 1_000);
      }
      case "scheduleWithin" -> queue.scheduleWithin(1 << 13, (1 << 14) - 1, 1_000);
      case "re-arm, then advance" -> {
        queue.reschedule(cancelled, (1 << 13) + 3);
        queue.advance(1 << 14, timer -> seen.add(timer.payload()));
      }
      case "cancel the last timer of a bin" -> {
        for (int i = 5; i < 64; i++) {
          queue.cancel(timers.get(i));
        }
        assertThat(queue.nextExpiryDelay()).as("empty").isEqualTo(Long.MAX_VALUE);
        assertThat(queue.occupied).isZero();
      }
      default -> throw new AssertionError(next);
    }

    HiTimeInvariants.check(queue);
    assertThat(slotsReferringTo(queue, cancelled)).isZero();
    assertThat(cancelled.isPending()).isFalse();
    assertThat(seen).doesNotHaveDuplicates();
    if (next.startsWith("re-arm")) {
      assertThat(seen).containsOnlyOnce(4).hasSize(60);
    } else {
      assertThat(seen).doesNotContain(4);
      assertThat(seen.size()).isIn(0, 59);
    }

    // Whatever the queue holds then, and twenty timers more, all fire, each once.
    for (int i = 0; i < 20; i++) {
      queue.schedule(queue.now() + (1 << 13) + i, 2_000 + i);
    }
    int pending = queue.size();
    List<Integer> fired = new ArrayList<>();
    queue.advance(queue.now() + (1 << 15), timer -> fired.add(timer.payload()));
    assertThat(fired).hasSize(pending).doesNotHaveDuplicates().doesNotContain(4);
    assertThat(queue.size()).isZero();
    HiTimeInvariants.check(queue);
  }

  /** How many slots of the queue's buckets, between head and tail or not, refer to {@code timer}. */
  private static int slotsReferringTo(HiTimeTimerQueue<Integer> queue, HiTimeTimer<Integer> timer) {
    List<TimerBucket<Integer>> buckets = new ArrayList<>(List.of(queue.due, queue.firing));
    for (TimerBucket<Integer> bin : queue.bins) {
      if (bin != null) {
        buckets.add(bin);
      }
    }
    int count = 0;
    for (TimerBucket<Integer> bucket : buckets) {
      for (HiTimeTimer<Integer> slot : bucket.slots) {
        count += slot == timer ? 1 : 0;
      }
    }
    return count;
  }

  @ParameterizedTest
  @ValueSource(strings = {"pending", "fired", "cancelled", "cleared", "drained", "bin emptied"})
  void aHandleOfAnotherQueueIsRejectedWhetherItIsPendingOrNot(String state) {
    HiTimeTimerQueue<Integer> queue = queue();
    HiTimeTimerQueue<Integer> other = queue();
    List<HiTimeTimer<Integer>> others = fillBin13(other, 100);
    HiTimeTimer<Integer> foreign = others.get(0);
    switch (state) {
      case "fired" -> other.advance(1 << 14, timer -> {});
      case "cancelled" -> other.cancel(foreign);
      case "cleared" -> other.clear();
      case "drained" -> other.drain(timer -> {});
      case "bin emptied" -> others.forEach(other::cancel);
      default -> { }
    }
    assertThat(foreign.isPending()).isEqualTo(state.equals("pending"));
    HiTimeTimer<Integer> own = timer(queue.schedule(5, 1));

    assertThatThrownBy(() -> queue.cancel(foreign)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not created by this queue");
    assertThatThrownBy(() -> queue.reschedule(foreign, 3))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(foreign.isPending()).isEqualTo(state.equals("pending"));
    assertThat(queue.size()).isEqualTo(1);
    assertThat(own.isPending()).isTrue();
    HiTimeInvariants.check(queue);
    HiTimeInvariants.check(other);
  }

  @Test
  void aHandleThatIsNoLongerPendingKeepsNoBucketOfItsQueueFromReusingItsSlot() {
    HiTimeTimerQueue<Integer> queue = queue();
    HiTimeTimer<Integer> cancelled = timer(queue.schedule(100, 1));
    queue.cancel(cancelled);
    // Completes the cancel's removal, which empties the bin.
    assertThat(queue.nextExpiryDelay()).isEqualTo(Long.MAX_VALUE);
    HiTimeTimer<Integer> next = timer(queue.schedule(100, 2));
    assertThat(queue.bucketOf(next)).isSameAs(queue.bins[6]);
    assertThat(next.slot).as("the emptied bin starts over at slot 0").isZero();

    assertThat(queue.cancel(cancelled)).isFalse();
    assertThat(next.isPending()).isTrue();
    assertThat(queue.reschedule(cancelled, 100)).isFalse();
    assertThat(cancelled.slot).isEqualTo(1);
    HiTimeInvariants.check(queue);
  }
}
