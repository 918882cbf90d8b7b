package io.github.timerqueue.wheel;

/**
 * One level of a {@link TimingWheel}: its geometry (which keys each of its slots covers), its
 * current range of keys, and its buckets, two per slot (timers stored by key, and coarse timers of
 * {@code scheduleWithin}), with an occupancy bitmap for each kind.
 *
 * <p>Level {@code i} has {@code 2^bits} slots, and each covers {@code 2^shift} consecutive keys,
 * where {@code shift} is the sum of the bits of the levels below; the level's range, {@code
 * [minKey, maxKey]}, starts at a multiple of {@code 2^shift} and spans {@code 2^(shift + bits)}
 * keys (saturated at 2^64 - 1), so the key {@code k} of the range is in slot {@code (k >>> shift)
 * & (2^bits - 1)}. A slot has a bucket only while it holds timers, taken from the wheel's spare
 * buckets when it gets its first and given back when it empties.
 *
 * <p>The tables of buckets and the bitmaps grow with use, so that a wheel with few timers does not
 * pay for levels and slots it does not use: a kind's bitmap is allocated with its first timer, and
 * its table covers only the slots from the one holding {@link #minKey} up to the farthest one used
 * so far, a window of a power of two slots that doubles when a timer lands beyond it. Slot {@code
 * s} is at {@code s & (window - 1)} in the table: as the range moves, the slots it passes are
 * emptied, so the occupied slots always lie within the window ahead of its start, where no two
 * share a position. A level spread evenly over its range ends with the whole table, as before.
 */
final class Level<T> {
  /**
   * The largest unsigned key. As the start of a level, it means that the level lies beyond the end
   * of the key space (the clock is within one of its slots of 2^64), so no key is left for it.
   */
  static final long END = -1L;

  final TimingWheel<T> owner;
  /** Its number: 0 for the most precise level. */
  final int index;
  /** log2 of its number of slots. */
  final int bits;
  /** Each slot covers {@code 2^shift} keys. */
  final int shift;
  /** Slot count minus one. */
  final int slotMask;
  /** The number of keys its slots cover in all, minus one. */
  private final long spanMinusOne;
  /**
   * {@code 2^shift(1) + ... + 2^shift(index - 1)}: slot {@code B} of the level, covering keys from
   * {@code B * 2^shift}, is passed when the minimum allowed key reaches {@code B * 2^shift -
   * passOffset}, which is when a coarse slot fires. 0 for levels 0 and 1.
   */
  final long passOffset;
  /** The smallest key it can hold (a multiple of {@code 2^shift}), or {@link #END}. */
  long minKey;
  /** The largest key it can hold, saturated at {@link #END}. */
  long maxKey;
  /** Timers in its buckets by key. */
  int keyed;
  /** Timers in its coarse buckets. */
  int coarse;
  /**
   * Bucket by key of each slot of the window, slot {@code s} at {@code s & (length - 1)}; {@code
   * null} until the level's first timer by key.
   */
  Bucket<T>[] byKey;
  /** Coarse bucket of each slot of the window, as {@link #byKey}. */
  Bucket<T>[] coarseByKey;
  /**
   * One bit per slot, set if and only if its bucket by key holds a timer; {@code null} until the
   * level's first timer by key.
   */
  long[] keyedBits;
  /** One bit per slot, set if and only if its coarse bucket holds a timer; as {@link #keyedBits}. */
  long[] coarseBits;

  /** Creates level {@code index} of a geometry, its range starting at {@code minKey}. */
  Level(TimingWheel<T> owner, LevelBits levelBits, int index, long minKey) {
    this.owner = owner;
    this.index = index;
    this.bits = levelBits.bits(index);
    this.shift = levelBits.shift(index);
    this.slotMask = (1 << bits) - 1;
    this.spanMinusOne = (1L << (shift + bits)) - 1;
    long offset = 0;
    for (int level = 1; level < index; level++) {
      offset += 1L << levelBits.shift(level);
    }
    this.passOffset = offset;
    moveTo(minKey);
  }

