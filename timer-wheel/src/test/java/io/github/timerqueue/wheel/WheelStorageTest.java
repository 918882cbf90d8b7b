package io.github.timerqueue.wheel;

import static io.github.timerqueue.wheel.WheelProbe.scheduleAt;
import static io.github.timerqueue.wheel.WheelProbe.wheel;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.timerqueue.TimerHandle;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * How the wheel stores its timers: buckets as chains of slab chunks, the bound on the holes that
 * cancels leave, compaction keeping the order, chunks and buckets reused as slots fill and empty,
 * and the owner check of handles that is made through their bucket.
 */
class WheelStorageTest {

  @Test
  void cancellingMostTimersOfABucketCompactsItKeepingTheOrderAndGivesBackItsChunks() {
    TimingWheel<Integer> wheel = wheel("4,4", 0, 1);
    List<TimerHandle<Integer>> timers = scheduleAt(wheel, 100, 1_000);
    Bucket<Integer> bucket = ((WheelTimer<Integer>) timers.get(0)).bucket();
    assertThat(bucket.fill).isEqualTo(1_000);
    int chunksInUse = wheel.slab.chunks() - wheel.slab.freeChunks;
    assertThat(chunksInUse).isEqualTo(Bucket.chunksFor(1_000));

    for (int i = 0; i < 1_000; i++) {
      if (i % 10 != 3) {
        wheel.cancel(timers.get(i));
        assertThat(bucket.fill - bucket.size)
            .as("holes after %d cancels", i + 1)
            .isLessThanOrEqualTo(
                Math.max(Bucket.HOLES_PER_TIMER * bucket.size, Bucket.SPARSE_FILL - 1));
      }
    }
    TimingWheelInvariants.check(wheel);
    assertThat(bucket.size).isEqualTo(100);
    assertThat(bucket.fill).as("filled slots of 100 timers")
        .isLessThanOrEqualTo((1 + Bucket.HOLES_PER_TIMER) * 100);
    assertThat(wheel.slab.chunks() - wheel.slab.freeChunks)
        .as("chunks in use").isEqualTo(Bucket.chunksFor(bucket.fill));

    List<Integer> fired = new ArrayList<>();
    wheel.advance(100, timer -> fired.add(timer.payload()));
    List<Integer> expected = new ArrayList<>();
    for (int i = 3; i < 1_000; i += 10) {
      expected.add(i);
    }
    assertThat(fired).as("arming order survives compaction").isEqualTo(expected);
    assertThat(wheel.slab.freeChunks).isEqualTo(wheel.slab.chunks());
    TimingWheelInvariants.check(wheel);
  }

