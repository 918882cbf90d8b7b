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
 *   <li>Exactly the first {@code levelCount} levels exist, and no more than 64 bits need.
 *   <li>Every list is a well-formed circle, and every pending timer is in exactly one list, which
 *       its {@code where} names; their number is {@code size()}.
 *   <li>A timer in bucket {@code d} of level {@code L} has level-{@code L} digit {@code d}, and its
 *       level-{@code L} group is one of the 2<sup>bits</sup> groups after the base's own.
 *   <li>A timer in the far list lies beyond the last level's group of the base.
 *   <li>Due timers have ticks at or before the base, in order; the batch is empty between advances.
 *   <li>Low-water marks are lower bounds of their level's (or the far list's) ticks, and the bit of
 *       every occupied bucket is set.
 * </ul>
 */
final class CascadeInvariants {
  private CascadeInvariants() {}

  static void check(CascadeTimerQueue<?> queue) {
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

    for (int level = 0; level < queue.levelCount; level++) {
      for (int digit = 0; digit < 1 << bits; digit++) {
        checkBucket(queue, level, digit, seen);
      }
    }

    walk(queue, queue.far, seen, () -> "far list");
    int farShift = queue.levelCount * bits;
    for (Link link = queue.far.next; link != queue.far; link = link.next) {
      CascadeTimer<?> timer = (CascadeTimer<?>) link;
      Supplier<String> at = () -> "timer at tick " + Long.toUnsignedString(timer.tick)
          + " in the far list, base " + Long.toUnsignedString(base) + ", " + queue.levelCount
          + " levels";
      require(timer.where == CascadeTimer.FAR, () -> at.get() + " says it is in " + timer.where);
      require(farShift < 64, () -> at.get() + ": every level exists, so nothing may be far");
      require(Long.compareUnsigned(timer.tick >>> farShift, base >>> farShift) > 0,
          () -> at.get() + ": not beyond the last level");
      require(queue.farLowWater != CascadeTimerQueue.NO_TICK
              && Long.compareUnsigned(queue.farLowWater, timer.tick) <= 0,
          () -> at.get() + ": below the far list's low-water mark");
    }

    walk(queue, queue.due, seen, () -> "due list");
    long previousTick = 0;
    for (Link link = queue.due.next; link != queue.due; link = link.next) {
      CascadeTimer<?> timer = (CascadeTimer<?>) link;
      require(timer.where == CascadeTimer.DUE, "due timer says it is in " + timer.where);
      require(Long.compareUnsigned(timer.tick, base) <= 0, "due timer after the base");
      require(Long.compareUnsigned(previousTick, timer.tick) <= 0, "due list out of tick order");
      previousTick = timer.tick;
    }
    require(queue.batch.isEmptyList(), "the batch is not empty between advances");

    require(seen.size() == queue.size(),
        "the lists hold " + seen.size() + " timers but size() is " + queue.size());
  }

  private static void checkBucket(
      CascadeTimerQueue<?> queue, int level, int digit, Set<CascadeTimer<?>> seen) {
    int bits = queue.levelBits;
    long base = queue.base;
    Level wheelLevel = queue.levels[level];
    int shift = level * bits;
    Link bucket = wheelLevel.buckets[digit];
    int count = walk(queue, bucket, seen, () -> "level " + level + " bucket " + digit);
    require(count == 0 || wheelLevel.mayBeOccupied(digit),
        () -> "level " + level + " bucket " + digit + " holds timers but its bit is clear");
    for (Link link = bucket.next; link != bucket; link = link.next) {
      CascadeTimer<?> timer = (CascadeTimer<?>) link;
      Supplier<String> at = () -> "timer at tick " + Long.toUnsignedString(timer.tick)
          + " in level " + level + " bucket " + digit + ", base " + Long.toUnsignedString(base);
      require(timer.where == level, () -> at.get() + " says it is in " + timer.where);
      require(((timer.tick >>> shift) & ((1L << bits) - 1)) == digit,
          () -> at.get() + ": wrong digit");
      require(Long.compareUnsigned(timer.tick, base) > 0, () -> at.get() + ": not after the base");
      long groupsAhead = (timer.tick >>> shift) - (base >>> shift);
      require(groupsAhead >= 1 && groupsAhead <= 1L << bits,
          () -> at.get() + ": " + groupsAhead + " groups ahead of the base's");
      require(wheelLevel.lowWater != CascadeTimerQueue.NO_TICK
              && Long.compareUnsigned(wheelLevel.lowWater, timer.tick) <= 0,
          () -> at.get() + ": below the level's low-water mark "
              + Long.toUnsignedString(wheelLevel.lowWater));
    }
  }

  /** Checks that a handle that is not pending is linked nowhere. */
  static void checkNotPending(CascadeTimer<?> timer) {
    require(timer.where == CascadeTimer.NOT_PENDING, "where is " + timer.where);
    require(timer.previous == null && timer.next == null, "a timer not pending is still linked");
    require(!timer.isPending(), "isPending");
  }

  private static int walk(
      CascadeTimerQueue<?> queue, Link list, Set<CascadeTimer<?>> seen, Supplier<String> name) {
    int count = 0;
    Link link = list;
    do {
      require(link.next != null && link.next.previous == link, () -> name.get() + ": broken links");
      link = link.next;
      if (link != list) {
        require(link instanceof CascadeTimer, () -> name.get() + ": a sentinel inside the list");
        CascadeTimer<?> timer = (CascadeTimer<?>) link;
        require(timer.queue == queue, () -> name.get() + ": a timer of another queue");
        require(seen.add(timer), () -> name.get() + ": a timer in two places, or a loop");
        count++;
      }
    } while (link != list);
    return count;
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