  // ---------------------------------------------------------------- geometry

  /** The slot that holds a key of the range. */
  int slotOf(long key) {
    return (int) (key >>> shift) & slotMask;
  }

  /**
   * The start of this level's range given the start of the level below: the first of its slots
   * after the one holding the lower level's start, or {@link #END} if that lies beyond 2^64 - 1.
   */
  long startAbove(long lowerMin) {
    return startAbove(lowerMin, shift);
  }

  /** {@link #startAbove(long)} for a level whose slots cover {@code 2^shift} keys. */
  static long startAbove(long lowerMin, int shift) {
    long next = ((lowerMin >>> shift) + 1) << shift;
    return next == 0 ? END : next;
  }

  /** The end of the range that starts at {@code min}, saturated at {@link #END}. */
  long endFrom(long min) {
    long max = min + spanMinusOne;
    return Long.compareUnsigned(max, min) < 0 ? END : max;
  }

  /** Moves the range to start at {@code min}. */
  void moveTo(long min) {
    minKey = min;
    maxKey = endFrom(min);
  }

  /**
   * Returns the smallest key {@code k >= atLeast} at which the minimum allowed key passes a slot
   * of this level that lies within its current range, or 0 if there is none.
   */
  long firstPassAtOrAfter(long atLeast) {
    long target = atLeast + passOffset;
    if (minKey == END || Long.compareUnsigned(target, atLeast) < 0) {
      return 0;
    }
    long block = (target >>> shift) + ((target & ((1L << shift) - 1)) == 0 ? 0 : 1);
    if (Long.compareUnsigned(block, END >>> shift) > 0) {
      return 0;
    }
    long blockStart = block << shift;
    if (Long.compareUnsigned(blockStart, maxKey) > 0) {
      return 0;
    }
    return blockStart - passOffset;
  }

  // ---------------------------------------------------------------- buckets

  /** Whether the level holds no timer. */
  boolean isEmpty() {
    return keyed + coarse == 0;
  }

  /** The bucket by key of a slot of the range, taken from the spares if it has none. */
  Bucket<T> keyedBucket(int slot) {
    return bucketFor(slot, false);
  }

  /** The coarse bucket of a slot of the range, taken from the spares if it has none. */
  Bucket<T> coarseBucket(int slot) {
    return bucketFor(slot, true);
  }

  private Bucket<T> bucketFor(int slot, boolean coarseKind) {
    Bucket<T>[] table = coarseKind ? coarseByKey : byKey;
    if (table == null || windowOffset(slot) >= table.length) {
      table = widen(slot, coarseKind);
    }
    int at = slot & (table.length - 1);
    Bucket<T> bucket = table[at];
    return bucket != null ? bucket : (table[at] = owner.takeBucket(this, slot, coarseKind));
  }

  /** Widens the table of a kind to reach {@code slot}, making its bitmap if it has none. */
  private Bucket<T>[] widen(int slot, boolean coarseKind) {
    if (coarseKind) {
      if (coarseBits == null) {
        coarseBits = newBits();
      }
      return coarseByKey = widened(coarseByKey, slot);
    }
    if (keyedBits == null) {
      keyedBits = newBits();
    }
    return byKey = widened(byKey, slot);
  }

  /** The bucket of a kind at a slot whose bit is set. */
  Bucket<T> occupiedBucket(int slot, boolean coarseKind) {
    Bucket<T>[] table = coarseKind ? coarseByKey : byKey;
    return table[slot & (table.length - 1)];
  }

  /** The bucket of a kind at a slot, or {@code null} if it has none; for tests. */
  Bucket<T> bucketAt(int slot, boolean coarseKind) {
    Bucket<T>[] table = coarseKind ? coarseByKey : byKey;
    Bucket<T> bucket = table == null ? null : table[slot & (table.length - 1)];
    return bucket != null && bucket.index == slot ? bucket : null;
  }

