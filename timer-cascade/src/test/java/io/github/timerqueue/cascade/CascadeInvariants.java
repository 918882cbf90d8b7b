package io.github.timerqueue.cascade;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Checks the structure of a {@link CascadeTimerQueue} between operations, and fails with a message
 * that says which rule broke.
 *
 * <ul>
 *   <li>Exactly the first {@code levelCount} levels exist, and no more than 64 bits need; the
 *       directory of buckets maps each number to the bucket of that number.
 *   <li>Every pending timer is in exactly one slot, and its position names that bucket and slot;
 *       their number is {@code size()}. Level and far buckets hold {@code live} timers in slots
 *       {@code 0} to {@code end - 1}, the last of which holds one, and nothing after; due buckets
 *       hold {@code live} timers between {@code first} and {@code end}, and nothing outside.
 *   <li>No bucket holds more cancelled slots (holes) than its bound: three per live timer plus
 *       {@link Bucket#SLACK} in a level or far bucket, one per live timer plus {@link
 *       DueBucket#SLACK} in the due bucket.
 *   <li>A timer in bucket {@code d} of level {@code L} has level-{@code L} digit {@code d}, and its
 *       level-{@code L} group is one of the 2<sup>bits</sup> groups after the base's own.
 *   <li>A timer in the far bucket lies beyond the last level's group of the base.
 *   <li>At most one level's sorted bucket holds timers, the one the queue names: they lie after
 *       the base and in its group of that level, in tick order, each at the position it names in
 *       that level; its holes are bounded as the due bucket's.
 *   <li>Due timers are due; the firing bucket is empty between advances.
 *   <li>Low-water marks are lower bounds of their level's (or the far bucket's) ticks, and the bit
 *       of every occupied bucket is set.
 * </ul>
 */
final class CascadeInvariants {
  private CascadeInvariants() {}

  static void check(CascadeTimerQueue<?> queue) {
    // A move within the wheel leaves its timer's old slot for the next operation to empty: the
    // slots are checked as that operation finds them.
    queue.settle();
    int bits = queue.levelBits;
    long base = queue.base;
    Set<CascadeTimer<?>> seen = Collections.newSetFromMap(new IdentityHashMap<>());

    require(queue.levelCount >= 0 && queue.levelCount <= queue.levels.length,
        "levelCount " + queue.levelCount + " of " + queue.levels.length);
    require(queue.levels.length == (64 + bits - 1) / bits, "levels array " + queue.levels.length);
    for (int level = 0; level < queue.levels.length; level++) {
      int index = level;
      require((queue.levels[level] != null) == (level < queue.levelCount),
          () -> "level " + index + " exists: " + (queue.levels[index] != null)
              + " but levelCount is " + queue.levelCount);
    }
    require(queue.buckets.length
            == CascadeTimerQueue.FIRST_LEVEL_BUCKET + (queue.levelCount << bits),
        "directory of " + queue.buckets.length + " buckets for " + queue.levelCount + " levels");
    require(queue.buckets[CascadeTimerQueue.FAR_BUCKET] == queue.far, "far bucket's number");

    for (int level = 0; level < queue.levelCount; level++) {
      for (int digit = 0; digit < 1 << bits; digit++) {
        checkBucket(queue, level, digit, seen);
      }
    }

    walk(queue, queue.far, seen, () -> "far bucket");
    int farShift = queue.levelCount * bits;
    for (int slot = 0; slot < queue.far.end; slot++) {
      CascadeTimer<?> timer = queue.far.slots[slot];
      if (timer == null) {
        continue;
      }
      long tick = queue.tickOf(timer);
      Supplier<String> at = () -> "timer at tick " + Long.toUnsignedString(tick)
          + " in the far bucket, base " + Long.toUnsignedString(base) + ", " + queue.levelCount
          + " levels";
      require(queue.where(timer) == CascadeTimer.FAR,
          () -> at.get() + " says it is in " + queue.where(timer));
      require(farShift < 64, () -> at.get() + ": every level exists, so nothing may be far");
      require(Long.compareUnsigned(tick >>> farShift, base >>> farShift) > 0,
          () -> at.get() + ": not beyond the last level");
      require(queue.farMark.lowWater != CascadeTimerQueue.NO_TICK
              && Long.compareUnsigned(queue.farMark.lowWater, tick) <= 0,
          () -> at.get() + ": below the far bucket's low-water mark");
    }

    checkSorted(queue, seen);

    walk(queue, queue.due, seen, () -> "due bucket");
    for (int slot = queue.due.first; slot < queue.due.end; slot++) {
      CascadeTimer<?> timer = queue.due.slots[slot];
      if (timer != null) {
        require(queue.where(timer) == CascadeTimer.DUE, "due timer says it is in "
            + queue.where(timer));
        require(queue.now() - timer.deadline() >= 0 || deadlineRoundsToTheBase(queue, timer),
            () -> "due timer " + timer + " is not due at " + queue.now());
      }
    }
    int holes = queue.due.end - queue.due.first - queue.due.live;
    require(holes <= queue.due.live + DueBucket.SLACK,
        () -> "the due bucket holds " + holes + " cancelled slots for " + queue.due.live
            + " timers");
    require(queue.firing.isEmpty() && queue.firing.end == 0,
        "the firing bucket is not empty between advances");

    require(seen.size() == queue.size(),
        "the buckets hold " + seen.size() + " timers but size() is " + queue.size());
  }

