package io.github.timerqueue.cascade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerHandle;
import io.github.timerqueue.conformance.AllocationCounter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A bucket above level 0 whose timers are in tick order when the clock steps into its group, as a
 * single TTL fills it, is kept whole as its level's sorted bucket instead of being swept into the
 * levels below: each step of one tick hands out its timers of the new tick from where they are,
 * ahead of level 0's of the same tick, and everything else (cancel, reschedule, limits, throwing
 * handlers, moves of several ticks, clear, drain, forEach, the next expiry) works as with the
 * timers swept.
 */
class CascadeSortedBucketTest {

  private static final TimerConfig CONFIG =
      TimerConfig.builder().startTime(0).resolution(1).build();

  /**
   * A queue of 256-bucket levels whose clock is at 511, with four timers for each tick from 512 to
   * 527, payloads 0 to 63 in deadline order, armed at 1: level 1's bucket 2, which the next step
   * of the clock enters. A timer at 1 << 20, payload -1, made the levels up to 2.
   */
  private static CascadeTimerQueue<Integer> sortedBucketAhead(List<TimerHandle<Integer>> timers) {
    CascadeTimerQueue<Integer> queue = new CascadeTimerQueue<>(CONFIG, 8);
    queue.schedule(1 << 20, -1);
    queue.advance(1, timer -> {});
    for (int i = 0; i < CascadeTimerQueue.SORTED_MINIMUM; i++) {
      timers.add(queue.schedule(512 + i / 4, i));
    }
    for (long now = 2; now <= 511; now++) {
      assertThat(queue.advance(now, timer -> {})).isZero();
    }
    return queue;
  }

  private static CascadeTimer<Integer> timer(TimerHandle<Integer> handle) {
    return (CascadeTimer<Integer>) handle;
  }

  private static List<Integer> advance(CascadeTimerQueue<Integer> queue, long now) {
    List<Integer> fired = new ArrayList<>();
    queue.advance(now, timer -> fired.add(timer.payload()));
    return fired;
  }

  @Test
  void aBucketInTickOrderBecomesTheSortedBucketWithItsTimersWhereTheyWere() {
    List<TimerHandle<Integer>> timers = new ArrayList<>();
    CascadeTimerQueue<Integer> queue = sortedBucketAhead(timers);
    Bucket bucket = queue.levels[1].buckets[2];
    CascadeTimer<?>[] array = bucket.slots;
    int[] positions = timers.stream().mapToInt(handle -> timer(handle).position).toArray();

    assertThat(advance(queue, 512)).containsExactly(0, 1, 2, 3);

    assertThat(queue.sorted).isSameAs(queue.levels[1].sorted);
    assertThat(queue.sorted.slots).as("the bucket's array, not a copy").isSameAs(array);
    assertThat(bucket.isEmpty()).isTrue();
    assertThat(queue.levels[0].mayBeOccupied(1)).as("nothing moved down").isFalse();
    for (int i = 4; i < 64; i++) {
      assertThat(timer(timers.get(i)).position).as("position of %d", i).isEqualTo(positions[i]);
      assertThat(queue.where(timer(timers.get(i)))).isEqualTo(1);
    }
    assertThat(queue.nextExpiryDelay()).isEqualTo(1);
    assertThat(queue.size()).isEqualTo(61);
    CascadeInvariants.check(queue);

    // A timer armed now for the same tick goes to level 0 and fires after the sorted ones.
    TimerHandle<Integer> later = queue.schedule(513, 100);
    assertThat(queue.where(timer(later))).isZero();
    assertThat(advance(queue, 513)).containsExactly(4, 5, 6, 7, 100);
    CascadeInvariants.check(queue);
    for (long now = 514; now <= 527; now++) {
      assertThat(advance(queue, now)).hasSize(4);
      CascadeInvariants.check(queue);
    }
    assertThat(queue.sorted.isEmpty()).isTrue();
    assertThat(queue.sorted.slots).as("the array went back to the pool").isSameAs(SlotPool.NONE);
    assertThat(queue.size()).isEqualTo(1);
  }

