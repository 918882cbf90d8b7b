package io.github.timerqueue.wheel;

/**
 * One level of a {@link TimingWheel}: its geometry (which keys each of its slots covers), its
 * current range of keys, and its slots, two per position (timers stored by key, and coarse timers
 * of {@code scheduleWithin}), with an occupancy bitmap for each kind.
 *
 * <p>Level {@code i} has {@code 2^bits} slots, and each covers {@code 2^shift} consecutive keys,
 * where {@code shift} is the sum of the bits of the levels below; the level's range, {@code
 * [minKey, maxKey]}, starts at a multiple of {@code 2^shift} and spans {@code 2^(shift + bits)}
 * keys (saturated at 2^64 - 1), so the key {@code k} of the range is in slot {@code (k >>> shift)
 * & (2^bits - 1)}. A slot that holds at most {@value #LIST_MAX} timers holds them directly, in a
 * <em>short list</em>: its table entry is the first timer, each timer's {@link WheelTimer#link} is
 * the next one, the last one's is this level, and each one's {@link WheelTimer#slot} names the
 * slot and its kind ({@link WheelTimer#listedSlot}). When one more timer comes, the slot takes a
 * bucket from the wheel's spare buckets, the listed timers first in it, in order, and keeps it
 * until it empties. Most slots of a level with few timers hold one to four timers (a thousand
 * timers spread over a level of 1,024 slots), and a bucket with its first chunk costs 112 bytes,
 * more than three timers; a short list costs nothing beyond the timers. Its price is the
 * walk along it, at most three links, to append a timer or to find the one before a timer that
 * leaves, which reads the timers of the slot: with many timers a slot has a bucket, so that walk is
 * paid only where the few timers of a slot are likely cached.
 *
 * <p>The tables of slots and the bitmaps grow with use, so that a wheel with few timers does not
 * pay for levels and slots it does not use: a kind's bitmap is allocated with its first timer, and
 * its table has a power of two positions, at most one per slot, and doubles when a slot that takes
 * its first timer would share a position with an occupied one. Slot {@code s} is at the top bits
 * of {@code (s * SPREAD) & slotMask} ({@link #positionIn}): multiplying by an odd number permutes
 * the slots, so the whole table holds every slot at a position of its own, and the top bits of the
 * product depend on all the bits of the slot, so that slots a power of two apart (the TTLs of a
 * service are often round numbers) land apart in a short table. The table used to cover a window
 * from the slot holding {@link #minKey} to the farthest slot used, which with a few TTLs far ahead
 * is the whole level: 16 TTLs among a thousand timers left eight slots of level 1 occupied, 127 to
 * 1,023 slots ahead, and its table took 4 KB, 4.1 bytes per timer; now 8 positions. A table is
 * looked up as before, one load, and the entry found, which filing loads anyway, is checked to be
 * the slot's own. A level spread evenly over its range ends with the whole table, as before.
 */
final class Level<T> {
  /**
   * The largest unsigned key. As the start of a level, it means that the level lies beyond the end
   * of the key space (the clock is within one of its slots of 2^64), so no key is left for it.
   */
  static final long END = -1L;
  /** The most timers a slot holds in its short list before it takes a bucket. */
  static final int LIST_MAX = 4;
  /** The odd multiplier of {@link #positionIn}: 2^32 divided by the golden ratio, made odd. */
  private static final int SPREAD = 0x9E3779B1;

