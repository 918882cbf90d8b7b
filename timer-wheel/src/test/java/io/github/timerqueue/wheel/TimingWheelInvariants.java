package io.github.timerqueue.wheel;

import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Checks every structural invariant of a {@link TimingWheel} that is not inside an advance, and
 * throws {@link AssertionError} naming the first one broken.
 *
 * <ul>
 *   <li>Level 0 starts at the minimum allowed key; each higher level starts at the first of its
 *       slots after the one holding the start of the level below; each ends a span later.
 *   <li>A bitmap bit is set if and only if its slot's list is not empty.
 *   <li>Every list is a well-formed circular doubly-linked list whose timers name it as their
 *       position and belong to this wheel.
 *   <li>A timer stored by key sits in the slot of its key, in the lowest level that holds the key:
 *       from the level's start up to the next level's start (the top level: its end).
 *   <li>A timer in a coarse slot of level {@code i} has the key at which that slot is passed, minus
 *       one, and the slot lies within the level's range.
 *   <li>Every overflow key lies beyond the top level, and the overflow bound is at most each.
 *   <li>The per-level counts and the size match the lists; no timer is left for the next advance.
 *   <li>A cached minimum is a timer with the smallest key outside the due list.
 * </ul>
 */
final class TimingWheelInvariants {

  private TimingWheelInvariants() {}

  static void check(TimingWheel<?> wheel) {
    new Checker(wheel).run();
  }

  private static final class Checker {
    private final TimingWheel<?> wheel;
    private final int levels;
    private final int top;
    private final Map<WheelTimer<?>, Boolean> seen = new IdentityHashMap<>();
    private final int[] counts;
    private long smallestKey = TimingWheel.END;
    private boolean anyKeyed;

    Checker(TimingWheel<?> wheel) {
      this.wheel = wheel;
      this.levels = wheel.levels;
      this.top = levels - 1;
      this.counts = new int[2 * levels];
    }

    void run() {
      checkRanges();
      int total = 0;
      total += checkList(TimingWheel.DUE, "due list");
      check(wheel.heads[TimingWheel.NEXT_DUE] == null, "timers left for the next advance");
      total += checkOverflow();
      for (int level = 0; level < levels; level++) {
        int slots = wheel.slotMask[level] + 1;
        int padded = Math.max(64, slots);
        for (int slot = 0; slot < padded; slot++) {
          int natural = wheel.naturalBase[level] + slot;
          int coarse = wheel.coarseBase[level] + slot;
          if (slot >= slots) {
            check(wheel.heads[natural] == null && wheel.heads[coarse] == null
                && !bit(natural) && !bit(coarse), "padding slot " + slot + " of level " + level);
            continue;
          }
          total += checkList(natural, "level " + level + " slot " + slot);
          total += checkList(coarse, "level " + level + " coarse slot " + slot);
          checkKeyedSlot(level, slot);
          checkCoarseSlot(level, slot);
        }
      }
      for (int word = 0; word < TimingWheel.FIRST_SLOT >>> 6; word++) {
        check(wheel.occupied[word] == 0, "bits set in front of the first slot");
      }
      for (int group = 0; group < counts.length; group++) {
        check(counts[group] == wheel.counts[group],
            "count of group " + group + " is " + wheel.counts[group] + ", lists hold "
                + counts[group]);
      }
      check(total == wheel.size(), "size() is " + wheel.size() + ", lists hold " + total);
      checkMinimum();
    }

    private void checkRanges() {
      check(wheel.minKey[0] == wheel.minAllowedKey, "level 0 does not start at the minimum");
      for (int level = 0; level < levels; level++) {
        if (level > 0) {
          check(wheel.minKey[level] == wheel.nextLevelMin(wheel.minKey[level - 1], level),
              "level " + level + " starts at " + Long.toUnsignedString(wheel.minKey[level]));
        }
        check(wheel.maxKey[level] == wheel.levelMax(wheel.minKey[level], level),
            "level " + level + " ends at " + Long.toUnsignedString(wheel.maxKey[level]));
      }
    }

    /** Checks one list's links; returns its length. */
    private int checkList(int position, String name) {
      WheelTimer<?> first = wheel.heads[position];
      if (position >= TimingWheel.FIRST_SLOT) {
        check(bit(position) == (first != null), "bitmap disagrees with " + name);
      }
      if (first == null) {
        return 0;
      }
      int length = 0;
      WheelTimer<?> timer = first;
      do {
        check(timer.wheel == wheel, name + " holds a timer of another wheel");
        check(timer.position == position, name + " holds a timer at position " + timer.position);
        check(timer.next.previous == timer, name + " has a broken link");
        check(seen.put(timer, true) == null, name + " holds a timer that is also elsewhere");
        if (timer.group != TimingWheel.NO_GROUP) {
          counts[timer.group]++;
        }
        length++;
        timer = timer.next;
      } while (timer != first);
      return length;
    }