  @ParameterizedTest(name = "{0} timers, one out of order: {1}")
  @CsvSource({"64, true", "63, false"})
  void aBucketOutOfTickOrderOrOfFewTimersIsSweptIntoTheLevelsBelow(int count,
      boolean outOfOrder) {
    CascadeTimerQueue<Integer> queue = new CascadeTimerQueue<>(CONFIG, 8);
    queue.schedule(1 << 20, -1);
    queue.advance(1, timer -> {});
    int atFirstTick = 0;
    for (int i = 0; i < count; i++) {
      long tick = outOfOrder && i == 0 || 2 * i >= count ? 258 : 257;
      atFirstTick += tick == 257 ? 1 : 0;
      queue.schedule(tick, i);
    }
    for (long now = 2; now <= 256; now++) {
      queue.advance(now, timer -> {});
    }
    assertThat(queue.sorted).isNull();
    assertThat(queue.levels[1].buckets[1].isEmpty()).isTrue();
    assertThat(queue.levels[0].mayBeOccupied(1)).isTrue();
    assertThat(queue.levels[0].mayBeOccupied(2)).isTrue();
    CascadeInvariants.check(queue);
    assertThat(advance(queue, 257)).hasSize(atFirstTick);
    assertThat(advance(queue, 258)).hasSize(count - atFirstTick);
  }

  /**
   * Timers of two TTLs fill a bucket in two runs, each in tick order: the bucket is out of order
   * where the second run begins, which the timers read spread over the bucket show.
   */
  @Test
  void aBucketOfTwoRunsEachInTickOrderIsSwept() {
    CascadeTimerQueue<Integer> queue = new CascadeTimerQueue<>(CONFIG, 8);
    queue.schedule(1 << 20, -1);
    queue.advance(1, timer -> {});
    for (int run = 0; run < 2; run++) {
      for (int i = 0; i < 200; i++) {
        queue.schedule(512 + i, 1000 * run + i);
      }
    }
    for (long now = 2; now <= 512; now++) {
      queue.advance(now, timer -> {});
    }
    assertThat(queue.sorted).isNull();
    assertThat(queue.levels[0].mayBeOccupied(1)).as("swept into level 0").isTrue();
    CascadeInvariants.check(queue);
    assertThat(advance(queue, 513)).containsExactlyInAnyOrder(1, 1001);
  }

  @Test
  void sortedTimersCancelledOrRescheduledLeaveItsOrderAndTheirPlaceInTime() {
    List<TimerHandle<Integer>> timers = new ArrayList<>();
    CascadeTimerQueue<Integer> queue = sortedBucketAhead(timers);
    advance(queue, 512);
    assertThat(queue.cancel(timers.get(5))).isTrue();
    assertThat(queue.reschedule(timers.get(6), 556)).isTrue();
    assertThat(queue.where(timer(timers.get(6)))).as("556 is 44 ticks ahead").isZero();
    assertThat(queue.reschedule(timers.get(9), 512)).as("due now").isTrue();
    assertThat(queue.where(timer(timers.get(9)))).isEqualTo(CascadeTimer.DUE);
    CascadeInvariants.check(queue);
    assertThat(queue.nextExpiryDelay()).isZero();
    assertThat(advance(queue, 512)).containsExactly(9);
    assertThat(advance(queue, 513)).containsExactly(4, 7);
    assertThat(queue.nextExpiryDelay()).isEqualTo(1);
    // Cancelling the earliest sorted timers moves the next expiry.
    for (int i = 8; i < 12; i++) {
      queue.cancel(timers.get(i));
    }
    assertThat(queue.nextExpiryDelay()).isEqualTo(2);
    CascadeInvariants.check(queue);
    assertThat(advance(queue, 514)).isEmpty();
    assertThat(advance(queue, 515)).containsExactly(12, 13, 14, 15);
    CascadeInvariants.check(queue);
  }