  /** How many slots a slot of the range lies after the one holding {@link #minKey}. */
  int windowOffset(int slot) {
    return (slot - slotOf(minKey)) & slotMask;
  }

  /** Called by a bucket of this level when a timer joined it. */
  void joined(Bucket<T> bucket) {
    if (bucket.coarse) {
      coarse++;
    } else {
      keyed++;
    }
    if (bucket.size == 1) {
      bitsOf(bucket)[bucket.index >>> 6] |= 1L << bucket.index;
    }
  }

  /** Called by a bucket of this level when a timer left it, after it let the timer go. */
  void left(Bucket<T> bucket) {
    if (bucket.coarse) {
      coarse--;
    } else {
      keyed--;
    }
    if (bucket.size == 0) {
      release(bucket);
    }
  }

  /** Called by a bucket of this level, now empty, that let all of its {@code timers} go at once. */
  void emptied(Bucket<T> bucket, int timers) {
    if (bucket.coarse) {
      coarse -= timers;
    } else {
      keyed -= timers;
    }
    release(bucket);
  }

  /** Takes an empty bucket from its slot and gives it to the spares. */
  private void release(Bucket<T> bucket) {
    unlink(bucket);
    owner.giveBucket(bucket);
  }

  /** Takes a bucket from its slot, clearing the slot's bit. */
  private void unlink(Bucket<T> bucket) {
    int slot = bucket.index;
    if (bucket.coarse) {
      coarseBits[slot >>> 6] &= ~(1L << slot);
      coarseByKey[slot & (coarseByKey.length - 1)] = null;
    } else {
      keyedBits[slot >>> 6] &= ~(1L << slot);
      byKey[slot & (byKey.length - 1)] = null;
    }
  }

  /**
   * Empties every bucket of the slots in {@code [from, to)} that holds a timer, found through the
   * bitmaps, slot by slot, the bucket by key before the coarse one, by handing it to the owner's
   * {@link TimingWheel#pass}; returns how many slots it visited.
   */
  int takeSlots(int from, int to) {
    int visited = 0;
    for (int slot = nextOccupiedSlot(from, to); slot >= 0; slot = nextOccupiedSlot(slot + 1, to)) {
      visited++;
      if (isSet(keyedBits, slot)) {
        owner.pass(occupiedBucket(slot, false));
      }
      if (isSet(coarseBits, slot)) {
        owner.pass(occupiedBucket(slot, true));
      }
    }
    return visited;
  }

  /**
   * Takes a bucket that holds timers from its slot, with its timers, which no longer count in the
   * level; the caller makes it one of the wheel's own buckets.
   */
  void detach(Bucket<T> bucket) {
    if (bucket.coarse) {
      coarse -= bucket.size;
    } else {
      keyed -= bucket.size;
    }
    unlink(bucket);
  }

  /** Forgets every timer, which is then not pending. */
  void clear() {
    clear(byKey, keyedBits);
    clear(coarseByKey, coarseBits);
    keyed = 0;
    coarse = 0;
  }

  private static <T> void clear(Bucket<T>[] table, long[] occupied) {
    forEachOccupied(table, occupied, Bucket::clear);
  }

  /** Hands each bucket of a kind that holds a timer to {@code action}. */
  private static <T> void forEachOccupied(
      Bucket<T>[] table, long[] occupied, java.util.function.Consumer<Bucket<T>> action) {
    if (occupied == null) {
      return;
    }
    for (int word = 0; word < occupied.length; word++) {
      for (long set = occupied[word]; set != 0; set &= set - 1) {
        action.accept(table[((word << 6) + Long.numberOfTrailingZeros(set)) & (table.length - 1)]);
      }
    }
  }