  private static void checkSorted(CascadeTimerQueue<?> queue, Set<CascadeTimer<?>> seen) {
    long base = queue.base;
    for (int level = 0; level < queue.levelCount; level++) {
      DueBucket sorted = queue.levels[level].sorted;
      int index = level;
      require(sorted.positionBase == queue.levels[level].buckets[0].positionBase,
          () -> "level " + index + "'s sorted bucket has another kind than the level");
      if (sorted == queue.sorted) {
        continue;
      }
      require(sorted.isEmpty() && sorted.end == 0,
          () -> "level " + index + "'s sorted bucket holds timers but is not the queue's");
    }
    DueBucket sorted = queue.sorted;
    if (sorted == null) {
      return;
    }
    int level = 0;
    while (level < queue.levelCount && queue.levels[level].sorted != sorted) {
      level++;
    }
    int sortedLevel = level;
    require(sortedLevel > 0 && sortedLevel < queue.levelCount,
        () -> "the sorted bucket is level " + sortedLevel + "'s");
    walk(queue, sorted, seen, () -> "sorted bucket of level " + sortedLevel);
    int holes = sorted.end - sorted.first - sorted.live;
    require(holes <= sorted.live + DueBucket.SLACK,
        () -> "the sorted bucket holds " + holes + " cancelled slots for " + sorted.live
            + " timers");
    int shift = sortedLevel * queue.levelBits;
    long before = base;
    for (int slot = sorted.first; slot < sorted.end; slot++) {
      CascadeTimer<?> timer = sorted.slots[slot];
      if (timer == null) {
        continue;
      }
      long tick = queue.tickOf(timer);
      long previous = before;
      Supplier<String> at = () -> "timer at tick " + Long.toUnsignedString(tick)
          + " in the sorted bucket of level " + sortedLevel + ", base "
          + Long.toUnsignedString(base);
      require(queue.where(timer) == sortedLevel,
          () -> at.get() + " says it is in " + queue.where(timer));
      require(Long.compareUnsigned(tick, base) > 0, () -> at.get() + ": not after the base");
      require(((tick ^ base) >>> shift) == 0, () -> at.get() + ": not in the base's group");
      require(Long.compareUnsigned(tick, previous) >= 0,
          () -> at.get() + ": after one at " + Long.toUnsignedString(previous));
      before = tick;
    }
  }

  /** Whether a due timer with a deadline after the clock was made due because its tick came. */
  private static boolean deadlineRoundsToTheBase(CascadeTimerQueue<?> queue, CascadeTimer<?> timer) {
    long key = timer.deadline() - queue.startTime;
    return Long.compareUnsigned(queue.ticks.ceil(key), queue.base) <= 0;
  }

  private static void checkBucket(
      CascadeTimerQueue<?> queue, int level, int digit, Set<CascadeTimer<?>> seen) {
    int bits = queue.levelBits;
    long base = queue.base;
    Level wheelLevel = queue.levels[level];
    int shift = level * bits;
    Bucket bucket = wheelLevel.buckets[digit];
    require(queue.buckets[bucket.number] == bucket,
        () -> "level " + level + " bucket " + digit + " is not found by its number");
    int count = walk(queue, bucket, seen, () -> "level " + level + " bucket " + digit);
    require(count == 0 || wheelLevel.mayBeOccupied(digit),
        () -> "level " + level + " bucket " + digit + " holds timers but its bit is clear");
    for (int slot = 0; slot < bucket.end; slot++) {
      CascadeTimer<?> timer = bucket.slots[slot];
      if (timer == null) {
        continue;
      }
      long tick = queue.tickOf(timer);
      Supplier<String> at = () -> "timer at tick " + Long.toUnsignedString(tick)
          + " in level " + level + " bucket " + digit + ", base " + Long.toUnsignedString(base);
      require(queue.where(timer) == level,
          () -> at.get() + " says it is in " + queue.where(timer));
      require(((tick >>> shift) & ((1L << bits) - 1)) == digit, () -> at.get() + ": wrong digit");
      require(Long.compareUnsigned(tick, base) > 0, () -> at.get() + ": not after the base");
      long groupsAhead = (tick >>> shift) - (base >>> shift);
      require(groupsAhead >= 1 && groupsAhead <= 1L << bits,
          () -> at.get() + ": " + groupsAhead + " groups ahead of the base's");
      require(wheelLevel.lowWater != CascadeTimerQueue.NO_TICK
              && Long.compareUnsigned(wheelLevel.lowWater, tick) <= 0,
          () -> at.get() + ": below the level's low-water mark "
              + Long.toUnsignedString(wheelLevel.lowWater));
    }
  }