  @Test
  void cancellingMostOfTheSortedBucketCompactsItInOrder() {
    CascadeTimerQueue<Integer> queue = new CascadeTimerQueue<>(CONFIG, 8);
    queue.schedule(1 << 20, -1);
    queue.advance(1, timer -> {});
    List<TimerHandle<Integer>> timers = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      timers.add(queue.schedule(512 + i / 2, i));
    }
    for (long now = 2; now <= 512; now++) {
      queue.advance(now, timer -> {});
    }
    assertThat(queue.sorted.live).isEqualTo(398);
    for (int i = 2; i < 400; i++) {
      if (i % 10 != 0) {
        queue.cancel(timers.get(i));
        CascadeInvariants.check(queue);
      }
    }
    assertThat(queue.sorted.end - queue.sorted.first).as("compacted").isLessThan(100);
    List<Integer> fired = new ArrayList<>();
    for (long now = 513; now <= 711; now++) {
      fired.addAll(advance(queue, now));
    }
    List<Integer> expected = new ArrayList<>();
    for (int i = 10; i < 400; i += 10) {
      expected.add(i);
    }
    assertThat(fired).isEqualTo(expected);
  }

  @Test
  void sortedTimersLeftByALimitOrAThrowingHandlerComeFirstInTheNextAdvance() {
    List<TimerHandle<Integer>> timers = new ArrayList<>();
    CascadeTimerQueue<Integer> queue = sortedBucketAhead(timers);
    // Armed after the sorted ones, for their first tick: level 0.
    queue.schedule(512, 100);
    List<Integer> fired = new ArrayList<>();
    assertThat(queue.advance(512, timer -> {
      fired.add(timer.payload());
      if (fired.size() == 1) {
        queue.schedule(200, 200);
      }
      assertThat(queue.nextExpiryDelay()).isZero();
    }, 2)).isEqualTo(2);
    assertThat(fired).containsExactly(0, 1);
    assertThat(queue.nextExpiryDelay()).isZero();
    CascadeInvariants.check(queue);
    assertThat(advance(queue, 512)).containsExactly(2, 3, 100, 200);

    fired.clear();
    assertThatThrownBy(() -> queue.advance(513, timer -> {
      fired.add(timer.payload());
      if (fired.size() == 2) {
        throw new IllegalStateException("handler");
      }
    })).isInstanceOf(IllegalStateException.class);
    assertThat(fired).containsExactly(4, 5);
    CascadeInvariants.check(queue);
    assertThat(advance(queue, 514)).containsExactly(6, 7, 8, 9, 10, 11);
    CascadeInvariants.check(queue);
  }

  @Test
  void timersThatHandlersMakeDueWhileOnlySortedTimersFireWaitForTheNextAdvance() {
    List<TimerHandle<Integer>> timers = new ArrayList<>();
    CascadeTimerQueue<Integer> queue = sortedBucketAhead(timers);
    List<Integer> fired = new ArrayList<>();
    // Only the sorted bucket's four timers of tick 512 are due; the due buckets are both empty,
    // so the advance keeps them in place, and the timers its handler makes due must not fire in it.
    assertThat(queue.advance(512, timer -> {
      fired.add(timer.payload());
      // Only as the first two fire: a timer fired again in this advance must not re-arm again.
      if (fired.size() <= 2) {
        queue.schedule(200, 100 + timer.payload());
        queue.reschedule(timer, 512);
      }
    })).isEqualTo(4);
    assertThat(fired).containsExactly(0, 1, 2, 3);
    CascadeInvariants.check(queue);
    assertThat(queue.nextExpiryDelay()).isZero();
    assertThat(advance(queue, 512)).containsExactly(100, 0, 101, 1);
    CascadeInvariants.check(queue);
  }

  @Test
  void sortedTimersDueBehindTimersAlreadyDueJoinTheDueBucketInOrder() {
    List<TimerHandle<Integer>> timers = new ArrayList<>();
    CascadeTimerQueue<Integer> queue = sortedBucketAhead(timers);
    queue.schedule(511, 100);
    queue.schedule(512, 101);
    assertThat(advance(queue, 512)).containsExactly(100, 0, 1, 2, 3, 101);
    CascadeInvariants.check(queue);
  }

  @Test
  void aMoveOfSeveralTicksSweepsTheSortedBucketAndHandsOutInTickOrder() {
    List<TimerHandle<Integer>> timers = new ArrayList<>();
    CascadeTimerQueue<Integer> queue = sortedBucketAhead(timers);
    advance(queue, 512);
    queue.schedule(514, 100);
    // Within a tick, timers come in no specified order.
    List<Integer> fired = advance(queue, 515);
    assertThat(fired.subList(0, 4)).containsExactlyInAnyOrder(4, 5, 6, 7);
    assertThat(fired.subList(4, 9)).containsExactlyInAnyOrder(8, 9, 10, 11, 100);
    assertThat(fired.subList(9, fired.size())).containsExactlyInAnyOrder(12, 13, 14, 15);
    assertThat(queue.sorted.isEmpty()).isTrue();
    assertThat(queue.levels[0].mayBeOccupied(519 & 255)).as("swept into level 0").isTrue();
    CascadeInvariants.check(queue);
    assertThat(queue.nextExpiryDelay()).isEqualTo(1);
    assertThat(advance(queue, 1_000)).isEqualTo(IntStream.range(16, 64).boxed().toList());
  }

  /**
   * At the end of the clock's range, the last group of level 1 holds the timers of the last tick:
   * one whose deadline is the end itself, and one armed so far ahead that its deadline overflowed
   * the range, whose key lies before the base. Kept as the sorted bucket with timers of earlier
   * ticks, they fire at the last tick, not with the first.
   */
  @Test
  void aSortedBucketAtTheEndOfTheClockKeepsTheLastTicksTimersForIt() {
    TimerConfig endOfRange =
        TimerConfig.builder().startTime(Long.MIN_VALUE).resolution(1).build();
    CascadeTimerQueue<Integer> queue = new CascadeTimerQueue<>(endOfRange, 8);
    // Two moves: the clock moves forward by less than 2^63 at a time.
    queue.advance(-1, timer -> {});
    long now = Long.MAX_VALUE - 600;
    queue.advance(now, timer -> {});
    // 300 ticks ahead: level 1, once the next move sweeps the far bucket and makes the levels.
    queue.schedule(now + 300, -1);
    queue.advance(++now, timer -> {});
    // Tick 2^64 - 256 and on, four timers a tick: the last group of level 1, in tick order.
    for (int i = 0; i < CascadeTimerQueue.SORTED_MINIMUM; i++) {
      queue.schedule(Long.MAX_VALUE - 255 + i / 4, i);
    }
    // Right behind the timers of earlier ticks, where the hand-out looks at it each tick.
    TimerHandle<Integer> overflowed = queue.schedule(Long.MIN_VALUE + 5, 101);
    queue.schedule(Long.MAX_VALUE, 100);
    assertThat(queue.where(timer(overflowed))).isEqualTo(1);
    CascadeInvariants.check(queue);

    Map<Integer, Long> firedAt = new HashMap<>();
    while (now != Long.MAX_VALUE) {
      long at = ++now;
      queue.advance(at, timer -> firedAt.put(timer.payload(), at));
      if (at == Long.MAX_VALUE - 255) {
        assertThat(queue.sorted).as("the last group, kept sorted").isSameAs(queue.levels[1].sorted);
      }
      CascadeInvariants.check(queue);
    }

    assertThat(firedAt).hasSize(CascadeTimerQueue.SORTED_MINIMUM + 3);
    assertThat(firedAt.get(-1)).isEqualTo(Long.MAX_VALUE - 300);
    for (int i = 0; i < CascadeTimerQueue.SORTED_MINIMUM; i++) {
      assertThat(firedAt.get(i)).as("timer %d", i).isEqualTo(Long.MAX_VALUE - 255 + i / 4);
    }
    assertThat(firedAt.get(100)).isEqualTo(Long.MAX_VALUE);
    assertThat(firedAt.get(101)).as("the overflowed timer").isEqualTo(Long.MAX_VALUE);
    assertThat(queue.size()).isZero();
  }

  @Test
  void aSortedBucketIsVisitedDrainedAndCleared() {
    List<TimerHandle<Integer>> timers = new ArrayList<>();
    CascadeTimerQueue<Integer> queue = sortedBucketAhead(timers);
    advance(queue, 512);
    List<Integer> seen = new ArrayList<>();
    queue.forEach(timer -> seen.add(timer.payload()));
    assertThat(seen).hasSize(61).contains(4, 63, -1);
    List<Integer> drained = new ArrayList<>();
    assertThat(queue.drain(timer -> drained.add(timer.payload()))).isEqualTo(61);
    assertThat(drained).containsAll(seen);
    assertThat(timers.get(4).isPending()).isFalse();
    assertThat(queue.size()).isZero();
    assertThat(queue.nextExpiryDelay()).isEqualTo(Long.MAX_VALUE);
    CascadeInvariants.check(queue);

    List<TimerHandle<Integer>> others = new ArrayList<>();
    CascadeTimerQueue<Integer> cleared = sortedBucketAhead(others);
    // Cleared by the handler of the first sorted timer, mid-way through the sorted ones.
    List<Integer> fired = new ArrayList<>();
    assertThat(cleared.advance(512, timer -> {
      fired.add(timer.payload());
      cleared.clear();
    })).isEqualTo(1);
    assertThat(cleared.size()).isZero();
    assertThat(others.get(1).isPending()).isFalse();
    CascadeInvariants.check(cleared);
    TimerHandle<Integer> again = cleared.schedule(600, 1);
    assertThat(advance(cleared, 600)).containsExactly(1);
    assertThat(again.isPending()).isFalse();
  }

  @Test
  void aHandleOfAnotherQueueIsRefusedWhileTheSortedBucketHoldsItsSlot() {
    List<TimerHandle<Integer>> timers = new ArrayList<>();
    CascadeTimerQueue<Integer> queue = sortedBucketAhead(timers);
    advance(queue, 512);
    CascadeTimerQueue<Integer> other = sortedBucketAhead(new ArrayList<>());
    advance(other, 512);
    assertThatThrownBy(() -> other.cancel(timers.get(4)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> other.reschedule(timers.get(4), 400))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(timers.get(4).isPending()).isTrue();
    CascadeInvariants.check(queue);
    CascadeInvariants.check(other);
  }

  @ParameterizedTest(name = "bits {0}")
  @CsvSource({"2", "8", "13"})
  void sortedTimersPositionsNameTheirLevelAndSlotWithEveryWidthOfLevel(int bits) {
    CascadeTimerQueue<Integer> queue = new CascadeTimerQueue<>(CONFIG, bits);
    queue.schedule(1L << (2 * bits + 1), -1);
    queue.advance(1, timer -> {});
    long group = 1L << bits;
    int perTick = (int) Math.max(2, CascadeTimerQueue.SORTED_MINIMUM / group);
    int count = (int) (perTick * group);
    List<TimerHandle<Integer>> timers = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      timers.add(queue.schedule(2 * group + i / perTick, i));
    }
    for (long now = 2; now < 2 * group; now++) {
      queue.advance(now, timer -> {});
    }
    assertThat(advance(queue, 2 * group)).isEqualTo(IntStream.range(0, perTick).boxed().toList());
    assertThat(queue.sorted).isSameAs(queue.levels[1].sorted);
    CascadeInvariants.check(queue);
    for (int i = perTick; i < count; i++) {
      CascadeTimer<Integer> sortedTimer = timer(timers.get(i));
      assertThat(queue.where(sortedTimer)).isEqualTo(1);
      assertThat(queue.kindOf(sortedTimer.position))
          .isEqualTo(queue.kindOf(queue.levels[1].buckets[0].positionBase));
    }
    assertThat(queue.cancel(timers.get(perTick))).isTrue();
    assertThat(queue.reschedule(timers.get(perTick + 1), 4 * group)).isTrue();
    assertThat(queue.where(timer(timers.get(perTick + 1)))).isEqualTo(1);
    CascadeInvariants.check(queue);
    assertThat(advance(queue, 2 * group + 1))
        .isEqualTo(IntStream.range(perTick + 2, 2 * perTick).boxed().toList());
    assertThat(advance(queue, 2 * group + 2))
        .isEqualTo(IntStream.range(2 * perTick, 3 * perTick).boxed().toList());
    CascadeInvariants.check(queue);
  }

  @Test
  void aFullQueueWhoseTimersAreSortedRefusesOneMore() {
    CascadeTimerQueue<Integer> queue = new CascadeTimerQueue<>(CONFIG, 8, 64);
    List<TimerHandle<Integer>> timers = new ArrayList<>();
    for (int i = 0; i < 64; i++) {
      timers.add(queue.schedule(512 + i, i));
    }
    for (long now = 1; now <= 512; now++) {
      queue.advance(now, timer -> {});
    }
    assertThat(queue.sorted.live).isEqualTo(63);
    queue.schedule(600, 100);
    assertThatThrownBy(() -> queue.schedule(600, 101))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("at most 64 timers");
    assertThat(queue.reschedule(timers.get(10), 700)).isTrue();
    assertThat(queue.size()).isEqualTo(64);
    CascadeInvariants.check(queue);
    assertThat(advance(queue, 513)).containsExactly(1);
  }

  /**
   * A single TTL's flow passes each bucket of its level whole to the sorted bucket and back to the
   * pool as it empties: once the pool has the sizes the buckets grow through, it allocates nothing.
   */
  @Test
  void aSteadySingleTtlFlowThroughSortedBucketsAllocatesNothing() {
    CascadeTimerQueue<Integer> queue = new CascadeTimerQueue<>(CONFIG, 4);
    long ttl = 1_000;
    Consumer<TimerHandle<Integer>> rearm = timer -> queue.reschedule(timer, queue.now() + ttl);
    for (long now = 1; now <= 20_000; now++) {
      if (now <= ttl) {
        for (int i = 0; i < 8; i++) {
          queue.schedule(now + ttl, i);
        }
      }
      queue.advance(now, rearm);
    }
    assertThat(queue.sorted).isNotNull();

    long[] now = {queue.now()};
    long allocated = AllocationCounter.bytesAllocatedBy(() -> {
      for (int tick = 0; tick < 20_000; tick++) {
        queue.advance(++now[0], rearm);
      }
    });

    assertThat(allocated).as("bytes allocated by 20,000 advances firing 160,000 timers")
        .isLessThan(1024);
    assertThat(queue.size()).isEqualTo(8_000);
    assertThat(queue.pool.ownedSlots())
        .isEqualTo(CascadeStorageTest.slotsInBuckets(queue) + queue.pool.heldSlots());
    CascadeInvariants.check(queue);
  }

  /**
   * A single-TTL flow, checked after every step against a model of the pending timers: each
   * advance hands out exactly the timers due, in tick order and, within a tick, in arming order;
   * the size and the next expiry agree with the model; the structure holds. Timers are armed
   * {@code perTick} at a time for the first TTL, and each is re-armed one TTL on as it fires, so
   * that the buckets of the TTL's level fill in tick order and become sorted buckets in turn. Mixed
   * in at random: moves of the clock by several ticks, limits, handlers that throw, cancels and
   * reschedules.
   */
  @ParameterizedTest(name = "bits {0}, ttl {1}, {2} per tick, start {3}, jumps {4}")
  @CsvSource({
      "3, 100, 4, 0, false",
      "3, 100, 4, 0, true",
      "4, 300, 4, 0, true",
      "3, 40, 12, 9223372036854775000, true",
      "2, 70, 4, 0, true"})
  void aSingleTtlFlowHandsOutEveryTimerOnTimeInOrder(int bits, long ttl, int perTick, long start,
      boolean jumps) {
    TimerConfig config = TimerConfig.builder().startTime(start).resolution(1).build();
    CascadeTimerQueue<Integer> queue = new CascadeTimerQueue<>(config, bits);
    SplittableRandom random = new SplittableRandom(bits * 31 + ttl);
    Map<Integer, TimerHandle<Integer>> handles = new HashMap<>();
    Map<Integer, long[]> pending = new HashMap<>();
    long[] sequence = {0};
    long[] now = {start};
    List<long[]> firedInStep = new ArrayList<>();
    int[] sortedSteps = {0};
    Consumer<TimerHandle<Integer>> handler = handle -> {
      long[] model = pending.remove(handle.payload());
      assertThat(model).as("timer %d fired but is not pending", handle.payload()).isNotNull();
      assertThat(model[0] - now[0]).as("timer %d fired before its deadline", handle.payload())
          .isLessThanOrEqualTo(0);
      firedInStep.add(model);
      if (random.nextInt(300) == 0) {
        throw new IllegalStateException("handler");
      }
      queue.reschedule(handle, now[0] + ttl);
      pending.put(handle.payload(), new long[] {now[0] + ttl, sequence[0]++});
    };
    int nextPayload = 0;
    for (int step = 0; step < 3_000; step++) {
      if (step < ttl) {
        for (int i = 0; i < perTick; i++) {
          int payload = nextPayload++;
          handles.put(payload, queue.schedule(now[0] + ttl, payload));
          pending.put(payload, new long[] {now[0] + ttl, sequence[0]++});
        }
      }
      if (!pending.isEmpty() && random.nextInt(8) == 0) {
        // A cancel, or a reschedule one TTL on, of a pending timer picked at random.
        Integer payload = new ArrayList<>(pending.keySet()).get(random.nextInt(pending.size()));
        if (random.nextBoolean()) {
          // Cancelled, and a new timer armed in its place.
          assertThat(queue.cancel(handles.get(payload))).isTrue();
          pending.remove(payload);
          int replacement = nextPayload++;
          handles.put(replacement, queue.schedule(now[0] + ttl, replacement));
          pending.put(replacement, new long[] {now[0] + ttl, sequence[0]++});
        } else {
          assertThat(queue.reschedule(handles.get(payload), now[0] + ttl)).isTrue();
          pending.put(payload, new long[] {now[0] + ttl, sequence[0]++});
        }
      }
      now[0] += jumps && random.nextInt(40) == 0 ? 2 + random.nextInt((int) ttl / 2) : 1;
      int limit = random.nextInt(10) == 0 ? 1 + random.nextInt(5) : Integer.MAX_VALUE;
      firedInStep.clear();
      while (true) {
        int handedOut;
        try {
          handedOut = queue.advance(now[0], handler, limit);
        } catch (IllegalStateException expected) {
          continue;
        }
        if (handedOut < limit) {
          break;
        }
      }
      for (int i = 1; i < firedInStep.size(); i++) {
        long[] before = firedInStep.get(i - 1);
        long[] after = firedInStep.get(i);
        long order = after[0] - before[0];
        assertThat(order).as("step %d: tick order", step).isGreaterThanOrEqualTo(0);
        if (order == 0) {
          assertThat(after[1]).as("step %d: arming order within a tick", step)
              .isGreaterThan(before[1]);
        }
      }
      long earliest = Long.MAX_VALUE;
      for (long[] model : pending.values()) {
        assertThat(model[0] - now[0]).as("step %d: a due timer was not handed out", step)
            .isPositive();
        earliest = Math.min(earliest, model[0] - now[0]);
      }
      assertThat(queue.size()).isEqualTo(pending.size());
      assertThat(queue.nextExpiryDelay()).as("step %d", step).isEqualTo(earliest);
      if (queue.sorted != null && !queue.sorted.isEmpty()) {
        sortedSteps[0]++;
      }
      assertThat(queue.pool.ownedSlots()).as("step %d: the pool's count of arrays", step)
          .isEqualTo(CascadeStorageTest.slotsInBuckets(queue) + queue.pool.heldSlots());
      CascadeInvariants.check(queue);
    }
    // A move of several ticks sweeps the sorted bucket, and the next bucket reached by one tick
    // takes its place.
    assertThat(sortedSteps[0]).as("steps with a sorted bucket").isGreaterThan(jumps ? 300 : 2_500);
  }
}