  /** Hands every timer to {@code action}, changing nothing. */
  void forEach(java.util.function.Consumer<? super WheelTimer<T>> action) {
    forEach(byKey, keyedBits, action);
    forEach(coarseByKey, coarseBits, action);
  }

  private static <T> void forEach(
      Bucket<T>[] table, long[] occupied, java.util.function.Consumer<? super WheelTimer<T>> action) {
    forEachOccupied(table, occupied, bucket -> bucket.forEach(action));
  }

  /** A bucket of the level that holds a timer, or {@code null} if it has none. */
  Bucket<T> anyOccupiedBucket() {
    if (keyed > 0) {
      return occupiedBucket(nextSetSlot(keyedBits, 0, slotMask + 1), false);
    }
    return coarse > 0 ? occupiedBucket(nextSetSlot(coarseBits, 0, slotMask + 1), true) : null;
  }

  // ---------------------------------------------------------------- bitmaps

  /**
   * The first occupied slot of one kind (by key or coarse), in the order of the level's range:
   * from the slot of its smallest key round to the slot before it. The kind must have a timer.
   */
  int firstOccupiedSlot(boolean coarseKind) {
    long[] occupied = coarseKind ? coarseBits : keyedBits;
    int slots = slotMask + 1;
    int start = slotOf(minKey);
    int slot = nextSetSlot(occupied, start, slots);
    return slot >= 0 ? slot : nextSetSlot(occupied, 0, start);
  }

  /** The first slot in {@code [from, to)} of a bitmap whose bit is set, or -1. */
  private static int nextSetSlot(long[] occupied, int from, int to) {
    if (from >= to) {
      return -1;
    }
    int word = from >>> 6;
    int lastWord = (to - 1) >>> 6;
    long set = occupied[word] & (-1L << from);
    while (set == 0) {
      if (++word > lastWord) {
        return -1;
      }
      set = occupied[word];
    }
    int slot = (word << 6) + Long.numberOfTrailingZeros(set);
    return slot < to ? slot : -1;
  }

  /** The first slot in {@code [from, to)} with a timer of either kind, or -1. */
  private int nextOccupiedSlot(int from, int to) {
    if (coarseBits == null || keyedBits == null) {
      return nextSetSlot(coarseBits == null ? keyedBits : coarseBits, from, to);
    }
    if (from >= to) {
      return -1;
    }
    int word = from >>> 6;
    int lastWord = (to - 1) >>> 6;
    long set = (keyedBits[word] | coarseBits[word]) & (-1L << from);
    while (set == 0) {
      if (++word > lastWord) {
        return -1;
      }
      set = keyedBits[word] | coarseBits[word];
    }
    int slot = (word << 6) + Long.numberOfTrailingZeros(set);
    return slot < to ? slot : -1;
  }

  /** Whether a slot's bit is set in a bitmap that may not be allocated yet. */
  private static boolean isSet(long[] occupied, int slot) {
    return occupied != null && (occupied[slot >>> 6] & (1L << slot)) != 0;
  }

  private long[] bitsOf(Bucket<T> bucket) {
    return bucket.coarse ? coarseBits : keyedBits;
  }

  private long[] newBits() {
    return new long[Math.max(1, (slotMask + 1) >>> 6)];
  }

  /**
   * A table whose window reaches {@code slot}: at least twice as long as {@code table} (or new),
   * holding its buckets at their positions in the longer window.
   */
  private Bucket<T>[] widened(Bucket<T>[] table, int slot) {
    int length = Math.max(table == null ? 1 : 2 * table.length,
        Integer.highestOneBit(windowOffset(slot)) << 1);
    @SuppressWarnings("unchecked")
    Bucket<T>[] wider = (Bucket<T>[]) new Bucket<?>[Math.min(length, slotMask + 1)];
    if (table != null) {
      for (Bucket<T> bucket : table) {
        if (bucket != null) {
          wider[bucket.index & (wider.length - 1)] = bucket;
        }
      }
    }
    return wider;
  }
}