  final TimingWheel<T> owner;
  /** Its number: 0 for the most precise level. */
  final int index;
  /** log2 of its number of slots. */
  final int bits;
  /** Each slot covers {@code 2^shift} keys. */
  final int shift;
  /** Slot count minus one. */
  final int slotMask;
  /** The smallest key it can hold (a multiple of {@code 2^shift}), or {@link #END}. */
  long minKey;
  /** The largest key it can hold, saturated at {@link #END}. */
  long maxKey;
  /** Timers in its slots by key. */
  int keyed;
  /** Timers in its coarse slots. */
  int coarse;
  /**
   * What each occupied slot holds by key, slot {@code s} at {@link #positionIn positionIn(s,
   * length)}: the first timer of its short list (a {@link WheelTimer}) or its {@link Bucket}; no
   * two occupied slots share a position, and a position that no occupied slot has is {@code null}.
   * The table is {@code null} until the level's first timer by key.
   */
  Object[] byKey;
  /** What each occupied slot holds in its coarse slot, as {@link #byKey}. */
  Object[] coarseByKey;
  /**
   * One bit per slot, set if and only if the slot holds a timer by key; {@code null} until the
   * level's first timer by key.
   */
  long[] keyedBits;
  /** One bit per slot, set if and only if its coarse slot holds a timer; as {@link #keyedBits}. */
  long[] coarseBits;

  /** Creates level {@code index} of a geometry, its range starting at {@code minKey}. */
  Level(TimingWheel<T> owner, LevelBits levelBits, int index, long minKey) {
    this.owner = owner;
    this.index = index;
    this.bits = levelBits.bits(index);
    this.shift = levelBits.shift(index);
    this.slotMask = (1 << bits) - 1;
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
    // The span, 2^(shift + bits) keys, is below 2^63 (LevelBits.MAX_NUM_BITS); computed rather than
    // kept, since a level of a wheel with few timers is a fixed part of each timer's bytes.
    long max = min + ((1L << (shift + bits)) - 1);
    return Long.compareUnsigned(max, min) < 0 ? END : max;
  }

  /** Moves the range to start at {@code min}. */
  void moveTo(long min) {
    minKey = min;
    maxKey = endFrom(min);
  }

  /**
   * {@code 2^shift(1) + ... + 2^shift(index - 1)}: slot {@code B} of the level, covering keys from
   * {@code B * 2^shift}, is passed when the minimum allowed key reaches {@code B * 2^shift -
   * passOffset()}, which is when a coarse slot fires. 0 for levels 0 and 1. Worked out when asked,
   * only by the coarse slots of {@code scheduleWithin}, rather than kept: a field would add 8 bytes
   * to each level, a fixed part of each timer's bytes in a wheel with few timers.
   */
  long passOffset() {
    long offset = 0;
    for (int level = 1; level < index; level++) {
      offset += 1L << owner.levels[level].shift;
    }
    return offset;
  }

