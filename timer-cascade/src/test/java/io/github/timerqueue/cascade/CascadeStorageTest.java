package io.github.timerqueue.cascade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerHandle;
import io.github.timerqueue.conformance.AllocationCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Buckets are arrays of slots: a handle records its bucket and slot, cancel frees one slot without
 * leaving a hole, arrays shrink as their timers go and pass from emptied buckets to filling ones,
 * and a handle is recognized as foreign whether or not it is pending.
 */
class CascadeStorageTest {

  private static CascadeTimer<Integer> timer(TimerHandle<Integer> handle) {
    return (CascadeTimer<Integer>) handle;
  }

  /**
   * A queue of 256-bucket levels whose clock is at 1, holding one timer at {@code far}, which made
   * the sweep of the far bucket create the levels up to it.
   */
  private static CascadeTimerQueue<Integer> levelsUpTo(long far) {
    CascadeTimerQueue<Integer> queue = new CascadeTimerQueue<>(TimerConfig.defaults(), 8);
    queue.schedule(far, -1);
    queue.advance(1, timer -> {});
    return queue;
  }

  /** Files 64 timers, payloads 0 to 63, in level 1's bucket 1 (ticks 256 to 511), in order. */
  private static List<TimerHandle<Integer>> fillLevelOneBucketOne(
      CascadeTimerQueue<Integer> queue) {
    List<TimerHandle<Integer>> timers = new ArrayList<>();
    for (int i = 0; i < 64; i++) {
      timers.add(queue.schedule(300 + i % 7, i));
    }
    return timers;
  }

  /**
   * Cancelling empties the timer's slot and moves no other timer; the end of the bucket moves back
   * over holes to the last timer when that one is cancelled.
   */
  @Test
  void cancellingLeavesAHoleAndMovesNoOtherTimer() {
    CascadeTimerQueue<Integer> queue = levelsUpTo(1 << 20);
    List<TimerHandle<Integer>> timers = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      timers.add(queue.schedule(300 + i, i));
    }
    Bucket bucket = queue.levels[1].buckets[1];
    assertThat(bucket.end).isEqualTo(5);

    queue.cancel(timers.get(1));

    assertThat(bucket.end).isEqualTo(5);
    assertThat(bucket.live).isEqualTo(4);
    assertThat(bucket.slots[1]).isNull();
    for (int i : new int[] {0, 2, 3, 4}) {
      assertThat(bucket.slots[i]).isSameAs(timers.get(i));
      assertThat(timer(timers.get(i)).position).isEqualTo(bucket.positionOf(i));
    }
    CascadeInvariants.checkNotPending(queue, timer(timers.get(1)));
    CascadeInvariants.check(queue);

    queue.cancel(timers.get(4));
    assertThat(bucket.end).isEqualTo(4);
    queue.cancel(timers.get(2));
    queue.cancel(timers.get(3));
    assertThat(bucket.end).as("back over the holes to the timer in slot 0").isEqualTo(1);
    assertThat(bucket.live).isEqualTo(1);
    CascadeInvariants.check(queue);