  /** Checks that a handle that is not pending sits in no slot and names its queue. */
  static void checkNotPending(CascadeTimerQueue<?> queue, CascadeTimer<?> timer) {
    require(queue.where(timer) == CascadeTimer.NOT_PENDING, "where is " + queue.where(timer));
    require(timer.position == CascadeTimer.NO_POSITION, "a timer not pending has a position");
    require(timer.queue == queue, "a timer names another queue");
    require(!timer.isPending(), "isPending");
  }

  /**
   * Walks an unordered bucket: every slot before its end holds a timer that knows its place or is
   * a hole, the last one holds a timer, the holes are within their bound and nothing lies after
   * the end.
   */
  private static int walk(
      CascadeTimerQueue<?> queue, Bucket bucket, Set<CascadeTimer<?>> seen, Supplier<String> name) {
    require(bucket.end >= 0 && bucket.end <= bucket.slots.length, () -> name.get() + ": end");
    for (int slot = bucket.end; slot < bucket.slots.length; slot++) {
      int index = slot;
      require(bucket.slots[slot] == null, () -> name.get() + ": slot " + index + " after the end");
    }
    int live = 0;
    for (int slot = 0; slot < bucket.end; slot++) {
      if (bucket.slots[slot] != null) {
        checkSlot(queue, bucket.slots[slot], bucket, slot, seen, name);
        live++;
      }
    }
    int counted = live;
    require(counted == bucket.live, () -> name.get() + ": " + counted + " timers, live says "
        + bucket.live);
    require(bucket.end == 0 || bucket.slots[bucket.end - 1] != null,
        () -> name.get() + ": a hole in the last slot before the end, " + (bucket.end - 1));
    int holes = bucket.end - live;
    require(holes <= 3 * live + Bucket.SLACK,
        () -> name.get() + ": " + holes + " holes for " + counted + " timers");
    return live;
  }

  private static void walk(
      CascadeTimerQueue<?> queue, DueBucket bucket, Set<CascadeTimer<?>> seen,
      Supplier<String> name) {
    require(0 <= bucket.first && bucket.first <= bucket.end && bucket.end <= bucket.slots.length,
        () -> name.get() + ": first " + bucket.first + ", end " + bucket.end);
    int live = 0;
    for (int slot = 0; slot < bucket.slots.length; slot++) {
      CascadeTimer<?> timer = bucket.slots[slot];
      if (timer == null) {
        continue;
      }
      int index = slot;
      require(slot >= bucket.first && slot < bucket.end,
          () -> name.get() + ": a timer in slot " + index + " outside first and end");
      checkSlot(queue, timer, bucket, slot, seen, name);
      live++;
    }
    int counted = live;
    require(counted == bucket.live, () -> name.get() + ": " + counted + " timers, live says "
        + bucket.live);
    require(bucket.live > 0 || bucket.end == 0, () -> name.get() + ": empty but not reset");
  }

  private static void checkSlot(CascadeTimerQueue<?> queue, CascadeTimer<?> timer,
      SlotBucket bucket, int slot, Set<CascadeTimer<?>> seen, Supplier<String> name) {
    require(timer != null, () -> name.get() + ": a hole in slot " + slot);
    require(timer.queue == queue, () -> name.get() + ": the timer in slot " + slot
        + " names another queue");
    require(timer.position == bucket.positionOf(slot),
        () -> name.get() + ": the timer in slot " + slot + " has position "
            + Integer.toHexString(timer.position));
    require(queue.slotOf(timer.position) == slot
            && queue.kindOf(timer.position) == queue.kindOf(bucket.positionBase),
        () -> name.get() + ": the position of the timer in slot " + slot + " reads back as "
            + "another");
    require(seen.add(timer), () -> name.get() + ": a timer in two places");
  }

  private static void require(boolean condition, String message) {
    if (!condition) {
      throw new AssertionError("cascade invariant broken: " + message);
    }
  }

  private static void require(boolean condition, Supplier<String> message) {
    if (!condition) {
      require(false, message.get());
    }
  }
}