  /**
   * Returns the smallest key {@code k >= atLeast} at which the minimum allowed key passes a slot
   * of this level that lies within its current range, or 0 if there is none; {@code passOffset} is
   * this level's {@link #passOffset()}, which the caller also needs for the slot.
   */
  long firstPassAtOrAfter(long atLeast, long passOffset) {
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

  /**
   * The bucket of a slot of the range, by key or coarse, for a timer that is in no bucket, or
   * for a run of timers moved down by an advance ({@link Bucket#appendRun}) if {@code listable} is
   * {@code null}: a slot that holds a short list or nothing first takes a bucket from the spares
   * (the listed timers first in it), unless it holds fewer than {@value #LIST_MAX} timers, in
   * which case {@code listable} joins its short list and the result is {@code null}. The caller
   * appends to the bucket, so that filing one timer compiles one append.
   */
  @SuppressWarnings("unchecked")
  Bucket<T> bucketFor(int slot, boolean coarseKind, WheelTimer<T> listable) {
    Object[] table = coarseKind ? coarseByKey : byKey;
    if (table != null
        && table[positionIn(slot, table.length)] instanceof Bucket<?> bucket
        && bucket.index == slot) {
      return (Bucket<T>) bucket;
    }
    // Out of line, so that this stays small enough for the JIT to inline it deep in a caller's
    // schedule: with many timers a slot has a bucket, and the lookup above is all arming runs.
    return bucketForSlotWithout(slot, coarseKind, listable);
  }

  /** {@link #bucketFor} for a slot that holds no bucket, or whose table needs widening. */
  private Bucket<T> bucketForSlotWithout(int slot, boolean coarseKind, WheelTimer<T> listable) {
    Object[] table = coarseKind ? coarseByKey : byKey;
    int at;
    if (table == null || !isFreeFor(table[at = positionIn(slot, table.length)], slot)) {
      table = widen(slot, coarseKind);
      at = positionIn(slot, table.length);
    }
    Bucket<T> bucket = bucketOf(table[at]);
    return bucket != null ? bucket : fileInShortList(listable, slot, coarseKind, table, at);
  }

  /**
   * Files a timer in a slot without a bucket, at {@code table[at]}: appends it to the slot's short
   * list and returns {@code null} if it is not {@code null} and the list has room; else gives the
   * slot a bucket, moves the listed timers into it in order, and returns it, for the timer to join.
   */
  private Bucket<T> fileInShortList(
      WheelTimer<T> timer, int slot, boolean coarseKind, Object[] table, int at) {
    WheelTimer<T> head = headOf(table[at]);
    WheelTimer<T> tail = head;
    int listed = 0;
    if (head != null) {
      listed = 1;
      for (WheelTimer<T> next; (next = tail.nextListed()) != null; tail = next) {
        listed++;
      }
    }
    if (timer != null && listed < LIST_MAX) {
      if (head == null) {
        table[at] = timer;
        bits(coarseKind)[slot >>> 6] |= 1L << slot;
      } else {
        tail.link = timer;
      }
      timer.link = this;
      timer.slot = WheelTimer.listedSlot(slot, coarseKind);
      count(coarseKind, 1);
      return null;
    }
    Bucket<T> bucket = owner.takeBucket(this, slot, coarseKind);
    table[at] = bucket;
    // The listed timers are counted already; joining the bucket counts them again.
    count(coarseKind, -listed);
    for (WheelTimer<T> listedTimer = head; listedTimer != null; ) {
      WheelTimer<T> next = listedTimer.nextListed();
      // Out of the list, its link leads straight to its owner's level (WheelTimer#link).
      listedTimer.link = this;
      bucket.append(listedTimer, owner.keyOf(listedTimer));
      listedTimer = next;
    }
    return bucket;
  }

  /**
   * Takes a timer of one of this level's short lists out of it, linking the timer before it (or
   * the table) to the one after; it is then not pending.
   */
  @SuppressWarnings("unchecked")
  void removeListed(WheelTimer<T> timer) {
    boolean coarseKind = timer.isListedCoarse();
    Object[] table = coarseKind ? coarseByKey : byKey;
    int at = positionIn(timer.levelSlot(), table.length);
    WheelTimer<T> next = timer.nextListed();
    if (table[at] == timer) {
      if (next != null) {
        table[at] = next;
      } else {
        unlink(timer.levelSlot(), coarseKind);
      }
    } else {
      WheelTimer<T> before = (WheelTimer<T>) table[at];
      while (before.link != timer) {
        before = before.nextListed();
      }
      before.link = timer.link;
    }
    count(coarseKind, -1);
    timer.link = this;
    timer.slot = WheelTimer.NOT_PENDING;
  }

  /**
   * Widens the table of a kind until {@code slot} has a position of its own, making its bitmap if
   * it has none.
   */
  private Object[] widen(int slot, boolean coarseKind) {
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

  /** What an occupied slot of a kind holds: the first timer of its short list or its bucket. */
  Object occupied(int slot, boolean coarseKind) {
    Object[] table = coarseKind ? coarseByKey : byKey;
    return table[positionIn(slot, table.length)];
  }

  /**
   * Where slot {@code slot} is in a table of {@code length} positions, a power of two no larger
   * than the level's slots: the top bits of {@code (slot * SPREAD) & slotMask}, all of it for the
   * whole table, where it is a permutation of the slots.
   */
  int positionIn(int slot, int length) {
    return ((slot * SPREAD) & slotMask) >>> (bits - Integer.numberOfTrailingZeros(length));
  }

  /** Whether a slot may have the position that holds {@code entry}: it is its own, or free. */
  private static boolean isFreeFor(Object entry, int slot) {
    return entry == null || slotOfEntry(entry) == slot;
  }

  /**
   * What a slot of a kind holds: the first timer of its short list, its bucket, or {@code null};
   * for tests.
   */
  Object entryAt(int slot, boolean coarseKind) {
    Object[] table = coarseKind ? coarseByKey : byKey;
    Object entry = table == null ? null : table[positionIn(slot, table.length)];
    return entry != null && slotOfEntry(entry) == slot ? entry : null;
  }

  /** The bucket of a slot, or {@code null} if it holds none (but a short list, or nothing). */
  Bucket<T> bucketAt(int slot, boolean coarseKind) {
    return bucketOf(entryAt(slot, coarseKind));
  }

  /** The bucket that a slot's entry is, or {@code null} if it is a short list or nothing. */
  @SuppressWarnings("unchecked")
  static <T> Bucket<T> bucketOf(Object entry) {
    return entry instanceof Bucket ? (Bucket<T>) entry : null;
  }

  /**
   * The first timer of the short list that a slot's entry is, or {@code null} if it is a bucket or
   * nothing.
   */
  @SuppressWarnings("unchecked")
  static <T> WheelTimer<T> headOf(Object entry) {
    return entry instanceof WheelTimer ? (WheelTimer<T>) entry : null;
  }

  /** The first timer of a slot's entry, which is not {@code null}. */
  static <T> WheelTimer<T> firstOf(Object entry) {
    WheelTimer<T> head = headOf(entry);
    return head != null ? head : Level.<T>bucketOf(entry).first();
  }

  /** The slot number of a slot's entry. */
  private static int slotOfEntry(Object entry) {
    return entry instanceof Bucket<?> bucket ? bucket.index : ((WheelTimer<?>) entry).levelSlot();
  }

  private void count(boolean coarseKind, int timers) {
    if (coarseKind) {
      coarse += timers;
    } else {
      keyed += timers;
    }
  }

  private long[] bits(boolean coarseKind) {
    return coarseKind ? coarseBits : keyedBits;
  }

  /** Called by a bucket of this level when {@code timers} joined it. */
  void joined(Bucket<T> bucket, int timers) {
    if (bucket.coarse) {
      coarse += timers;
    } else {
      keyed += timers;
    }
    if (bucket.size == timers) {
      bits(bucket.coarse)[bucket.index >>> 6] |= 1L << bucket.index;
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
    owner.forgetFiled(bucket);
    unlink(bucket.index, bucket.coarse);
  }

  /** Empties a slot of a kind, clearing its bit. */
  private void unlink(int slot, boolean coarseKind) {
    if (coarseKind) {
      coarseBits[slot >>> 6] &= ~(1L << slot);
      coarseByKey[positionIn(slot, coarseByKey.length)] = null;
    } else {
      keyedBits[slot >>> 6] &= ~(1L << slot);
      byKey[positionIn(slot, byKey.length)] = null;
    }
  }

  /**
   * Empties every slot in {@code [from, to)} that holds a timer, found through the bitmaps, slot by
   * slot, by key before coarse, handing a bucket to the owner's {@link TimingWheel#pass} and the
   * timers of a short list, taken out, in order, to its {@link TimingWheel#passListed}; returns how
   * many slots it visited.
   */
  int takeSlots(int from, int to) {
    int visited = 0;
    for (int slot = nextOccupiedSlot(from, to); slot >= 0; slot = nextOccupiedSlot(slot + 1, to)) {
      visited++;
      if (isSet(keyedBits, slot)) {
        pass(slot, false);
      }
      if (isSet(coarseBits, slot)) {
        pass(slot, true);
      }
    }
    return visited;
  }

  private void pass(int slot, boolean coarseKind) {
    WheelTimer<T> listed = headOf(occupied(slot, coarseKind));
    if (listed == null) {
      owner.pass(bucketOf(occupied(slot, coarseKind)));
      return;
    }
    unlink(slot, coarseKind);
    while (listed != null) {
      WheelTimer<T> next = listed.nextListed();
      count(coarseKind, -1);
      listed.link = this;
      listed.slot = WheelTimer.NOT_PENDING;
      owner.passListed(listed);
      listed = next;
    }
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
    forEachOccupied(byKey, keyedBits, this::clear);
    forEachOccupied(coarseByKey, coarseBits, this::clear);
    keyed = 0;
    coarse = 0;
  }

  private void clear(Object entry) {
    WheelTimer<T> listed = headOf(entry);
    if (listed == null) {
      bucketOf(entry).clear();
      return;
    }
    unlink(listed.levelSlot(), listed.isListedCoarse());
    while (listed != null) {
      WheelTimer<T> next = listed.nextListed();
      listed.link = this;
      listed.slot = WheelTimer.NOT_PENDING;
      listed = next;
    }
  }

  /** Hands the entry of each slot of a kind that holds a timer to {@code action}. */
  private void forEachOccupied(
      Object[] table, long[] occupied, java.util.function.Consumer<Object> action) {
    if (occupied == null) {
      return;
    }
    for (int word = 0; word < occupied.length; word++) {
      for (long set = occupied[word]; set != 0; set &= set - 1) {
        int slot = (word << 6) + Long.numberOfTrailingZeros(set);
        action.accept(table[positionIn(slot, table.length)]);
      }
    }
  }

  /** Hands every timer to {@code action}, changing nothing. */
  void forEach(java.util.function.Consumer<? super WheelTimer<T>> action) {
    java.util.function.Consumer<Object> each = entry -> {
      Bucket<T> bucket = bucketOf(entry);
      if (bucket != null) {
        bucket.forEach(action);
      }
      for (WheelTimer<T> listed = headOf(entry); listed != null; listed = listed.nextListed()) {
        action.accept(listed);
      }
    };
    forEachOccupied(byKey, keyedBits, each);
    forEachOccupied(coarseByKey, coarseBits, each);
  }

  /** What a slot that holds a timer holds (a short list or a bucket), or {@code null} if none. */
  Object anyOccupied() {
    if (keyed > 0) {
      return occupied(nextSetSlot(keyedBits, 0, slotMask + 1), false);
    }
    return coarse > 0 ? occupied(nextSetSlot(coarseBits, 0, slotMask + 1), true) : null;
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

  private long[] newBits() {
    return new long[Math.max(1, (slotMask + 1) >>> 6)];
  }

  /**
   * A table at least twice as long as {@code table} (or new) that holds its entries, and a free
   * position for {@code slot}, each at its own position: the shortest such, which the whole table
   * of the level always is.
   */
  private Object[] widened(Object[] table, int slot) {
    for (int length = table == null ? 1 : 2 * table.length; ; length *= 2) {
      Object[] wider = holdingApart(table, slot, length);
      if (wider != null) {
        return wider;
      }
    }
  }

  /**
   * A table of {@code length} positions with the entries of {@code table} at their positions and
   * that of {@code slot} free, or {@code null} if two of them share one.
   */
  private Object[] holdingApart(Object[] table, int slot, int length) {
    Object[] wider = new Object[length];
    if (table != null) {
      for (Object entry : table) {
        if (entry != null) {
          int at = positionIn(slotOfEntry(entry), length);
          if (wider[at] != null) {
            return null;
          }
          wider[at] = entry;
        }
      }
    }
    return wider[positionIn(slot, length)] == null ? wider : null;
  }
}