    TimerHandle<Integer> added = queue.schedule(310, 10);
    assertThat(timer(added).position).isEqualTo(bucket.positionOf(1));
    CascadeInvariants.check(queue);
  }

  /**
   * An add that finds the array full compacts the bucket instead of growing it when holes fill a
   * 64th of it or more, moving only timers from beyond the slots the timers will fill, so a bucket
   * whose timers come and go keeps its array; with fewer holes it grows.
   */
  @Test
  void aFullBucketHalfHolesCompactsInsteadOfGrowing() {
    CascadeTimerQueue<Integer> queue = levelsUpTo(1 << 20);
    List<TimerHandle<Integer>> timers = fillLevelOneBucketOne(queue);
    Bucket bucket = queue.levels[1].buckets[1];
    CascadeTimer<?>[] array = bucket.slots;
    assertThat(array).hasSize(64);
    for (int i = 0; i < 64; i += 2) {
      queue.cancel(timers.get(i));
    }
    assertThat(bucket.end).isEqualTo(64);

    TimerHandle<Integer> added = queue.schedule(301, 64);

    assertThat(bucket.slots).isSameAs(array);
    assertThat(bucket.end).isEqualTo(33);
    assertThat(bucket.live).isEqualTo(33);
    assertThat(timer(added).position).isEqualTo(bucket.positionOf(32));
    for (int i = 1; i < 32; i += 2) {
      assertThat(timer(timers.get(i)).position).as("timer %d stays", i)
          .isEqualTo(bucket.positionOf(i));
    }
    for (int i = 33; i < 64; i += 2) {
      assertThat(timer(timers.get(i)).position).as("timer %d fills the hole of timer %d", i, 63 - i)
          .isEqualTo(bucket.positionOf(63 - i));
    }
    CascadeInvariants.check(queue);

    for (int i = 33; i < 128; i++) {
      timers.add(queue.schedule(302, 100 + i));
    }
    assertThat(bucket.slots).hasSize(128);
    assertThat(bucket.end).isEqualTo(128);
    queue.cancel(timers.get(1));
    queue.schedule(303, 200);
    assertThat(bucket.slots).as("one hole is less than a 64th of 128 slots").hasSize(256);
    assertThat(bucket.slots[1]).isNull();
    CascadeInvariants.check(queue);
  }

  /**
   * A full array compacts only when a quarter of it or more is holes: with fewer, a compaction
   * would read many slots and move nearly one timer per hole, so the array doubles and keeps its
   * holes and every timer's slot.
   */
  @Test
  void aFullBucketCompactsFromAQuarterOfHolesAndGrowsBelowIt() {
    for (int holes : new int[] {15, 16}) {
      CascadeTimerQueue<Integer> queue = levelsUpTo(1 << 20);
      List<TimerHandle<Integer>> timers = fillLevelOneBucketOne(queue);
      Bucket bucket = queue.levels[1].buckets[1];
      CascadeTimer<?>[] array = bucket.slots;
      assertThat(array).hasSize(64);
      for (int i = 0; i < holes; i++) {
        queue.cancel(timers.get(2 * i));
      }

      TimerHandle<Integer> added = queue.schedule(301, 64);

      boolean compacts = holes == 16;
      assertThat(bucket.slots == array).as("%d holes in 64 slots: compacted", holes)
          .isEqualTo(compacts);
      assertThat(bucket.slots).hasSize(compacts ? 64 : 128);
      assertThat(bucket.live).isEqualTo(65 - holes);
      assertThat(bucket.end).isEqualTo(compacts ? 65 - holes : 65);
      if (!compacts) {
        assertThat(timer(added).position).isEqualTo(bucket.positionOf(64));
        for (int i = 0; i < 64; i++) {
          if (i % 2 == 1 || i >= 2 * holes) {
            assertThat(timer(timers.get(i)).position).as("timer %d stays", i)
                .isEqualTo(bucket.positionOf(i));
          } else {
            assertThat(bucket.slots[i]).as("the hole of timer %d stays", i).isNull();
          }
        }
      }
      CascadeInvariants.check(queue);
    }
  }

  /**
   * However timers are cancelled, a level or far bucket holds at most three holes per timer plus
   * {@link Bucket#SLACK}, and its array is at most four times larger than the slots up to its end
   * once it is above the size that is never shrunk.
   */
  @Test
  void cancelledSlotsNeverAccumulateAndArraysShrinkWithTheirTimers() {
    CascadeTimerQueue<Integer> queue = levelsUpTo(1L << 40);
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
      assertThat(bucket.live).isEqualTo(timers.size());
      assertThat(bucket.end - bucket.live).as("holes for %d timers", bucket.live)
          .isLessThanOrEqualTo(3 * bucket.live + Bucket.SLACK);
      assertThat(bucket.slots.length).as("capacity for %d slots", bucket.end)
          .isLessThanOrEqualTo(Math.max(SlotPool.KEPT_CAPACITY, 4 * (bucket.end + 1)));
      if (timers.size() % 9_999 == 0) {
        CascadeInvariants.check(queue);
      }
    }
    assertThat(bucket.live).isEqualTo(10);
    assertThat(bucket.end).isLessThanOrEqualTo(4 * 10 + Bucket.SLACK);
    assertThat(queue.pool.heldSlots()).isLessThanOrEqualTo(
        SlotPool.OWNED_SLOTS_PER_TIMER * (long) queue.size() + SlotPool.SPARE_SLOTS);
    assertThat(queue.pool.ownedSlots()).isEqualTo(slotsInBuckets(queue) + queue.pool.heldSlots());
    CascadeInvariants.check(queue);
  }

  /**
   * A sweep moves timers in runs: a run grows an empty bucket to its size in one step, and a run
   * filed back into the bucket being swept lands in slots already read.
   */
  @Test
  void aRunIsCopiedInOneStepEvenOntoTheSlotsItCameFrom() {
    CascadeTimerQueue<Integer> queue = new CascadeTimerQueue<>(TimerConfig.defaults(), 8);
    CascadeTimer<?>[] source = new CascadeTimer<?>[100];
    for (int i = 0; i < source.length; i++) {
      source[i] = new CascadeTimer<>(queue, i);
    }
    Bucket target = new Bucket(7, queue.far.positionBase, queue.pool);

    target.addRun(source, 0, 100);

    assertThat(target.slots).hasSize(128);
    assertThat(target.end).isEqualTo(100);
    assertThat(target.live).isEqualTo(100);
    for (int i = 0; i < 100; i++) {
      assertThat(target.slots[i]).isSameAs(source[i]);
      assertThat(source[i].position).isEqualTo(target.positionOf(i));
    }

    // As a sweep does: the bucket is emptied, then timers it read are filed back into it.
    target.end = 0;
    target.live = 0;
    target.addRun(target.slots, 40, 30);
    assertThat(target.end).isEqualTo(30);
    for (int i = 0; i < 30; i++) {
      assertThat(target.slots[i]).isSameAs(source[40 + i]);
      assertThat(source[40 + i].position).isEqualTo(target.positionOf(i));
    }
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

  /**
   * Arrays of emptied buckets go to the pool, which keeps them only while the arrays in buckets and
   * in the pool hold no more slots than they may.
   */
  @Test
  void aTurningWheelReusesTheArraysOfEmptiedBuckets() {
    CascadeTimerQueue<Integer> queue = new CascadeTimerQueue<>(TimerConfig.defaults(), 4);
    SplittableRandom random = new SplittableRandom(23);
    for (int i = 0; i < 5_000; i++) {
      queue.schedule(random.nextLong(1, 100_000), i);
    }
    for (long now = 0; now < 400_000; now += 16) {
      queue.advance(now, timer -> queue.reschedule(timer, queue.now() + 1 + random.nextInt(99_999)));
      assertThat(queue.pool.heldSlots()).isLessThanOrEqualTo(
          SlotPool.OWNED_SLOTS_PER_TIMER * (long) queue.size() + SlotPool.SPARE_SLOTS);
      assertThat(queue.pool.ownedSlots())
          .isEqualTo(slotsInBuckets(queue) + queue.pool.heldSlots());
    }
    assertThat(queue.size()).isEqualTo(5_000);
    CascadeInvariants.check(queue);
  }

  /**
   * A level-0 bucket, filled again by the next sweep of level 1, keeps its small array when the
   * base reaches it, and a due bucket, filled again by the next advance, keeps its array when
   * emptied.
   */
  @Test
  void bucketsFilledAgainSoonKeepTheirArrays() {
    CascadeTimerQueue<Integer> queue = levelsUpTo(1 << 20);
    for (int i = 0; i < 5; i++) {
      queue.schedule(10, i);
    }
    Bucket bucket = queue.levels[0].buckets[10];
    CascadeTimer<?>[] array = bucket.slots;
    assertThat(array).hasSize(8);

    assertThat(queue.advance(10, timer -> {})).isEqualTo(5);

    assertThat(bucket.isEmpty()).isTrue();
    assertThat(bucket.slots).isSameAs(array).containsOnlyNulls();
    assertThat(queue.firing.isEmpty()).isTrue();
    assertThat(queue.firing.slots).hasSize(8).containsOnlyNulls();
    assertThat(queue.pool.ownedSlots()).isEqualTo(slotsInBuckets(queue) + queue.pool.heldSlots());
    CascadeInvariants.check(queue);
  }

  /**
   * Timers flowing through the wheel as through a server's timeouts (each fired timer re-armed with
   * a new random delay) make buckets grow and empty at every level; once the pool has the sizes
   * they need, the flow allocates nothing, the large arrays of the sweeps included.
   */
  @Test
  void aSteadyFlowOfFiredAndReArmedTimersAllocatesNothing() {
    CascadeTimerQueue<Integer> queue = new CascadeTimerQueue<>(TimerConfig.defaults(), 4);
    SplittableRandom random = new SplittableRandom(29);
    long[] delays = new long[1 << 16];
    for (int i = 0; i < delays.length; i++) {
      delays[i] = random.nextLong(1, 2 * 12_500);
    }
    int[] next = {0};
    Consumer<TimerHandle<Integer>> rearm =
        timer -> queue.reschedule(timer, queue.now() + delays[next[0]++ & (delays.length - 1)]);
    for (int i = 0; i < 100_000; i++) {
      queue.schedule(delays[next[0]++ & (delays.length - 1)], i);
    }
    for (long now = 1; now <= 200_000; now++) {
      queue.advance(now, rearm);
    }

    long[] now = {queue.now()};
    long allocated = AllocationCounter.bytesAllocatedBy(() -> {
      for (int tick = 0; tick < 100_000; tick++) {
        queue.advance(++now[0], rearm);
      }
    });

    assertThat(allocated).as("bytes allocated by 100,000 advances firing about 800,000 timers")
        .isLessThan(1024);
    assertThat(queue.size()).isEqualTo(100_000);
    CascadeInvariants.check(queue);
  }

  /**
   * A queue filled before its clock moves holds its timers in the far bucket; the arrays that
   * bucket outgrew are not kept, so the filled queue costs its far bucket's array and nothing more.
   */
  @Test
  void theFarBucketKeepsNoTrailOfOutgrownArrays() {
    CascadeTimerQueue<Integer> queue = new CascadeTimerQueue<>(TimerConfig.defaults(), 8);
    for (int i = 0; i < 1000; i++) {
      queue.schedule(1 + i * 1_000_003L, i);
    }
    assertThat(queue.far.end).isEqualTo(1000);
    assertThat(queue.pool.heldSlots()).isZero();
    assertThat(queue.pool.ownedSlots()).isEqualTo(queue.far.slots.length).isEqualTo(1024);
  }

  /** The slots of the arrays in every bucket of the queue. */
  static long slotsInBuckets(CascadeTimerQueue<?> queue) {
    long slots = queue.due.slots.length + queue.firing.slots.length + queue.far.slots.length;
    for (int level = 0; level < queue.levelCount; level++) {
      for (Bucket bucket : queue.levels[level].buckets) {
        slots += bucket.slots.length;
      }
      slots += queue.levels[level].sorted.slots.length;
    }
    return slots;
  }

  /**
   * When the base reaches a level-0 bucket, no timer is due yet and the due bucket has an array,
   * the two exchange arrays, holes and all, instead of copying the timers; with more holes than
   * the due bucket tolerates, it compacts. The level-0 bucket keeps the due bucket's array,
   * whatever its size, and the pool sees no change.
   */
  @Test
  void anEmptyDueBucketExchangesArraysWithALevelZeroBucket() {
    CascadeTimerQueue<Integer> queue = levelsUpTo(1 << 20);
    List<TimerHandle<Integer>> timers = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      queue.schedule(3, 1000 + i);
      queue.schedule(4, 2000 + i);
      timers.add(queue.schedule(5, i));
    }
    for (int i = 0; i < 90; i++) {
      queue.cancel(timers.get(i));
    }
    // The two due buckets take turns; each gets its first array by a copy.
    assertThat(queue.advance(3, timer -> {})).isEqualTo(100);
    assertThat(queue.advance(4, timer -> {})).isEqualTo(100);
    Bucket bucket = queue.levels[0].buckets[5];
    CascadeTimer<?>[] array = bucket.slots;
    CascadeTimer<?>[] dueArray = queue.due.slots;
    assertThat(dueArray).isNotEmpty().isNotSameAs(array);
    long held = queue.pool.heldSlots();
    assertThat(bucket.end).isEqualTo(100);
    List<Integer> fired = new ArrayList<>();

    queue.advance(5, timer -> {
      if (fired.isEmpty()) {
        assertThat(queue.firing.slots).isSameAs(array);
        assertThat(queue.firing.end).as("compacted").isEqualTo(10);
      }
      fired.add(timer.payload());
    });

    assertThat(bucket.slots).isSameAs(dueArray).containsOnlyNulls();
    assertThat(queue.pool.heldSlots()).isEqualTo(held);
    assertThat(bucket.end).isZero();
    assertThat(fired).containsExactlyInAnyOrder(90, 91, 92, 93, 94, 95, 96, 97, 98, 99);
    assertThat(queue.pool.ownedSlots()).isEqualTo(slotsInBuckets(queue) + queue.pool.heldSlots());
    CascadeInvariants.check(queue);
  }

  /** With timers already due, a level-0 bucket's timers are copied after them, in order. */
  @Test
  void aLevelZeroBucketIsCopiedAfterTimersAlreadyDue() {
    CascadeTimerQueue<Integer> queue = levelsUpTo(1 << 20);
    for (int i = 0; i < 3; i++) {
      queue.schedule(5, i);
    }
    CascadeTimer<?>[] array = queue.levels[0].buckets[5].slots;
    queue.schedule(0, -2);
    List<Integer> fired = new ArrayList<>();

    queue.advance(5, timer -> {
      assertThat(queue.firing.slots).isNotSameAs(array);
      fired.add(timer.payload());
    });

    assertThat(fired).first().isEqualTo(-2);
    assertThat(fired).containsExactlyInAnyOrder(-2, 0, 1, 2);
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

  /**
   * A compaction that moves many timers, from the last slots into the holes in order, records every
   * moved timer's position.
   */
  @Test
  void aCompactionMovingManyTimersRecordsEveryPosition() {
    CascadeTimerQueue<Integer> queue = levelsUpTo(1 << 20);
    List<TimerHandle<Integer>> timers = new ArrayList<>();
    for (int i = 0; i < 512; i++) {
      timers.add(queue.schedule(300 + i % 200, i));
    }
    Bucket bucket = queue.levels[1].buckets[1];
    assertThat(bucket.slots).hasSize(512);
    for (int i = 0; i < 200; i++) {
      queue.cancel(timers.get(i));
    }

    queue.schedule(301, 512);

    assertThat(bucket.slots).hasSize(512);
    assertThat(bucket.end).isEqualTo(313);
    for (int hole = 0; hole < 200; hole++) {
      assertThat(bucket.slots[hole]).isSameAs(timers.get(511 - hole));
      assertThat(timer(timers.get(511 - hole)).position).isEqualTo(bucket.positionOf(hole));
    }
    CascadeInvariants.check(queue);
  }

  /**
   * A compaction moves its timers a chunk at a time and writes their positions after each chunk:
   * with one move fewer than a chunk, a whole chunk, one more, and two whole chunks, holes
   * scattered among the timers that stay, every timer that moved is in the slot its position names
   * and every other stays where it was.
   */
  @Test
  void aCompactionRecordsEveryPositionAcrossItsChunks() {
    int chunk = Bucket.COMPACTED_CHUNK;
    int capacity = 1024;
    int holes = capacity / 4;
    int live = capacity - holes;
    for (int moves : new int[] {chunk - 1, chunk, chunk + 1, 2 * chunk}) {
      CascadeTimerQueue<Integer> queue = levelsUpTo(1 << 20);
      Bucket bucket = queue.levels[1].buckets[1];
      List<TimerHandle<Integer>> timers = new ArrayList<>();
      for (int i = 0; i < capacity; i++) {
        timers.add(queue.schedule(300 + i % 200, i));
      }
      assertThat(bucket.slots).hasSize(capacity);
      // A quarter of the array in holes, so the next add compacts: `moves` of them among the
      // slots that stay, every third one, and the rest among the last slots, whose other timers
      // are the ones that move.
      for (int i = 0; i < moves; i++) {
        queue.cancel(timers.get(3 * i));
      }
      for (int i = 0; i < holes - moves; i++) {
        queue.cancel(timers.get(live + i));
      }
      CascadeTimer<?>[] before = bucket.slots.clone();

      queue.schedule(301, -2);

      assertThat(bucket.slots).as("%d moves: compacted in place", moves).hasSize(capacity);
      assertThat(bucket.end).isEqualTo(live + 1);
      int moved = 0;
      for (int slot = 0; slot < live; slot++) {
        CascadeTimer<?> timer = bucket.slots[slot];
        assertThat(timer).as("slot %d", slot).isNotNull();
        assertThat(timer.position).as("slot %d", slot).isEqualTo(bucket.positionOf(slot));
        if (before[slot] != timer) {
          assertThat(before[slot]).as("slot %d held a timer that stays", slot).isNull();
          moved++;
        }
      }
      assertThat(moved).isEqualTo(moves);
      CascadeInvariants.check(queue);
    }
  }
}
