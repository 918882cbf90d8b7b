package io.github.timerqueue.wheel;

import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Checks every structural invariant of a {@link TimingWheel} that is not inside an advance, and
 * throws {@link AssertionError} naming the first one broken.
 *
 * <ul>
 *   <li>A slot left for {@link TimingWheel#settle} is a slab slot in use, whose reference is to a
 *       timer that no longer names it, and whose bucket still counts that timer. The check then
 *       settles it, as the next operation would, and checks the rest with it counted out.
 *   <li>Level 0 starts at the minimum allowed key; each higher level starts at the first of its
 *       slots after the one holding the start of the level below; each ends a span later.
 *   <li>Every bucket is well-formed: its chain has one chunk per {@link Slab#CHUNK} filled slots
 *       and ends at its last chunk, each of which the slab records as the bucket's; its slots
 *       from {@code fill} on are empty; each timer in it names that slab slot as its position,
 *       links to a level of this wheel and is in no other slot; its size counts them; an empty
 *       bucket has {@code fill == 0}, so no chunk; its holes are bounded: at most {@code
 *       max(HOLES_PER_TIMER * size, SPARSE_FILL - 1)}; and its leading holes, fewer than a
 *       chunk and at most its fill, hold no timer.
 *   <li>Every chunk of the slab is in exactly one chain, a bucket's or the free one, whose
 *       chunks hold no timer and whose length is counted.
 *   <li>A slot holds a timer if and only if its bitmap bit is set; it holds a short list of one
 *       to {@link Level#LIST_MAX} timers, each linking to the next and the last to its level,
 *       all with the slot's number and kind as their position, or a bucket, at its slot in its
 *       level's table, that holds a timer; spare buckets are empty and in no slot.
 *   <li>A timer stored by key sits in the slot of its key, in the lowest level that holds the key:
 *       from the level's start up to the next level's start (the top level: its end).
 *   <li>A timer in a coarse slot of level {@code i} has the key at which that slot is passed, minus
 *       one, and the slot lies within the level's range.
 *   <li>Every overflow key lies beyond the top level, and the overflow bound is at most each.
 *   <li>The per-level counts and the size match the buckets; the firing batch is empty.
 *   <li>A cached minimum is a timer with the smallest key outside the due bucket, and its cached
 *       key is its key.
 *   <li>The cached filing bucket is a bucket by key in its slot, holding timers, and the keys of
 *       its cached block all belong to that slot, in that level's part of the keys.
 * </ul>
 */
final class TimingWheelInvariants {

  private TimingWheelInvariants() {}

  static void check(TimingWheel<?> wheel) {
    checkUnsettled(wheel);
    wheel.settle();
    new Checker<>(wheel).run();
  }

  /**
   * Checks the slot left to settle, if any, without settling it: a stale reference in a chunk of a
   * bucket that still counts its timer.
   */
  static void checkUnsettled(TimingWheel<?> wheel) {
    int slot = wheel.unsettledSlot;
    if (slot == WheelTimer.NOT_PENDING) {
      return;
    }
    if (slot < 0) {
      throw new AssertionError("unsettled slot " + slot);
    }
    Bucket<?> bucket = wheel.slab.bucketOf(slot);
    if (bucket == null) {
      throw new AssertionError("unsettled slot " + slot + " is in no bucket's chunk");
    }
    WheelTimer<?> timer = wheel.slab.get(slot);
    if (timer == null || timer.slot == slot) {
      throw new AssertionError("unsettled slot " + slot + " holds " + timer
          + ", not a timer that left it");
    }
    if (bucket.size < 1) {
      throw new AssertionError("unsettled slot " + slot + "'s bucket counts no timer");
    }
  }

  private static final class Checker<T> {
    private final TimingWheel<T> wheel;
    private final Level<T>[] levels;
    private final int top;
    private final Map<WheelTimer<?>, Boolean> seen = new IdentityHashMap<>();
    private final Map<Integer, String> chunkOwners = new java.util.HashMap<>();
    private long smallestKey = TimingWheel.END;
    private boolean anyKeyed;

    Checker(TimingWheel<T> wheel) {
      this.wheel = wheel;
      this.levels = wheel.levels;
      this.top = levels.length - 1;
    }

    void run() {
      checkRanges();
      int total = 0;
      total += checkBucket(wheel.due, "due bucket");
      check(wheel.firing.size == 0 && wheel.firing.fill == 0, "the firing batch is not empty");
      check(!wheel.due.handingOut && !wheel.firing.handingOut, "a batch is still handed out");
      check(wheel.due != wheel.firing && wheel.due != wheel.overflow
          && wheel.firing != wheel.overflow, "due, firing and overflow share a bucket");
      total += checkOverflow();
      total += checkSorted();
      checkFiled();
      for (int index = 0; index <= top; index++) {
        Level<T> level = levels[index];
        int keyed = 0;
        int coarse = 0;
        for (int slot = 0; slot <= level.slotMask; slot++) {
          keyed += checkSlot(level, slot, false);
          coarse += checkSlot(level, slot, true);
        }
        check(level.keyed == keyed,
            "level " + index + " counts " + level.keyed + " timers by key, its buckets hold "
                + keyed);
        check(level.coarse == coarse,
            "level " + index + " counts " + level.coarse + " coarse timers, its buckets hold "
                + coarse);
        check(index > 0 || coarse == 0, "level 0 has a coarse timer");
        int slots = level.slotMask + 1;
        for (long[] occupied : new long[][] {level.keyedBits, level.coarseBits}) {
          for (int bit = slots; occupied != null && bit < occupied.length * 64; bit++) {
            check(!bit(occupied, bit), "padding bit " + bit + " of level " + index);
          }
        }
        checkTable(level, level.byKey, level.keyedBits, "");
        checkTable(level, level.coarseByKey, level.coarseBits, "coarse ");
        total += keyed + coarse;
      }
      check(total == wheel.size(), "size() is " + wheel.size() + ", buckets hold " + total);
      int spare = 0;
      for (Bucket<T> bucket = wheel.spareBuckets; bucket != null; bucket = bucket.nextSpare) {
        check(checkBucket(bucket, "spare bucket " + spare) == 0, "a spare bucket holds timers");
        if (bucket.level != null) {
          check(bucket.level.bucketAt(bucket.index, bucket.coarse) != bucket,
              "spare bucket " + spare + " is in a slot");
        }
        check(spare++ <= WheelProbe.slots(wheel), "more spare buckets than slots");
      }
      checkSlab();
      checkMinimum();
    }

    private void checkRanges() {
      check(levels[0].minKey == wheel.minAllowedKey, "level 0 does not start at the minimum");
      for (int index = 0; index <= top; index++) {
        Level<T> level = levels[index];
        if (index > 0) {
          check(level.minKey == level.startAbove(levels[index - 1].minKey),
              "level " + index + " starts at " + Long.toUnsignedString(level.minKey));
        }
        check(level.maxKey == level.endFrom(level.minKey),
            "level " + index + " ends at " + Long.toUnsignedString(level.maxKey));
      }
    }

    /** Checks one bucket's chain, slots and counts; returns its size. */
    private int checkBucket(Bucket<T> bucket, String name) {
      check(bucket.owner == wheel, name + " belongs to another wheel");
      check(bucket.number >= 0 && bucket.number < wheel.slab.bucketCount()
              && wheel.slab.bucket(bucket.number) == bucket,
          name + " is not the slab's bucket number " + bucket.number);
      check(bucket.fill >= 0, name + " is filled to " + bucket.fill);
      int chunks = Bucket.chunksFor(bucket.fill);
      int timers = 0;
      int chunk = bucket.first;
      check((chunks == 0) == (chunk == Slab.NO_CHUNK), name + " has a chain that disagrees with"
          + " its fill " + bucket.fill);
      for (int c = 0; c < chunks; c++) {
        check(chunk >= 0 && chunk < wheel.slab.chunks(), name + " links to chunk " + chunk);
        check(chunkOwners.put(chunk, name) == null,
            name + " shares chunk " + chunk + " with " + chunkOwners.get(chunk));
        check(wheel.slab.bucketOf(Bucket.slotIn(chunk, 0)) == bucket,
            "the slab gives chunk " + chunk + " of " + name + " to "
                + wheel.slab.bucketOf(Bucket.slotIn(chunk, 0)));
        for (int offset = 0; offset < Slab.CHUNK; offset++) {
          int i = c * Slab.CHUNK + offset;
          int slot = Bucket.slotIn(chunk, i);
          WheelTimer<T> timer = wheel.slab.get(slot);
          if (timer == null) {
            continue;
          }
          check(i < bucket.fill, name + " holds a timer beyond its fill, in slot " + i);
          check(timer.owner() == wheel, name + " holds a timer of another wheel");
          boolean holds = timer.slot == slot;
          check(bucket.holds(timer, slot) == holds, name + " misjudges slab slot " + slot);
          check(!holds || i >= bucket.leadingHoles,
              name + " holds a timer in slot " + i + ", among its " + bucket.leadingHoles
                  + " leading holes");
          if (!holds) {
            // A stale reference that a removal left: a hole, which the timer no longer names.
            continue;
          }
          check(timer.link instanceof Level<?> level && level.owner == wheel,
              name + " holds a timer whose link is " + timer.link);
          check(seen.put(timer, true) == null, name + " holds a timer that is also elsewhere");
          timers++;
        }
        if (c == chunks - 1) {
          check(chunk == bucket.last, name + " ends at chunk " + chunk + ", not " + bucket.last);
          check(wheel.slab.next(chunk) == Slab.NO_CHUNK, name + " links past its last chunk");
        }
        chunk = wheel.slab.next(chunk);
      }
      check(timers == bucket.size, name + " has size " + bucket.size + " but holds " + timers);
      check(bucket.leadingHoles >= 0 && bucket.leadingHoles < Slab.CHUNK
              && bucket.leadingHoles <= bucket.fill,
          name + " has " + bucket.leadingHoles + " leading holes, filled to " + bucket.fill);
      if (timers == 0) {
        check(bucket.fill == 0, "empty " + name + " is filled to " + bucket.fill);
      }
      int holes = bucket.fill - timers;
      check(holes <= Math.max(Bucket.HOLES_PER_TIMER * timers, Bucket.SPARSE_FILL - 1),
          name + " has " + holes + " holes for " + timers + " timers");
      return timers;
    }

    /** Checks that every chunk is in exactly one chain, a bucket's or the free one. */
    private void checkSlab() {
      int free = 0;
      for (int chunk = wheel.slab.firstFree(); chunk != Slab.NO_CHUNK;
          chunk = wheel.slab.next(chunk)) {
        check(chunkOwners.put(chunk, "the free chain") == null,
            "free chunk " + chunk + " is also in " + chunkOwners.get(chunk));
        for (int offset = 0; offset < Slab.CHUNK; offset++) {
          check(wheel.slab.get(Bucket.slotIn(chunk, offset)) == null,
              "free chunk " + chunk + " holds a timer");
        }
        free++;
      }
      check(free == wheel.slab.freeChunks,
          "the slab counts " + wheel.slab.freeChunks + " free chunks, its chain has " + free);
      check(chunkOwners.size() == wheel.slab.chunks(), "the slab has " + wheel.slab.chunks()
          + " chunks, " + chunkOwners.size() + " are in chains");
    }

    /** Checks the bucket of one kind at one slot of a level; returns its size. */
    private int checkSlot(Level<T> level, int slot, boolean coarse) {
      long[] occupied = coarse ? level.coarseBits : level.keyedBits;
      String name = (coarse ? "coarse slot " : "slot ") + slot + " of level " + level.index;
      Object entry = level.entryAt(slot, coarse);
      if (entry == null) {
        check(!bit(occupied, slot), name + " holds nothing but its bit is set");
        return 0;
      }
      if (entry instanceof WheelTimer<?> head) {
        check(bit(occupied, slot), "bitmap disagrees with " + name);
        int listed = 0;
        @SuppressWarnings("unchecked")
        WheelTimer<T> timer = (WheelTimer<T>) head;
        for (; timer != null; timer = timer.nextListed()) {
          check(++listed <= Level.LIST_MAX, name + " lists more than " + Level.LIST_MAX);
          check(timer.isListed() && timer.levelSlot() == slot
              && timer.isListedCoarse() == coarse, name + " lists a timer at slot " + timer.slot);
          check(timer.nextListed() != null || timer.link == level,
              name + "'s list ends at " + timer.link);
          check(seen.put(timer, true) == null, name + " holds a timer that is also elsewhere");
          if (coarse) {
            checkCoarseKey(level, slot, timer);
          } else {
            checkKey(level, slot, timer);
          }
        }
        return listed;
      }
      Bucket<T> bucket = level.bucketAt(slot, coarse);
      check(bucket.level == level && bucket.index == slot && bucket.coarse == coarse,
          name + " holds " + bucket);
      int size = checkBucket(bucket, name);
      check(size > 0, name + " keeps an empty bucket");
      check(bit(occupied, slot), "bitmap disagrees with " + name);
      if (coarse) {
        checkCoarseSlot(level, slot, bucket);
      } else {
        checkKeyedSlot(level, slot, bucket);
      }
      return size;
    }

    /**
     * Checks the keys of a slot's bucket, and that a bucket which says its timers are in key order
     * holds them so, where it must know (slots of at most 2^32 keys, level 1's among them): a level
     * passing a slot of level 1 hands its timers out as sorted if it says so.
     */
    private void checkKeyedSlot(Level<T> level, int slot, Bucket<T> bucket) {
      boolean claimsOrder = bucket.keysInOrder && level.shift <= Integer.SIZE;
      long[] last = {0};
      bucket.forEach(timer -> {
        checkKey(level, slot, timer);
        long key = wheel.keyOf(timer);
        check(!claimsOrder || Long.compareUnsigned(key, last[0]) >= 0,
            "slot " + slot + " of level " + level.index + " says its keys are in order, but key "
                + Long.toUnsignedString(key) + " follows " + Long.toUnsignedString(last[0]));
        last[0] = key;
      });
    }

    private void checkKey(Level<T> level, int slot, WheelTimer<T> timer) {
      long low = level.minKey;
      long high = level.index < top ? levels[level.index + 1].minKey - 1 : level.maxKey;
      long key = wheel.keyOf(timer);
      check(Long.compareUnsigned(key, low) >= 0 && Long.compareUnsigned(key, high) <= 0,
          "key " + Long.toUnsignedString(key) + " is outside level " + level.index + "'s part ["
              + Long.toUnsignedString(low) + ", " + Long.toUnsignedString(high) + "]");
      check(level.slotOf(key) == slot,
          "key " + Long.toUnsignedString(key) + " is in slot " + slot + " of level "
              + level.index);
      noteKey(key);
    }

    private void checkCoarseSlot(Level<T> level, int slot, Bucket<T> bucket) {
      bucket.forEach(timer -> checkCoarseKey(level, slot, timer));
    }

    private void checkCoarseKey(Level<T> level, int slot, WheelTimer<T> timer) {
      long levelBlock = level.minKey >>> level.shift;
      long block = levelBlock + ((slot - level.slotOf(level.minKey)) & level.slotMask);
      long blockStart = block << level.shift;
      long key = wheel.keyOf(timer);
      check(key + 1 == blockStart - level.passOffset(),
          "coarse key " + Long.toUnsignedString(key) + " in slot " + slot + " of level "
              + level.index + ", which is passed at "
              + Long.toUnsignedString(blockStart - level.passOffset()));
      check(Long.compareUnsigned(blockStart, level.maxKey) <= 0,
          "coarse slot beyond level " + level.index);
      check(Long.compareUnsigned(key, wheel.minAllowedKey) >= 0, "coarse timer is due");
      noteKey(key);
    }

    private int checkOverflow() {
      int size = checkBucket(wheel.overflow, "overflow bucket");
      wheel.overflow.forEach(timer -> {
        long key = wheel.keyOf(timer);
        check(Long.compareUnsigned(key, levels[top].maxKey) > 0,
            "overflow key " + Long.toUnsignedString(key) + " is within the top level");
        check(Long.compareUnsigned(wheel.overflowKeyLowerBound, key) <= 0,
            "overflow bound above key " + Long.toUnsignedString(key));
        noteKey(key);
      });
      return size;
    }

    /**
     * Checks the sorted bucket: none of the wheel's other buckets, in no slot, not handed out, its
     * timers in the order of their keys, every key in level 0's part.
     */
    private int checkSorted() {
      Bucket<T> sorted = wheel.sorted;
      if (sorted == null) {
        return 0;
      }
      check(sorted != wheel.due && sorted != wheel.firing && sorted != wheel.overflow,
          "the sorted bucket is " + wheel.nameOf(sorted));
      check(sorted.level == null, "the sorted bucket is in a slot");
      check(!sorted.handingOut, "the sorted bucket is still handed out");
      int size = checkBucket(sorted, "sorted bucket");
      long high = top > 0 ? levels[1].minKey - 1 : levels[0].maxKey;
      long[] last = {wheel.minAllowedKey};
      sorted.forEach(timer -> {
        long key = wheel.keyOf(timer);
        check(Long.compareUnsigned(key, last[0]) >= 0 && Long.compareUnsigned(key, high) <= 0,
            "sorted key " + Long.toUnsignedString(key) + " after "
                + Long.toUnsignedString(last[0]) + " or beyond level 0's part");
        last[0] = key;
        noteKey(key);
      });
      return size;
    }

    /**
     * Checks the bucket that filing by key caches: a bucket by key in its slot, holding timers,
     * and every key of its block, the keys that arming files there without a lookup, belongs to
     * that slot of that level.
     */
    private void checkFiled() {
      Bucket<T> filed = wheel.filedTo;
      if (filed == null) {
        return;
      }
      Level<T> level = filed.level;
      check(level != null && !filed.coarse, "the cached filing bucket is " + filed);
      check(level.bucketAt(filed.index, false) == filed && filed.size > 0,
          "the cached filing bucket " + filed + " has left its slot");
      check(wheel.filedShift == level.shift,
          "the cached filing shift " + wheel.filedShift + " is not level " + level.index + "'s");
      long firstKey = wheel.filedBlock << level.shift;
      long lastKey = firstKey + ((1L << level.shift) - 1);
      check(firstKey >>> level.shift == wheel.filedBlock && level.slotOf(firstKey) == filed.index,
          "the cached filing block " + wheel.filedBlock + " is not slot " + filed.index);
      long below = level.index == top ? level.maxKey : levels[level.index + 1].minKey - 1;
      check(Long.compareUnsigned(firstKey, level.minKey) >= 0
              && Long.compareUnsigned(lastKey, below) <= 0,
          "the keys of the cached filing block " + wheel.filedBlock + " are not all in level "
              + level.index + "'s part");
    }

    private void checkMinimum() {
      if (!wheel.minimumKnown) {
        return;
      }
      if (wheel.minimum == null) {
        check(!anyKeyed, "cached minimum says empty, but timers are stored by key");
        return;
      }
      check(wheel.minimum.slot >= 0
              && (wheel.minimum.isListed() || wheel.minimum.bucket() != wheel.due),
          "cached minimum is not stored by key");
      check(wheel.minimumKey == wheel.keyOf(wheel.minimum), "cached minimum key "
          + Long.toUnsignedString(wheel.minimumKey) + " is not its timer's");
      check(wheel.minimumKey == smallestKey, "cached minimum has key "
          + Long.toUnsignedString(wheel.minimumKey) + ", smallest is "
          + Long.toUnsignedString(smallestKey));
    }

    private void noteKey(long key) {
      anyKeyed = true;
      if (Long.compareUnsigned(key, smallestKey) < 0) {
        smallestKey = key;
      }
    }

    private static boolean bit(long[] occupied, int slot) {
      return occupied != null && (occupied[slot >>> 6] & (1L << slot)) != 0;
    }

    /**
     * Checks a level's table of one kind: a power of two long, at most one position per slot, a
     * bitmap with it, every entry at its slot's position, and one entry per occupied slot, so that
     * no two occupied slots share a position.
     */
    private void checkTable(Level<T> level, Object[] table, long[] occupied, String kind) {
      String name = kind + "table of level " + level.index;
      if (table == null) {
        check(occupied == null, name + " is missing but its bitmap is there");
        return;
      }
      check(occupied != null, name + " has no bitmap");
      check(Integer.bitCount(table.length) == 1 && table.length <= level.slotMask + 1,
          name + " has length " + table.length);
      int entries = 0;
      for (int at = 0; at < table.length; at++) {
        Object entry = table[at];
        if (entry != null) {
          int slot = entry instanceof Bucket<?> bucket
              ? bucket.index : ((WheelTimer<?>) entry).levelSlot();
          check(level.positionIn(slot, table.length) == at,
              name + " holds " + entry + " at " + at);
          check(bit(occupied, slot), name + " holds " + entry + " of a slot whose bit is clear");
          entries++;
        }
      }
      int bitsSet = 0;
      for (long word : occupied) {
        bitsSet += Long.bitCount(word);
      }
      check(entries == bitsSet, name + " holds " + entries + " entries for " + bitsSet + " slots");
    }

    private static void check(boolean condition, String message) {
      if (!condition) {
        throw new AssertionError("timing wheel invariant broken: " + message);
      }
    }
  }
}