    private void checkKeyedSlot(int level, int slot) {
      int position = wheel.naturalBase[level] + slot;
      long low = wheel.minKey[level];
      long high = level < top ? wheel.minKey[level + 1] - 1 : wheel.maxKey[level];
      forEachIn(position, timer -> {
        check(timer.group == level, "level " + level + " holds a timer of group " + timer.group);
        check(Long.compareUnsigned(timer.key, low) >= 0
                && Long.compareUnsigned(timer.key, high) <= 0,
            "key " + Long.toUnsignedString(timer.key) + " is outside level " + level + "'s part ["
                + Long.toUnsignedString(low) + ", " + Long.toUnsignedString(high) + "]");
        check(wheel.slotOf(timer.key, level) == slot,
            "key " + Long.toUnsignedString(timer.key) + " is in slot " + slot + " of level "
                + level);
        noteKey(timer.key);
      });
    }

    private void checkCoarseSlot(int level, int slot) {
      int position = wheel.coarseBase[level] + slot;
      long levelBlock = wheel.minKey[level] >>> wheel.shift[level];
      long block = levelBlock + ((slot - wheel.slotOf(wheel.minKey[level], level))
          & wheel.slotMask[level]);
      long blockStart = block << wheel.shift[level];
      forEachIn(position, timer -> {
        check(level > 0, "level 0 has a coarse timer");
        check(timer.group == wheel.levels + level, "coarse timer of group " + timer.group);
        check(timer.key + 1 == blockStart - wheel.passOffset[level],
            "coarse key " + Long.toUnsignedString(timer.key) + " in slot " + slot + " of level "
                + level + ", which is passed at " + Long.toUnsignedString(blockStart
                - wheel.passOffset[level]));
        check(Long.compareUnsigned(blockStart, wheel.maxKey[level]) <= 0,
            "coarse slot beyond level " + level);
        check(Long.compareUnsigned(timer.key, wheel.minAllowedKey) >= 0, "coarse timer is due");
        noteKey(timer.key);
      });
    }

    private int checkOverflow() {
      int length = checkList(TimingWheel.OVERFLOW, "overflow list");
      forEachIn(TimingWheel.OVERFLOW, timer -> {
        check(timer.group == TimingWheel.NO_GROUP, "overflow timer counted in a level");
        check(Long.compareUnsigned(timer.key, wheel.maxKey[top]) > 0,
            "overflow key " + Long.toUnsignedString(timer.key) + " is within the top level");
        check(Long.compareUnsigned(wheel.overflowKeyLowerBound, timer.key) <= 0,
            "overflow bound above key " + Long.toUnsignedString(timer.key));
        noteKey(timer.key);
      });
      return length;
    }

    private void checkMinimum() {
      if (!wheel.minimumKnown) {
        return;
      }
      if (wheel.minimum == null) {
        check(!anyKeyed, "cached minimum says empty, but timers are stored by key");
        return;
      }
      check(wheel.minimum.position >= TimingWheel.FIRST_SLOT
              || wheel.minimum.position == TimingWheel.OVERFLOW,
          "cached minimum is not stored by key");
      check(wheel.minimum.key == smallestKey, "cached minimum has key "
          + Long.toUnsignedString(wheel.minimum.key) + ", smallest is "
          + Long.toUnsignedString(smallestKey));
    }

    private void noteKey(long key) {
      anyKeyed = true;
      if (Long.compareUnsigned(key, smallestKey) < 0) {
        smallestKey = key;
      }
    }

    private boolean bit(int position) {
      return (wheel.occupied[position >>> 6] & (1L << position)) != 0;
    }

    private void forEachIn(int position, java.util.function.Consumer<WheelTimer<?>> action) {
      WheelTimer<?> first = wheel.heads[position];
      if (first == null) {
        return;
      }
      WheelTimer<?> timer = first;
      do {
        action.accept(timer);
        timer = timer.next;
      } while (timer != first);
    }

    private static void check(boolean condition, String message) {
      if (!condition) {
        throw new AssertionError("timing wheel invariant broken: " + message);
      }
    }
  }
}