  @Test
  void compactingABucketOfManyGroupsOfChunksWithHolesAtRandomKeepsTheOrderAndNoStaleReference() {
    // 4,000 slots are 250 chunks, many of the groups that compaction reads before it moves, and
    // the holes fall at random, so runs of timers cross chunks and groups both ways.
    TimingWheel<Integer> wheel = wheel("4,4", 0, 1);
    int count = 4_000;
    List<TimerHandle<Integer>> timers = scheduleAt(wheel, 100, count);
    Bucket<Integer> bucket = ((WheelTimer<Integer>) timers.get(0)).bucket();
    SplittableRandom random = new SplittableRandom(11);
    List<Integer> order = new ArrayList<>(IntStream.range(0, count).boxed().toList());
    Collections.shuffle(order, new Random(random.nextLong()));
    boolean[] cancelled = new boolean[count];
    int compactions = 0;
    for (int i = 0; i < order.size() && bucket.size > 1; i++) {
      int fillBefore = bucket.fill;
      int victim = order.get(i);
      wheel.cancel(timers.get(victim));
      cancelled[victim] = true;
      if (bucket.fill < fillBefore) {
        compactions++;
        assertThat(bucket.fill).as("a compaction leaves no hole").isEqualTo(bucket.size);
        int referenced = 0;
        int chunk = bucket.first;
        for (int c = 0; c < Bucket.chunksFor(bucket.fill); c++, chunk = wheel.slab.next(chunk)) {
          for (int offset = 0; offset < Slab.CHUNK; offset++) {
            if (wheel.slab.get(Bucket.slotIn(chunk, offset)) != null) {
              referenced++;
            }
          }
        }
        assertThat(referenced).as("references left after compaction").isEqualTo(bucket.size);
        TimingWheelInvariants.check(wheel);
      }
      if (compactions == 3) {
        break;
      }
    }
    assertThat(compactions).isEqualTo(3);
    List<Integer> fired = new ArrayList<>();
    wheel.advance(100, timer -> fired.add(timer.payload()));
    List<Integer> expected = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      if (!cancelled[i]) {
        expected.add(i);
      }
    }
    assertThat(fired).as("arming order survives compaction").isEqualTo(expected);
    assertThat(wheel.slab.freeChunks).isEqualTo(wheel.slab.chunks());
  }

  @Test
  void aBucketIsCompactedAtTheFirstRemovalThatLeavesMoreThanThreeHolesPerTimer() {
    TimingWheel<Integer> wheel = wheel("4,4", 0, 1);
    List<TimerHandle<Integer>> timers = scheduleAt(wheel, 100, 64);
    Bucket<Integer> bucket = ((WheelTimer<Integer>) timers.get(0)).bucket();
    assertThat(bucket.fill).isEqualTo(64);
    // 48 cancels leave 48 holes for 16 timers, three per timer: not yet compacted, although one
    // hole per timer was passed long before.
    for (int i = 0; i < 48; i++) {
      wheel.cancel(timers.get(i));
    }
    assertThat(bucket.size).as("the last cancel is counted out by the next operation")
        .isEqualTo(17);
    wheel.nextExpiryDelay();
    assertThat(bucket.size).isEqualTo(16);
    assertThat(bucket.fill).as("filled slots at three holes per timer").isEqualTo(64);
    TimingWheelInvariants.check(wheel);

    wheel.cancel(timers.get(48));
    assertThat(bucket.fill).as("not compacted before the cancel is counted out").isEqualTo(64);
    wheel.nextExpiryDelay();
    assertThat(bucket.fill).as("compacted at 49 holes for 15 timers").isEqualTo(15);
    assertThat(wheel.slab.chunks() - wheel.slab.freeChunks).as("chunks in use").isOne();
    TimingWheelInvariants.check(wheel);
    List<Integer> fired = new ArrayList<>();
    wheel.advance(100, timer -> fired.add(timer.payload()));
    List<Integer> expected = new ArrayList<>();
    for (int i = 49; i < 64; i++) {
      expected.add(i);
    }
    assertThat(fired).as("arming order survives compaction").isEqualTo(expected);
  }

  @Test
  void cancelledSlotsNeverAccumulateWhileTheClockStandsStill() {
    TimingWheel<Integer> wheel = wheel(TimingWheel.DEFAULT_LEVEL_BITS, 0, 1);
    SplittableRandom random = new SplittableRandom(7);
    List<TimerHandle<Integer>> timers = new ArrayList<>();
    for (int i = 0; i < 2_000; i++) {
      timers.add(wheel.schedule(1 + random.nextLong(1L << 22), i));
    }
    int chunksAfterFilling = wheel.slab.chunks();
    for (int round = 0; round < 50; round++) {
      for (int op = 0; op < 10_000; op++) {
        TimerHandle<Integer> timer = timers.get(random.nextInt(timers.size()));
        wheel.cancel(timer);
        wheel.reschedule(timer, 1 + random.nextLong(1L << 22));
      }
      TimingWheelInvariants.check(wheel);
    }
    assertThat(wheel.size()).isEqualTo(2_000);
    // Each bucket holds at most four filled slots per timer, or fewer than two chunks' worth: with
    // 2,000 timers that is at most 8,000 slots plus two chunks per occupied slot of the levels.
    int occupiedBuckets = 0;
    for (Level<Integer> level : wheel.levels) {
      for (int slot = 0; slot <= level.slotMask; slot++) {
        occupiedBuckets += level.bucketAt(slot, false) != null ? 1 : 0;
      }
    }
    int bound = (1 + Bucket.HOLES_PER_TIMER) * 2_000 / Slab.CHUNK + 2 * occupiedBuckets;
    assertThat(wheel.slab.chunks() - wheel.slab.freeChunks).isLessThanOrEqualTo(bound);
    assertThat(wheel.slab.chunks())
        .as("500,000 cancels and re-arms grow the slab by less than half again")
        .isLessThanOrEqualTo(Math.max(chunksAfterFilling * 3 / 2, bound * 3 / 2 + 4));
  }

  @Test
  void movingABucketDownALevelReusesItsChunksInsteadOfGrowingTheSlab() {
    TimingWheel<Integer> wheel = wheel("2,8", 0, 1);
    List<TimerHandle<Integer>> timers = new ArrayList<>();
    List<Integer> armed = new ArrayList<>();
    for (int i = 0; i < 1_600; i++) {
      timers.add(wheel.schedule(10, i));
      armed.add(i);
    }
    assertThat(WheelProbe.where(wheel, timers.get(0))).isEqualTo("level 1");
    int chunks = wheel.slab.chunks();
    assertThat(wheel.slab.freeChunks)
        .as("fewer chunks free than the bucket takes, so a second copy would grow the slab")
        .isLessThan(Bucket.chunksFor(1_600));

    // Level 1 passes the slot of keys 8 to 11: all 1,600 timers move to level 0's slot of key 9.
    assertThat(wheel.advance(8, timer -> {})).isZero();
    assertThat(WheelProbe.where(wheel, timers.get(1_599))).isEqualTo("level 0");
    assertThat(wheel.slab.chunks()).as("the move takes the chunks it frees").isEqualTo(chunks);
    TimingWheelInvariants.check(wheel);

    List<Integer> fired = new ArrayList<>();
    assertThat(wheel.advance(10, timer -> fired.add(timer.payload()))).isEqualTo(1_600);
    assertThat(fired).as("arming order survives the move").isEqualTo(armed);
  }

  /**
   * Advances one interval at a time up to {@code end}, checking the invariants after each advance,
   * and returns the payloads fired, in order.
   */
  private static List<Integer> advanceStepByStep(TimingWheel<Integer> wheel, long end) {
    List<Integer> fired = new ArrayList<>();
    for (long now = wheel.now() + 1; now <= end; now++) {
      wheel.advance(now, timer -> fired.add(timer.payload()));
      TimingWheelInvariants.check(wheel);
    }
    return fired;
  }

  /**
   * Arms {@code count} timers with payload -1 at key 250, in a slot of level 1 of a wheel "4,4"
   * that no test here advances to: three for each timer of a slot that a test wants sorted when
   * passed, which a slot is only while it holds at most a quarter of the wheel's timers ({@link
   * KeySort#worthSorting}).
   */
  private static void armFarAhead(TimingWheel<Integer> wheel, int count) {
    for (int i = 0; i < count; i++) {
      wheel.schedule(251, -1);
    }
  }

  @ParameterizedTest(name = "the clock entering the slot at {0}")
  @ValueSource(longs = {16, 17})
  void runsOfOneKeyPassedDownKeepArmingOrderAcrossChunksHolesAndKeysThatComeAgain(long enter) {
    // Level 1's slot of keys 16 to 31 gets runs of one key of every length from 1 to 40, so runs
    // start and end at every offset of a chunk, on both sides of the move; keys come again after
    // other keys, joining the bucket they filled before; cancels cut runs in two. Entered at its
    // first key, the slot is sorted in its bucket; entered past it, its timers move down, key 16's
    // into the due bucket.
    TimingWheel<Integer> wheel = wheel("4,4", 0, 1);
    List<List<Integer>> expectedByKey = new ArrayList<>();
    for (int key = 16; key < 32; key++) {
      expectedByKey.add(new ArrayList<>());
    }
    List<TimerHandle<Integer>> timers = new ArrayList<>();
    SplittableRandom random = new SplittableRandom(5);
    for (int length = 1; length <= 40; length++) {
      int key = 16 + random.nextInt(16);
      for (int i = 0; i < length; i++) {
        expectedByKey.get(key - 16).add(timers.size());
        timers.add(wheel.schedule(key + 1, timers.size()));
      }
    }
    Bucket<Integer> passed = ((WheelTimer<Integer>) timers.get(0)).bucket();
    assertThat(passed.level.index).isEqualTo(1);
    assertThat(passed.fill).isEqualTo(timers.size());
    for (int i = 3; i < timers.size(); i += 7) {
      Integer cancelled = timers.get(i).payload();
      wheel.cancel(timers.get(i));
      expectedByKey.forEach(payloads -> payloads.remove(cancelled));
    }
    List<Integer> expected = new ArrayList<>();
    expectedByKey.forEach(expected::addAll);
    armFarAhead(wheel, 3 * timers.size());

    List<Integer> fired = new ArrayList<>();
    wheel.advance(enter, timer -> fired.add(timer.payload()));
    TimingWheelInvariants.check(wheel);
    assertThat(wheel.sorted == passed).as("sorted in its bucket").isEqualTo(enter == 16);
    assertThat(fired).as("key 16's timers, due when entered past it")
        .isEqualTo(enter == 16 ? List.of() : expectedByKey.get(0));
    for (TimerHandle<Integer> timer : timers) {
      if (timer.isPending()) {
        assertThat(WheelProbe.where(wheel, timer)).isEqualTo("level 0");
      }
    }
    fired.addAll(advanceStepByStep(wheel, 32));
    assertThat(fired).as("key by key, in arming order").isEqualTo(expected);
    assertThat(wheel.size()).as("only those far ahead").isEqualTo(3 * timers.size());
  }

  @ParameterizedTest(name = "the clock entering the slot at {0}")
  @ValueSource(longs = {16, 17})
  void aSlotPassedWhileTheSlabIsFullIsReadFromItsOldChunksAsTheSlabGrows(long enter) {
    // Eight keys of eight timers, and timers far ahead until the slab has no chunk free, so the
    // first chunk that passing the keys' slot takes grows the slab, which copies the first page,
    // the one it reads from. The keys come in falling order: entered at its first key the slot is
    // sorted into new chunks of its bucket, entered past it its timers move down, key 16's into
    // the due bucket.
    TimingWheel<Integer> wheel = wheel("4,4", 0, 1);
    List<Integer> armed = new ArrayList<>();
    for (int key = 23; key >= 16; key--) {
      List<Integer> ofKey = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        ofKey.add(armed.size() + ofKey.size());
        wheel.schedule(key + 1, ofKey.get(i));
      }
      armed.addAll(0, ofKey);
    }
    armFarAhead(wheel, 3 * 64);
    while (wheel.slab.freeChunks > 0) {
      armFarAhead(wheel, 1);
    }
    int chunks = wheel.slab.chunks();
    assertThat(chunks).as("within the first page, which grows by copying").isLessThan(
        Slab.PAGE_CHUNKS);

    List<Integer> fired = new ArrayList<>();
    wheel.advance(enter, timer -> fired.add(timer.payload()));
    assertThat(fired).hasSize(enter == 16 ? 0 : 8);
    assertThat(wheel.slab.chunks()).as("the slab grew during the pass").isGreaterThan(chunks);
    TimingWheelInvariants.check(wheel);
    fired.addAll(advanceStepByStep(wheel, 24));
    assertThat(fired).isEqualTo(armed);
  }

  @Test
  void aPassedSlotOfLevelOneOutOfKeyOrderIsSortedInItsBucketStablyAndWithoutHoles() {
    // Keys 16 to 31 are one slot of level 1, sixteen keys: 48 timers at random keys among them,
    // several to a key, a few cancelled. Entering the slot's first key sorts its bucket by key,
    // arming order kept among equal keys, into whole chunks: nothing moves to level 0, whose slots
    // hold no bucket and no short list of those keys, and the timers fire key by key. Timers far
    // ahead make the slot a quarter of the wheel's, as sorting it requires.
    TimingWheel<Integer> wheel = wheel("4,4", 0, 1);
    Level<Integer> levelOne = wheel.levels[1];
    SplittableRandom random = new SplittableRandom(11);
    List<TimerHandle<Integer>> timers = new ArrayList<>();
    List<long[]> keyAndPayload = new ArrayList<>();
    for (int i = 0; i < 48; i++) {
      int key = 16 + random.nextInt(16);
      TimerHandle<Integer> timer = wheel.schedule(key + 1, i);
      if (i % 5 == 2) {
        wheel.cancel(timer);
      } else {
        timers.add(timer);
        keyAndPayload.add(new long[] {key, i});
      }
    }
    armFarAhead(wheel, 3 * 48);
    wheel.settle();
    Bucket<Integer> bucket = levelOne.bucketAt(levelOne.slotOf(16), false);
    assertThat(bucket.keysInOrder).isFalse();
    assertThat(bucket.fill).as("with holes").isGreaterThan(bucket.size);
    keyAndPayload.sort((a, b) -> Long.compare(a[0], b[0]));
    List<Integer> expected = new ArrayList<>();
    keyAndPayload.forEach(pair -> expected.add((int) pair[1]));

    assertThat(wheel.advance(16, timer -> {})).isZero();
    assertThat(wheel.sorted).as("the slot's bucket").isSameAs(bucket);
    assertThat(bucket.keysInOrder).isTrue();
    assertThat(bucket.fill).as("no holes").isEqualTo(bucket.size).isEqualTo(timers.size());
    assertThat(Bucket.chunksFor(bucket.fill)).isEqualTo(3);
    assertThat(wheel.levels[0].keyed).as("level 0's slots hold nothing").isZero();
    List<Integer> inBucket = new ArrayList<>();
    bucket.forEach(timer -> inBucket.add(timer.payload()));
    assertThat(inBucket).as("by key, in arming order among equal keys").isEqualTo(expected);
    TimingWheelInvariants.check(wheel);
    assertThat(advanceStepByStep(wheel, 32)).isEqualTo(expected);
    assertThat(wheel.sorted.fill).as("every chunk back").isZero();
  }

  @ParameterizedTest(name = "{0} timers per key, {1} far ahead")
  @CsvSource({"1, 300", "2, 0"})
  void aPassedSlotOfLevelOneTooSparseOrTooLargeToSortMovesDownAndMakesNoArrays(
      int perKey, int farAhead) {
    // Timers in falling key order over fifteen of the sixteen keys of level 1's slot: one per
    // key, fewer timers than keys, would cost arrays and a pass over the keys for fewer timers;
    // two per key, with nothing else pending, hold all of the wheel's timers, for which the arrays
    // would be kept at twelve bytes per timer. Either way they move down into level 0's slots,
    // as Timing_wheel moves them.
    TimingWheel<Integer> wheel = wheel("4,4", 0, 1);
    List<Integer> expected = new ArrayList<>();
    for (int key = 30; key >= 16; key--) {
      for (int i = 0; i < perKey; i++) {
        wheel.schedule(key + 1, key);
        expected.add(0, key);
      }
    }
    armFarAhead(wheel, farAhead);
    Bucket<Integer> bucket = wheel.levels[1].bucketAt(wheel.levels[1].slotOf(16), false);
    assertThat(bucket.keysInOrder).isFalse();

    assertThat(wheel.advance(16, timer -> {})).isZero();
    assertThat(wheel.sorted).isNotSameAs(bucket);
    assertThat(wheel.levels[0].keyed).as("moved down").isEqualTo(15 * perKey);
    assertThat(wheel.keySort).as("never made").isNull();
    TimingWheelInvariants.check(wheel);
    assertThat(advanceStepByStep(wheel, 32)).isEqualTo(expected);
  }

  @Test
  void runsReexaminedInTheOverflowGoBackToItOrDownInArmingOrder() {
    // The top level ends at key 271 at first: runs of keys beyond it wait in the overflow bucket,
    // and each re-examination files runs into the levels and the others back into the overflow,
    // the bucket being emptied.
    TimingWheel<Integer> wheel = wheel("4,4", 0, 1);
    long maxKey = wheel.levels[1].maxKey;
    java.util.TreeMap<Long, List<Integer>> expectedByKey = new java.util.TreeMap<>();
    SplittableRandom random = new SplittableRandom(9);
    int payload = 0;
    for (int run = 0; run < 120; run++) {
      long key = maxKey + 1 + random.nextInt(400);
      int length = 1 + random.nextInt(20);
      for (int i = 0; i < length; i++) {
        wheel.schedule(key + 1, payload);
        expectedByKey.computeIfAbsent(key, k -> new ArrayList<>()).add(payload++);
      }
    }
    assertThat(wheel.overflow.size).isEqualTo(payload);
    List<Integer> expected = new ArrayList<>();
    expectedByKey.values().forEach(expected::addAll);
    assertThat(advanceStepByStep(wheel, maxKey + 402)).isEqualTo(expected);
    assertThat(wheel.overflowScans).as("re-examinations that kept some timers").isGreaterThan(1);
  }

  /**
   * A wheel "4,4" at resolution 1 with {@code perKey} timers for each key from 16 to 31, armed in
   * deadline order as a single TTL arms them, with payloads 0, 1, 2, ...: level 1's slot of those
   * keys, passed at 16, becomes the sorted bucket.
   */
  private static TimingWheel<Integer> sortedSlotAhead(int perKey) {
    TimingWheel<Integer> wheel = wheel("4,4", 0, 1);
    int payload = 0;
    for (int key = 16; key < 32; key++) {
      for (int i = 0; i < perKey; i++) {
        wheel.schedule(key + 1, payload++);
      }
    }
    return wheel;
  }

  @Test
  void aPassedSlotOfLevelOneInDeadlineOrderStandsInForLevelZeroAndHandsOutItsTimersInPlace() {
    TimingWheel<Integer> wheel = sortedSlotAhead(8);
    Bucket<Integer> slot = wheel.levels[1].bucketAt(wheel.levels[1].slotOf(16), false);
    assertThat(slot.keysInOrder).isTrue();
    assertThat(wheel.advance(16, timer -> {})).isZero();
    assertThat(wheel.sorted).as("the slot's bucket, its timers not moved").isSameAs(slot);
    assertThat(wheel.levels[0].keyed).as("level 0's slots hold nothing").isZero();
    assertThat(wheel.nextExpiryDelay()).isEqualTo(1);
    TimingWheelInvariants.check(wheel);

    // Timers armed now with the same keys go to level 0's slots and fire after the sorted ones.
    TimerHandle<Integer> later = wheel.schedule(17, 1_000);
    TimerHandle<Integer> moved = wheel.schedule(18, 1_001);
    assertThat(WheelProbe.where(wheel, later)).isEqualTo("level 0");
    assertThat(wheel.levels[0].keyed).isEqualTo(2);
    // A sorted timer cancelled, and one re-armed to a key still ahead.
    wheel.cancel(slotTimer(wheel, 3));
    TimerHandle<Integer> rearmed = slotTimer(wheel, 5);
    wheel.reschedule(rearmed, 18);
    wheel.reschedule(moved, 17);
    int chunks = wheel.slab.freeChunks;

    List<Integer> fired = new ArrayList<>();
    wheel.advance(17, timer -> fired.add(timer.payload()));
    assertThat(fired).containsExactly(0, 1, 2, 4, 6, 7, 1_000, 1_001);
    TimingWheelInvariants.check(wheel);
    fired.clear();
    wheel.advance(18, timer -> fired.add(timer.payload()));
    assertThat(fired).containsExactly(8, 9, 10, 11, 12, 13, 14, 15, 5);
    assertThat(wheel.slab.freeChunks).as("handed-out chunks go back").isGreaterThan(chunks);
    TimingWheelInvariants.check(wheel);
    fired.clear();
    assertThat(advanceStepByStep(wheel, 32)).hasSize(14 * 8);
    assertThat(wheel.size()).isZero();
    assertThat(wheel.sorted.fill).isZero();
    TimingWheelInvariants.check(wheel);
  }

  @Test
  void aSlotKnowsItsOrderFromTheKeysItsTimersJoinedWithAndForgetsItWhenItEmpties() {
    // Keys 16 to 31 are one slot of level 1. A timer armed there with a key below the last one's
    // leaves its bucket out of order, and it stays so when that timer is cancelled; emptied, the
    // bucket goes back to the spare buckets, and the slot takes it again for timers that come in
    // rising order, which it keeps whole when the clock enters their keys.
    TimingWheel<Integer> wheel = wheel("4,4", 0, 1);
    Level<Integer> levelOne = wheel.levels[1];
    List<TimerHandle<Integer>> armed = new ArrayList<>();
    for (int key = 16; key < 24; key++) {
      armed.add(wheel.schedule(key + 1, key));
    }
    Bucket<Integer> bucket = levelOne.bucketAt(levelOne.slotOf(16), false);
    assertThat(bucket.keysInOrder).as("keys 16 to 23 in rising order").isTrue();
    armed.add(wheel.schedule(16 + 1, 16));
    assertThat(bucket.keysInOrder).as("key 16 after 23").isFalse();
    wheel.cancel(armed.remove(armed.size() - 1));
    wheel.settle();
    assertThat(bucket.keysInOrder).as("told by the keys that joined, not those left").isFalse();
    TimingWheelInvariants.check(wheel);

    armed.forEach(wheel::cancel);
    wheel.settle();
    assertThat(levelOne.bucketAt(levelOne.slotOf(16), false)).as("emptied, spare").isNull();
    List<Integer> expected = new ArrayList<>();
    for (int key = 16; key < 32; key++) {
      wheel.schedule(key + 1, key);
      expected.add(key);
    }
    assertThat(levelOne.bucketAt(levelOne.slotOf(16), false)).isSameAs(bucket);
    assertThat(bucket.keysInOrder).as("the same bucket, its order told afresh").isTrue();
    TimingWheelInvariants.check(wheel);
    wheel.advance(16, timer -> {});
    assertThat(wheel.sorted).as("kept whole as the sorted bucket").isSameAs(bucket);
    assertThat(advanceStepByStep(wheel, 32)).isEqualTo(expected);
  }

  @ParameterizedTest
  @ValueSource(ints = {Integer.MAX_VALUE, 3})
  void aSingleTtlFlowHandsOutEachSlotOfLevelOneFromWhereItIsOnTimeAndInArmingOrder(int limit) {
    // Four timers armed per interval, each re-armed 50 intervals on as it fires: every slot of
    // level 1 is in deadline order and becomes the sorted bucket in turn, the one before it
    // still holding the timers of its last key when the clock enters the next slot's keys. With
    // a limit, an advance hands out three timers at a time and is called again.
    TimingWheel<Integer> wheel = wheel("4,4", 0, 1);
    long ttl = 50;
    Map<TimerHandle<Integer>, long[]> armed = new java.util.IdentityHashMap<>();
    long[] sequence = {0};
    List<long[]> fired = new ArrayList<>();
    List<Bucket<Integer>> sortedBuckets = new ArrayList<>();
    java.util.function.Consumer<TimerHandle<Integer>> rearm = timer -> {
      long[] deadlineAndSequence = armed.get(timer);
      fired.add(new long[] {deadlineAndSequence[0], deadlineAndSequence[1], wheel.now()});
      wheel.reschedule(timer, wheel.now() + ttl);
      armed.put(timer, new long[] {wheel.now() + ttl, sequence[0]++});
    };
    for (long now = 1; now <= 400; now++) {
      if (now <= ttl) {
        for (int i = 0; i < 4; i++) {
          armed.put(wheel.schedule(now + ttl, i), new long[] {now + ttl, sequence[0]++});
        }
      }
      int handedOut;
      do {
        handedOut = wheel.advance(now, rearm, limit);
      } while (handedOut == limit);
      if (wheel.sorted != null && (sortedBuckets.isEmpty()
          || sortedBuckets.get(sortedBuckets.size() - 1) != wheel.sorted)) {
        sortedBuckets.add(wheel.sorted);
      }
      TimingWheelInvariants.check(wheel);
    }
    assertThat(fired).hasSize(4 * (400 - (int) ttl));
    for (int i = 0; i < fired.size(); i++) {
      assertThat(fired.get(i)[0]).as("fired at its deadline").isEqualTo(fired.get(i)[2]);
      if (i > 0) {
        assertThat(fired.get(i)[1]).as("in arming order").isGreaterThan(fired.get(i - 1)[1]);
      }
    }
    // The first keys are 50 to 99: level 1's slots from that of keys 48 to 63 up to that of keys
    // 384 to 399 each became the sorted bucket as the clock entered them.
    assertThat(sortedBuckets).as("slots of level 1 kept as sorted buckets").hasSize(23);
  }

  @Test
  void aSortedBucketHandsOutFromPastTheTimersTakenUntilCompactionMovesItsTimersForward() {
    TimingWheel<Integer> wheel = sortedSlotAhead(4);
    wheel.advance(16, timer -> {});
    List<Integer> fired = new ArrayList<>();
    wheel.advance(18, timer -> fired.add(timer.payload()));
    assertThat(fired).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
    Bucket<Integer> sorted = wheel.sorted;
    assertThat((int) sorted.leadingHoles).as("the next hand-out starts past the eight taken").isEqualTo(8);
    TimingWheelInvariants.check(wheel);

    // Cancelling all but the last twelve compacts the bucket, which moves them to its first slots.
    for (int payload = 8; payload < 52; payload++) {
      wheel.cancel(slotTimer(wheel, payload));
    }
    assertThat(sorted.fill).as("compacted").isLessThan(32);
    assertThat((int) sorted.leadingHoles).isZero();
    TimingWheelInvariants.check(wheel);
    List<Integer> rest = new ArrayList<>();
    for (int payload = 52; payload < 64; payload++) {
      rest.add(payload);
    }
    fired.clear();
    for (long now = 19; now <= 32; now++) {
      int before = fired.size();
      wheel.advance(now, timer -> fired.add(timer.payload()));
      // Key k, armed with deadline k + 1, fires as the clock enters interval k + 1.
      assertThat(fired.size() - before).as("fired at %d", now).isEqualTo(now >= 30 ? 4 : 0);
      TimingWheelInvariants.check(wheel);
    }
    assertThat(fired).isEqualTo(rest);
  }

  /** The pending timer of the sorted bucket with a payload. */
  private static TimerHandle<Integer> slotTimer(TimingWheel<Integer> wheel, int payload) {
    List<TimerHandle<Integer>> found = new ArrayList<>();
    wheel.sorted.forEach(timer -> {
      if (timer.payload() == payload) {
        found.add(timer);
      }
    });
    assertThat(found).hasSize(1);
    return found.get(0);
  }

  @Test
  void sortedTimersNotHandedOutStayAheadOfTheBatchAndOfTimersMadeDueMeanwhile() {
    TimingWheel<Integer> wheel = sortedSlotAhead(8);
    wheel.advance(16, timer -> {});
    wheel.schedule(17, 100);
    wheel.schedule(17, 101);
    List<Integer> fired = new ArrayList<>();
    // Three of the eight sorted timers of key 16; a handler makes a timer due meanwhile.
    assertThat(wheel.advance(17, timer -> {
      fired.add(timer.payload());
      if (fired.size() == 1) {
        wheel.schedule(10, 200);
      }
      assertThat(wheel.nextExpiryDelay()).as("sorted timers still due").isZero();
    }, 3)).isEqualTo(3);
    assertThat(fired).containsExactly(0, 1, 2);
    TimingWheelInvariants.check(wheel);
    assertThat(wheel.nextExpiryDelay()).isZero();
    fired.clear();
    wheel.advance(17, timer -> fired.add(timer.payload()));
    assertThat(fired).containsExactly(3, 4, 5, 6, 7, 100, 101, 200);
    TimingWheelInvariants.check(wheel);

    // A handler that throws leaves the rest in front in the same way.
    fired.clear();
    assertThatThrownBy(() -> wheel.advance(18, timer -> {
      fired.add(timer.payload());
      if (fired.size() == 2) {
        throw new IllegalStateException("handler");
      }
    })).isInstanceOf(IllegalStateException.class);
    TimingWheelInvariants.check(wheel);
    wheel.advance(18, timer -> fired.add(timer.payload()));
    assertThat(fired).containsExactly(8, 9, 10, 11, 12, 13, 14, 15);
  }

  @Test
  void timersThatHandlersMakeDueWhileOnlySortedTimersFireWaitForTheNextAdvance() {
    TimingWheel<Integer> wheel = sortedSlotAhead(8);
    wheel.advance(16, timer -> {});
    List<Integer> fired = new ArrayList<>();
    // Only the sorted bucket's eight timers of key 16 are due; the due bucket is empty, so the
    // advance keeps it, and the timers its handler makes due there must not fire in it.
    assertThat(wheel.advance(17, timer -> {
      fired.add(timer.payload());
      // Only as the first two fire: a timer fired again in this advance must not re-arm again.
      if (fired.size() <= 2) {
        wheel.schedule(10, 100 + timer.payload());
        wheel.reschedule(timer, 17);
      }
    })).isEqualTo(8);
    assertThat(fired).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
    TimingWheelInvariants.check(wheel);
    assertThat(wheel.nextExpiryDelay()).isZero();
    fired.clear();
    wheel.advance(17, timer -> fired.add(timer.payload()));
    assertThat(fired).containsExactly(100, 0, 101, 1);
    TimingWheelInvariants.check(wheel);
  }

  @Test
  void sortedTimersMadeDueBehindTimersAlreadyDueJoinTheDueBucketInOrder() {
    TimingWheel<Integer> wheel = sortedSlotAhead(8);
    wheel.advance(16, timer -> {});
    wheel.schedule(16, 100);
    wheel.schedule(17, 101);
    List<Integer> fired = new ArrayList<>();
    wheel.advance(17, timer -> fired.add(timer.payload()));
    assertThat(fired).containsExactly(100, 0, 1, 2, 3, 4, 5, 6, 7, 101);
    TimingWheelInvariants.check(wheel);
    // An advance past the sorted keys and beyond hands all of them out.
    fired.clear();
    assertThat(wheel.advance(1_000, timer -> fired.add(timer.payload()))).isEqualTo(15 * 8);
    assertThat(fired).isEqualTo(IntStream.range(8, 16 * 8).boxed().toList());
    TimingWheelInvariants.check(wheel);
  }

  @Test
  void aSortedBucketIsClearedDrainedAndVisitedWithTheOtherTimers() {
    TimingWheel<Integer> wheel = sortedSlotAhead(8);
    wheel.advance(16, timer -> {});
    List<Integer> seen = new ArrayList<>();
    wheel.forEach(timer -> seen.add(timer.payload()));
    assertThat(seen).hasSize(16 * 8);
    assertThat(wheel.drain(timer -> {})).isEqualTo(16 * 8);
    assertThat(wheel.size()).isZero();
    TimingWheelInvariants.check(wheel);

    TimingWheel<Integer> cleared = sortedSlotAhead(8);
    cleared.advance(16, timer -> {});
    List<TimerHandle<Integer>> handedOut = new ArrayList<>();
    assertThat(cleared.advance(17, timer -> {
      handedOut.add(timer);
      cleared.clear();
    })).isEqualTo(1);
    assertThat(cleared.size()).isZero();
    TimingWheelInvariants.check(cleared);
    TimerHandle<Integer> again = cleared.schedule(40, 1);
    assertThat(cleared.advance(40, timer -> {})).isEqualTo(1);
    assertThat(again.isPending()).isFalse();
  }

  @Test
  void emptiedSlotsGiveBackTheirBucketsAndChunks() {
    TimingWheel<Integer> wheel = wheel("3,3,3", 0, 1);
    for (int i = 0; i < 500; i++) {
      wheel.schedule(1 + i, i);
    }
    int chunks = wheel.slab.chunks();
    assertThat(wheel.advance(1_000, timer -> {})).isEqualTo(500);
    assertThat(wheel.slab.freeChunks).isEqualTo(chunks);
    int spares = 0;
    for (Bucket<Integer> bucket = wheel.spareBuckets; bucket != null; bucket = bucket.nextSpare) {
      assertThat(bucket.fill).isZero();
      assertThat(bucket.first).isEqualTo(Slab.NO_CHUNK);
      spares++;
    }
    assertThat(spares).as("every bucket that held a slot's timers is spare").isPositive();
    TimingWheelInvariants.check(wheel);

    for (int i = 0; i < 500; i++) {
      wheel.schedule(1_001 + i, i);
    }
    assertThat(wheel.slab.chunks()).as("the same load again takes no new chunk").isEqualTo(chunks);
    TimingWheelInvariants.check(wheel);
  }

  @Test
  void aCancelLeavesAStaleReferenceThatNoReadTakesForItsTimer() {
    TimingWheel<Integer> wheel = wheel("4,4", 0, 1);
    WheelTimer<Integer> first = (WheelTimer<Integer>) wheel.schedule(100, 0);
    for (int i = 1; i <= Level.LIST_MAX; i++) {
      wheel.schedule(100, i);
    }
    Bucket<Integer> bucket = first.bucket();
    assertThat(bucket.level).as("a slot's bucket").isNotNull();
    int staleSlot = first.slot;
    assertThat(wheel.cancel(first)).isTrue();
    assertThat(wheel.slab.get(staleSlot)).as("the cancel wrote only to the timer").isSameAs(first);
    assertThat(bucket.holds(first, staleSlot)).isFalse();
    assertThat(bucket.first().payload()).isEqualTo(1);
    TimingWheelInvariants.check(wheel);

    // Re-armed into the short list of a level slot whose number is its stale slab slot, and then
    // into the bucket it left, behind the timers that were armed after it.
    Level<Integer> level1 = wheel.levels[1];
    long deadline = 1 + ((16L * 16 + 16L * staleSlot) & ~15L);
    assertThat(wheel.reschedule(first, deadline)).isFalse();
    assertThat(level1.entryAt(staleSlot, false)).isSameAs(first);
    assertThat(first.levelSlot()).isEqualTo(staleSlot);
    assertThat(bucket.holds(first, staleSlot)).as("a listed timer names no slab slot").isFalse();
    List<Integer> forEach = new ArrayList<>();
    wheel.forEach(timer -> forEach.add(timer.payload()));
    assertThat(forEach).containsExactlyInAnyOrder(0, 1, 2, 3, 4);
    TimingWheelInvariants.check(wheel);
    assertThat(wheel.reschedule(first, 100)).isTrue();
    TimingWheelInvariants.check(wheel);

    List<Integer> fired = new ArrayList<>();
    wheel.advance(100, timer -> fired.add(timer.payload()));
    assertThat(fired).as("each timer once, in arming order").containsExactly(1, 2, 3, 4, 0);
    assertThat(wheel.advance(1_000, timer -> fired.add(timer.payload()))).isZero();
    assertThat(wheel.slab.freeChunks).as("no chunk keeps a stale reference")
        .isEqualTo(wheel.slab.chunks());
    TimingWheelInvariants.check(wheel);
  }

  @Test
  void aTimerReArmedIntoItsOwnBucketMovesToTheEndAndACompactionThatItTriggersKeepsIt() {
    TimingWheel<Integer> wheel = wheel("4,4", 0, 1);
    List<TimerHandle<Integer>> timers = scheduleAt(wheel, 100, 64);
    Bucket<Integer> bucket = ((WheelTimer<Integer>) timers.get(0)).bucket();
    for (int i = 1; i < 48; i++) {
      wheel.cancel(timers.get(i));
    }
    wheel.settle();
    assertThat(bucket.fill).as("47 holes for 17 timers, not yet sparse").isEqualTo(64);
    // Each re-arm joins the bucket at its end; the bucket counts it out of its old slot there
    // when the next operation settles (here the check).
    for (int i : new int[] {0, 48, 49, 50}) {
      assertThat(wheel.reschedule(timers.get(i), 100)).isTrue();
      assertThat(((WheelTimer<Integer>) timers.get(i)).bucket()).isSameAs(bucket);
      assertThat(bucket.size).as("the old slot not yet counted out").isEqualTo(18);
      TimingWheelInvariants.check(wheel);
      assertThat(bucket.size).isEqualTo(17);
    }
    assertThat(bucket.fill).isEqualTo(68);
    // The 52nd hole makes the bucket sparse while the timer that left it is also its last.
    assertThat(wheel.reschedule(timers.get(51), 100)).isTrue();
    assertThat(bucket.fill).as("not compacted before it is settled").isEqualTo(69);
    wheel.settle();
    assertThat(bucket.fill).as("compacted").isEqualTo(17);
    assertThat(bucket.size).isEqualTo(17);
    TimingWheelInvariants.check(wheel);

    // The last timer of a bucket re-armed elsewhere empties it, which gives back its chunks.
    List<TimerHandle<Integer>> later = scheduleAt(wheel, 200, 8);
    Bucket<Integer> other = ((WheelTimer<Integer>) later.get(7)).bucket();
    assertThat(other).isNotSameAs(bucket);
    for (int i = 0; i < 7; i++) {
      wheel.cancel(later.get(i));
    }
    assertThat(wheel.reschedule(later.get(7), 100)).isTrue();
    wheel.settle();
    assertThat(other.size).isZero();
    assertThat(other.fill).isZero();
    assertThat(wheel.slab.chunks() - wheel.slab.freeChunks)
        .as("chunks in use").isEqualTo(Bucket.chunksFor(bucket.fill));
    TimingWheelInvariants.check(wheel);

    List<Integer> fired = new ArrayList<>();
    wheel.advance(100, timer -> fired.add(timer.payload()));
    List<Integer> expected = new ArrayList<>(IntStream.range(52, 64).boxed().toList());
    expected.addAll(List.of(0, 48, 49, 50, 51, 7));
    assertThat(fired).as("each timer once, in arming order").isEqualTo(expected);
    assertThat(wheel.size()).isZero();
    TimingWheelInvariants.check(wheel);
  }

  @Test
  void aTimerReArmedFromTheFiringBatchIsNotHandedOutFromItsStaleSlot() {
    TimingWheel<Integer> wheel = wheel("4,4", 0, 1);
    List<TimerHandle<Integer>> timers = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      timers.add(wheel.schedule(5, i));
    }
    List<Integer> fired = new ArrayList<>();
    wheel.advance(5, timer -> {
      fired.add(timer.payload());
      if (timer.payload() == 0) {
        for (int i = 1; i < 40; i += 2) {
          wheel.reschedule(timers.get(i), 5);
        }
        for (int i = 2; i < 40; i += 4) {
          wheel.cancel(timers.get(i));
        }
      }
    });
    List<Integer> expected = new ArrayList<>();
    expected.add(0);
    for (int i = 4; i < 40; i += 4) {
      expected.add(i);
    }
    assertThat(fired).isEqualTo(expected);
    TimingWheelInvariants.check(wheel);
    fired.clear();
    wheel.advance(5, timer -> fired.add(timer.payload()));
    expected.clear();
    for (int i = 1; i < 40; i += 2) {
      expected.add(i);
    }
    assertThat(fired).as("the re-armed ones, at the next advance").isEqualTo(expected);
    TimingWheelInvariants.check(wheel);
  }

  @Test
  void theSlabGrowsByWholePagesThatItNeverCopies() {
    Slab<Integer> slab = new Slab<>();
    assertThat(slab.chunks()).as("a new slab is small").isEqualTo(Slab.INITIAL_CHUNKS);
    List<Integer> taken = new ArrayList<>();
    for (int chunks = Slab.INITIAL_CHUNKS; chunks < Slab.PAGE_CHUNKS; chunks = slab.chunks()) {
      while (slab.freeChunks > 0) {
        taken.add(slab.take());
      }
      assertThat(slab.chunks()).as("the first page is full before it grows").isEqualTo(chunks);
      taken.add(slab.take());
      assertThat(slab.chunks()).as("and then it grows by a quarter, at least one chunk")
          .isEqualTo(Math.min(Slab.PAGE_CHUNKS, chunks + Math.max(1, chunks / 4)));
    }
    assertThat(slab.chunks()).as("the first page grows up to a full page").isEqualTo(
        Slab.PAGE_CHUNKS);
    WheelTimer<Integer> timer = new WheelTimer<>(null, 1);
    int lastOfFirstPage = (Slab.PAGE_CHUNKS << Slab.CHUNK_SHIFT) - 1;
    slab.set(lastOfFirstPage, timer);
    WheelTimer<Integer>[] firstPage = slab.pageOf(0);
    while (slab.freeChunks > 0) {
      taken.add(slab.take());
    }
    taken.add(slab.take());
    assertThat(slab.chunks()).as("then one page at a time").isEqualTo(2 * Slab.PAGE_CHUNKS);
    WheelTimer<Integer>[] secondPage = slab.pageOf(Slab.PAGE_SLOTS);
    while (slab.chunks() < 5 * Slab.PAGE_CHUNKS) {
      taken.add(slab.take());
    }
    assertThat(slab.pageOf(0)).as("growing keeps the pages").isSameAs(firstPage);
    assertThat(slab.pageOf(2 * Slab.PAGE_SLOTS - 1)).isSameAs(secondPage);
    assertThat(slab.get(lastOfFirstPage)).isSameAs(timer);
    assertThat(taken).as("every chunk taken once").doesNotHaveDuplicates()
        .hasSize(slab.chunks() - slab.freeChunks);

    slab.set(lastOfFirstPage, null);
    int last = taken.get(taken.size() - 1);
    slab.give(taken.get(0), taken.get(0), 1);
    slab.give(last, last, 1);
    assertThat(slab.take()).as("a chunk given back is taken first").isEqualTo(last);
    assertThat(slab.take()).isEqualTo(taken.get(0));
  }

  @Test
  void bucketsSpanningManyPagesKeepTheirOrderThroughCancelsAndMoves() {
    TimingWheel<Integer> wheel = wheel("2,8", 0, 1);
    int count = 3 * Slab.PAGE_SLOTS + 1_000;
    List<TimerHandle<Integer>> timers = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      timers.add(wheel.schedule(10 + (i & 1), i));
    }
    assertThat(wheel.slab.chunks()).as("pages beyond the first")
        .isGreaterThan(3 * Slab.PAGE_CHUNKS);
    for (int i = 0; i < count; i++) {
      if (i % 3 != 0) {
        wheel.cancel(timers.get(i));
      }
    }
    TimingWheelInvariants.check(wheel);
    List<Integer> fired = new ArrayList<>();
    wheel.advance(8, timer -> fired.add(timer.payload()));
    assertThat(fired).isEmpty();
    TimingWheelInvariants.check(wheel);
    wheel.advance(12, timer -> fired.add(timer.payload()));
    List<Integer> expected = new ArrayList<>();
    for (int i = 0; i < count; i += 6) {
      expected.add(i);
    }
    for (int i = 3; i < count; i += 6) {
      expected.add(i);
    }
    assertThat(fired).as("key 9 in arming order, then key 10").isEqualTo(expected);
    assertThat(wheel.slab.freeChunks).isEqualTo(wheel.slab.chunks());
    TimingWheelInvariants.check(wheel);
  }

  @Test
  void aHandleOfAnotherWheelIsRejectedWhetherOrNotItIsPending() {
    TimingWheel<String> mine = wheel("2,2,2", 0, 1);
    TimingWheel<String> other = wheel("2,2,2", 0, 1);
    TimerHandle<String> pending = other.schedule(5, "pending");
    TimerHandle<String> cancelled = other.schedule(5, "cancelled");
    other.cancel(cancelled);
    TimerHandle<String> fired = other.schedule(1, "fired");
    other.advance(1, timer -> {});
    TimerHandle<String> neverArmed = other.schedule(other.now() + 3, "re-armed elsewhere");
    other.clear();

    for (TimerHandle<String> foreign : List.of(pending, cancelled, fired, neverArmed)) {
      assertThatThrownBy(() -> mine.cancel(foreign))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not created by");
      assertThatThrownBy(() -> mine.reschedule(foreign, 3))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not created by");
    }
    assertThat(mine.size()).isZero();
    TimingWheelInvariants.check(mine);
    TimingWheelInvariants.check(other);
  }

  @Test
  void timersNotHandedOutGoBackInFrontOfThoseMadeDueMeanwhileWithoutHoles() {
    TimingWheel<Integer> wheel = wheel("4,4", 0, 1);
    for (int i = 0; i < 200; i++) {
      wheel.schedule(1, i);
    }
    List<Integer> fired = new ArrayList<>();
    int[] next = {1_000};
    wheel.advance(1, timer -> {
      fired.add(timer.payload());
      wheel.schedule(wheel.now(), next[0]++);
    }, 190);
    assertThat(fired).hasSize(190);
    TimingWheelInvariants.check(wheel);
    Bucket<Integer> due = wheel.due;
    assertThat(due.size).isEqualTo(10 + 190);
    assertThat(due.fill - due.size)
        .isLessThanOrEqualTo(
            Math.max(Bucket.HOLES_PER_TIMER * due.size, Bucket.SPARSE_FILL - 1));

    fired.clear();
    wheel.advance(1, timer -> fired.add(timer.payload()));
    List<Integer> expected = new ArrayList<>();
    for (int i = 190; i < 200; i++) {
      expected.add(i);
    }
    for (int i = 1_000; i < 1_190; i++) {
      expected.add(i);
    }
    assertThat(fired).isEqualTo(expected);
  }

  @Test
  void aPassedSlotOfLevelZeroBecomesTheDueBucketWithItsTimersInPlace() {
    TimingWheel<Integer> wheel = wheel("4,4", 0, 1);
    List<WheelTimer<Integer>> timers = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      timers.add((WheelTimer<Integer>) wheel.schedule(5, i));
    }
    Bucket<Integer> slotBucket = timers.get(0).bucket();
    int[] slots = timers.stream().mapToInt(timer -> timer.slot).toArray();
    List<Integer> fired = new ArrayList<>();

    wheel.advance(5, timer -> {
      if (fired.isEmpty()) {
        assertThat(timers.get(39).bucket()).as("the firing batch").isSameAs(slotBucket);
        assertThat(timers.get(39).slot).isEqualTo(slots[39]);
      }
      fired.add(timer.payload());
    });

    assertThat(fired).hasSize(40).isSorted();
    TimingWheelInvariants.check(wheel);
  }

  @Test
  void aPassedSlotJoinsTheTimersAlreadyDueBehindThem() {
    TimingWheel<Integer> wheel = wheel("4,4", 0, 1);
    wheel.schedule(5, 1);
    wheel.schedule(5, 2);
    wheel.schedule(6, 4);
    wheel.advance(3, timer -> {}, 1);
    wheel.schedule(0, 0);
    List<Integer> fired = new ArrayList<>();
    wheel.advance(6, timer -> fired.add(timer.payload()));
    assertThat(fired).containsExactly(0, 1, 2, 4);
    TimingWheelInvariants.check(wheel);
  }

  @Test
  void aLevelsTableAndBitmapsGrowWithTheSlotsItUses() {
    TimingWheel<Integer> wheel = wheel("4,6,6", 0, 1);
    Level<Integer> level1 = wheel.levels[1];
    wheel.schedule(16 * 3, 0);
    assertThat(wheel.levels[0].byKey).as("level 0 without timers").isNull();
    assertThat(wheel.levels[2].keyedBits).as("level 2 without timers").isNull();
    assertThat(level1.coarseBits).as("level 1 without coarse timers").isNull();
    assertThat(level1.byKey).as("one occupied slot, one position").hasSize(1);

    wheel.schedule(16 * 40, 1);
    assertThat(level1.positionIn(2, 2)).as("slots 2 and 39 share a position among 2")
        .isEqualTo(level1.positionIn(39, 2));
    assertThat(level1.positionIn(2, 4)).as("but not among 4")
        .isNotEqualTo(level1.positionIn(39, 4));
    assertThat(level1.byKey).hasSize(4);
    TimingWheelInvariants.check(wheel);

    // Every other slot of level 1 (keys 16 to 1,023) too: only the whole table holds them apart.
    for (int slot = 1; slot < 64; slot++) {
      wheel.schedule(16L * slot + 1, 2 + slot);
    }
    assertThat(level1.byKey).hasSize(64);
    TimingWheelInvariants.check(wheel);
    List<Integer> fired = new ArrayList<>();
    wheel.advance(16 * 64, timer -> fired.add(timer.payload()));
    assertThat(fired).hasSize(65);
    TimingWheelInvariants.check(wheel);

    // The top level, which holds keys up to the end of its range, starts at slot 48 of 64, so
    // its occupied slots wrap round.
    TimingWheel<Integer> wrapped = wheel("4,6", 0, 1);
    wrapped.advance(16 * 47 + 1, timer -> {});
    wrapped.schedule(16 * 50, 0);
    wrapped.schedule(16 * (64 + 2) + 1, 1);
    wrapped.schedule(16 * 60, 2);
    TimingWheelInvariants.check(wrapped);
    fired.clear();
    wrapped.advance(16 * 100, timer -> fired.add(timer.payload()));
    assertThat(fired).containsExactlyInAnyOrder(0, 1, 2);
    TimingWheelInvariants.check(wrapped);
  }

  @Test
  void aFewSlotsFarApartTakeAShortTable() {
    // A thousand timers among 16 TTLs spread over 2^22 intervals leave eight slots of level 1
    // occupied, 127 to 1,023 slots ahead. A table covering the slots from the level's start to
    // the farthest one used took all 1,024 positions, 4.1 bytes per timer.
    TimingWheel<Integer> wheel = wheel("11,10,10", 0, 1);
    Level<Integer> level1 = wheel.levels[1];
    for (int ttl = 1; ttl <= 8; ttl++) {
      for (int timer = 0; timer < 10; timer++) {
        wheel.schedule((long) ttl << 18, ttl);
      }
      assertThat(level1.bucketAt(128 * ttl - 1, false)).as("slot " + (128 * ttl - 1)).isNotNull();
    }
    assertThat(level1.byKey.length).as("positions for 8 occupied slots").isLessThanOrEqualTo(16);
    TimingWheelInvariants.check(wheel);
  }

  @Test
  void aSlotHoldsItsFirstFourTimersItselfInOrderAndTakesABucketAtTheFifth() {
    TimingWheel<Integer> wheel = wheel("4,4", 0, 1);
    Level<Integer> level1 = wheel.levels[1];
    int slot = level1.slotOf(39);
    List<WheelTimer<Integer>> listed = new ArrayList<>();
    for (int i = 0; i < Level.LIST_MAX; i++) {
      listed.add((WheelTimer<Integer>) wheel.schedule(40 + i, i));
      assertThat(level1.entryAt(slot, false)).as("the first timer heads the list")
          .isSameAs(listed.get(0));
      assertThat(level1.bucketAt(slot, false)).as("no bucket for %d timers", i + 1).isNull();
      assertThat(wheel.slab.freeChunks).as("no chunk for a short list")
          .isEqualTo(wheel.slab.chunks());
      TimingWheelInvariants.check(wheel);
    }
    for (int i = 0; i < Level.LIST_MAX; i++) {
      WheelTimer<Integer> timer = listed.get(i);
      assertThat(timer.isListed()).isTrue();
      assertThat(timer.isListedCoarse()).isFalse();
      assertThat(timer.levelSlot()).isEqualTo(slot);
      assertThat(timer.link).as("each links to the next, the last to its level")
          .isSameAs(i + 1 < Level.LIST_MAX ? listed.get(i + 1) : level1);
      assertThat(timer.level()).isSameAs(level1);
      assertThat(timer.owner()).isSameAs(wheel);
    }

    // A timer that leaves from the middle, the end or the front is unlinked there.
    assertThat(wheel.cancel(listed.get(1))).isTrue();
    assertThat(listed.get(0).link).isSameAs(listed.get(2));
    assertThat(wheel.cancel(listed.get(3))).isTrue();
    assertThat(listed.get(2).link).isSameAs(level1);
    assertThat(wheel.cancel(listed.get(0))).isTrue();
    assertThat(level1.entryAt(slot, false)).isSameAs(listed.get(2));
    for (int i : new int[] {0, 1, 3}) {
      assertThat(listed.get(i).isPending()).isFalse();
      assertThat(listed.get(i).link).as("a timer that left keeps its owner")
          .isSameAs(level1);
    }
    TimingWheelInvariants.check(wheel);
    for (int i : new int[] {0, 1, 3}) {
      assertThat(wheel.reschedule(listed.get(i), 40 + i)).isFalse();
    }
    assertThat(level1.bucketAt(slot, false)).as("four timers again, no bucket").isNull();
    TimingWheelInvariants.check(wheel);

    WheelTimer<Integer> fifth = (WheelTimer<Integer>) wheel.schedule(47, 4);
    Bucket<Integer> bucket = level1.bucketAt(slot, false);
    assertThat(bucket).as("a bucket from the fifth timer on").isNotNull();
    assertThat(fifth.bucket()).isSameAs(bucket);
    List<Integer> inBucket = new ArrayList<>();
    bucket.forEach(timer -> inBucket.add(timer.payload()));
    assertThat(inBucket).as("the listed timers first, in order").containsExactly(2, 0, 1, 3, 4);
    for (WheelTimer<Integer> timer : listed) {
      assertThat(timer.isListed()).isFalse();
      assertThat(timer.bucket()).isSameAs(bucket);
      assertThat(timer.link).as("out of the list, it links to a level").isSameAs(level1);
    }
    TimingWheelInvariants.check(wheel);
    for (WheelTimer<Integer> timer : listed) {
      assertThat(wheel.cancel(timer)).isTrue();
    }
    assertThat(level1.bucketAt(slot, false)).as("kept while it holds a timer").isSameAs(bucket);
    assertThat(wheel.cancel(fifth)).isTrue();
    wheel.nextExpiryDelay();
    assertThat(level1.entryAt(slot, false)).as("released once the cancel is counted out")
        .isNull();
    TimingWheelInvariants.check(wheel);

    // A listed timer cancels, re-arms and fires like any other, and stays this wheel's.
    WheelTimer<Integer> lone = (WheelTimer<Integer>) wheel.schedule(40, 3);
    assertThat(wheel.cancel(lone)).isTrue();
    assertThat(lone.isPending()).isFalse();
    assertThat(wheel.cancel(lone)).isFalse();
    assertThat(level1.entryAt(slot, false)).isNull();
    TimingWheel<Integer> other = wheel("4,4", 0, 1);
    assertThatThrownBy(() -> other.cancel(lone))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(wheel.reschedule(lone, 3)).isFalse();
    assertThat(level1.entryAt(slot, false)).isNull();
    assertThat(wheel.levels[0].entryAt(2, false)).isSameAs(lone);
    TimingWheelInvariants.check(wheel);
    List<Integer> fired = new ArrayList<>();
    wheel.advance(3, timer -> fired.add(timer.payload()));
    assertThat(fired).containsExactly(3);
    assertThat(wheel.levels[0].entryAt(2, false)).isNull();
    TimingWheelInvariants.check(wheel);
  }

  @Test
  void bucketsAreMadeOneAtATimeWhileFewAndThenAQuarterAgainAtOnce() {
    TimingWheel<Integer> wheel = wheel("4,6", 0, 1);
    for (int slot = 1; slot <= 4; slot++) {
      for (int i = 0; i <= Level.LIST_MAX; i++) {
        wheel.schedule(16L * slot + 1, i);
      }
      assertThat(spares(wheel)).as("no spare bucket made with slot %d's", slot).isZero();
    }
    for (int slot = 5; slot <= 9; slot++) {
      for (int i = 0; i <= Level.LIST_MAX; i++) {
        wheel.schedule(16L * slot + 1, i);
      }
    }
    // One bucket at a time up to 8 (a quarter of 4 to 7 is 1), then 2 at once (a quarter of 8).
    assertThat(spares(wheel)).as("buckets made ahead when the ninth slot took one").isEqualTo(1);
    TimingWheelInvariants.check(wheel);
  }

  private static int spares(TimingWheel<?> wheel) {
    int spares = 0;
    for (Bucket<?> bucket = wheel.spareBuckets; bucket != null; bucket = bucket.nextSpare) {
      spares++;
    }
    return spares;
  }

  @Test
  void timersOfAShortListThatClearOrDrainAreNotPendingAndKeepTheirOwner() {
    TimingWheel<Integer> wheel = wheel("4,4", 0, 1);
    List<TimerHandle<Integer>> timers = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      timers.add(wheel.schedule(40 + i, i));
      timers.add(wheel.scheduleWithin(40, 48, 10 + i));
    }
    wheel.clear();
    TimingWheelInvariants.check(wheel);
    TimingWheel<Integer> other = wheel("4,4", 0, 1);
    for (int i = 0; i < timers.size(); i++) {
      TimerHandle<Integer> timer = timers.get(i);
      assertThat(timer.isPending()).isFalse();
      assertThat(((WheelTimer<Integer>) timer).owner()).isSameAs(wheel);
      assertThatThrownBy(() -> other.cancel(timer)).isInstanceOf(IllegalArgumentException.class);
      assertThat(wheel.reschedule(timer, i < 3 ? 40 : 60)).isFalse();
    }
    assertThat(wheel.levels[1].bucketAt(2, false)).as("three timers, a short list").isNull();
    assertThat(wheel.levels[1].bucketAt(3, false)).isNull();
    TimingWheelInvariants.check(wheel);
    List<Integer> drained = new ArrayList<>();
    assertThat(wheel.drain(timer -> drained.add(timer.payload()))).isEqualTo(6);
    assertThat(drained).as("slot by slot, each list in arming order")
        .containsExactly(0, 10, 1, 11, 2, 12);
    for (TimerHandle<Integer> timer : timers) {
      assertThat(timer.isPending()).isFalse();
      assertThat(wheel.reschedule(timer, 40)).isFalse();
    }
    TimingWheelInvariants.check(wheel);
  }

  @Test
  void aLoneTimerPassedByItsLevelMovesDownAndFiresInOrderWithTheOthers() {
    TimingWheel<Integer> wheel = wheel("4,4", 0, 1);
    wheel.schedule(40, 1);
    wheel.schedule(37, 0);
    wheel.scheduleWithin(20, 48, 2);
    TimingWheelInvariants.check(wheel);
    List<Integer> fired = new ArrayList<>();
    for (long now = 1; now <= 48; now++) {
      wheel.advance(now, timer -> fired.add(timer.payload()));
      TimingWheelInvariants.check(wheel);
    }
    assertThat(fired).containsExactly(2, 0, 1);
    assertThat(wheel.size()).isZero();
  }

  @Test
  void timersMovedDownFromABucketJoinBucketsAndAShortListsTimersMoveDownIntoShortLists() {
    TimingWheel<Integer> wheel = wheel("4,4", 0, 1);
    // Out of deadline order, so that the slot's bucket is moved down rather than kept as the
    // sorted one.
    WheelTimer<Integer> second = (WheelTimer<Integer>) wheel.schedule(21, 2);
    WheelTimer<Integer> first = (WheelTimer<Integer>) wheel.schedule(20, 1);
    for (int i = 2; i <= Level.LIST_MAX; i++) {
      wheel.schedule(22, 100 + i);
    }
    WheelTimer<Integer> alone = (WheelTimer<Integer>) wheel.schedule(40, 3);
    WheelTimer<Integer> listedFirst = (WheelTimer<Integer>) wheel.schedule(41, 4);
    WheelTimer<Integer> listedSecond = (WheelTimer<Integer>) wheel.schedule(41, 5);
    Level<Integer> level0 = wheel.levels[0];
    Level<Integer> level1 = wheel.levels[1];
    assertThat(level1.bucketAt(level1.slotOf(19), false)).as("a slot of five timers").isNotNull();
    wheel.advance(16, timer -> {});
    assertThat(level0.bucketAt(level0.slotOf(19), false)).as("key 19, from a bucket").isNotNull()
        .isSameAs(first.bucket());
    assertThat(level0.bucketAt(level0.slotOf(20), false)).as("key 20, from a bucket").isNotNull()
        .isSameAs(second.bucket());
    TimingWheelInvariants.check(wheel);

    wheel.advance(32, timer -> {});
    assertThat(level0.entryAt(level0.slotOf(39), false)).as("key 39, alone").isSameAs(alone);
    assertThat(level0.bucketAt(level0.slotOf(39), false)).isNull();
    assertThat(level0.entryAt(level0.slotOf(40), false)).as("key 40, listed in order")
        .isSameAs(listedFirst);
    assertThat(listedFirst.nextListed()).isSameAs(listedSecond);
    assertThat(level0.bucketAt(level0.slotOf(40), false)).isNull();
    TimingWheelInvariants.check(wheel);
    List<Integer> fired = new ArrayList<>();
    wheel.advance(41, timer -> fired.add(timer.payload()));
    assertThat(fired).containsExactly(3, 4, 5);
  }

  @Test
  void aTimerThatMovesBetweenBucketsKeepsItsLinkSoNoReferenceIsStoredInIt() {
    TimingWheel<Integer> wheel = wheel("4,4", 0, 1);
    // A deadline out of order in the slot of keys 64 to 79, so that its bucket is moved down
    // rather than kept as the sorted one.
    wheel.schedule(71, 99);
    List<WheelTimer<Integer>> early = new ArrayList<>();
    for (int i = 0; i <= Level.LIST_MAX; i++) {
      early.add((WheelTimer<Integer>) wheel.schedule(40, i));
      wheel.schedule(70, 100 + i);
    }
    WheelTimer<Integer> timer = early.get(0);
    Object link = timer.link;
    Bucket<Integer> late = wheel.levels[1].bucketAt(wheel.levels[1].slotOf(69), false);
    assertThat(timer.bucket()).as("a slot of five timers has a bucket").isNotSameAs(late);

    assertThat(wheel.reschedule(timer, 70)).isTrue();
    assertThat(timer.bucket()).isSameAs(late);
    assertThat(timer.link).as("re-armed into another bucket").isSameAs(link);
    TimingWheelInvariants.check(wheel);

    List<Integer> fired = new ArrayList<>();
    wheel.advance(64, t -> fired.add(t.payload()));
    assertThat(fired).containsExactly(1, 2, 3, 4);
    assertThat(timer.bucket().level).as("moved down by the advance").isSameAs(wheel.levels[0]);
    assertThat(timer.link).as("moved down a level").isSameAs(link);
    TimingWheelInvariants.check(wheel);

    wheel.advance(70, t -> fired.add(t.payload()));
    assertThat(fired).hasSize(10).contains(0);
    assertThat(timer.link).as("fired").isSameAs(link);
    assertThat(timer.owner()).isSameAs(wheel);
    TimingWheel<Integer> other = wheel("4,4", 0, 1);
    assertThatThrownBy(() -> other.cancel(timer)).isInstanceOf(IllegalArgumentException.class);
  }
}
