package io.github.timerqueue.cascade;

import java.util.Arrays;

/**
 * The slot arrays of a queue's buckets: how they grow and shrink, and the arrays that emptied
 * buckets gave back, kept for the buckets that fill next.
 *
 * <p>Capacities are powers of two. A full array is replaced by one twice as large, or large
 * enough for the run of timers a sweep copies in; an array whose slots in use (timers and holes up
 * to its bucket's end) cancelling leaves under a quarter of it, above {@value #KEPT_CAPACITY}
 * slots, by one half as large (so an array's capacity stays within four times its slots in use,
 * amortized {@code O(1)} per cancel). A bucket that empties gives its array back, and so does a
 * bucket that outgrows or shrinks out of one, except for the buckets filled again soon: a level-0
 * bucket keeps a small array, and a due bucket, which fills again at the next advance, any array
 * it would not shrink. (A level-0 bucket whose timers an empty due bucket takes with their array
 * gets the due bucket's array in exchange, whatever its size; the pool sees neither.)
 * Arrays given back wait here, cleared, for the next bucket that needs that capacity or less, as
 * long as all the arrays the pool has handed out and holds, in buckets or here, add up to no more
 * than {@value #OWNED_SLOTS_PER_TIMER} slots per timer of the queue plus {@value #SPARE_SLOTS};
 * beyond that, an array given back is left to the garbage collector. In a wheel that turns at a
 * steady load the arrays thus pass from the buckets the base has reached to those that fill up,
 * each growing bucket finding its next size among the arrays the last one outgrew, and nothing is
 * allocated.
 *
 * <p>The far bucket's outgrown arrays are the exception: they are never kept. The far bucket grows
 * while a queue fills up ahead of its levels, and only a sweep empties it; keeping its trail of
 * smaller arrays would cost a filled queue about one slot per timer for arrays nothing may need.
 */
final class SlotPool {
  /** The array of a bucket that has never held a timer. */
  static final CascadeTimer<?>[] NONE = new CascadeTimer<?>[0];
  /** The capacity of a bucket's first array. */
  static final int FIRST_CAPACITY = 4;
  /** Arrays up to this capacity are never shrunk, and a due bucket keeps them when emptied. */
  static final int KEPT_CAPACITY = 1024;
  /**
   * A level-0 bucket keeps an array up to this capacity when the base reaches it and its timers
   * are copied to the due bucket (not exchanged, see CascadeTimerQueue). Its array is not worth a
   * trip through the pool: the next sweep of level 1 fills it again with a handful of timers. A
   * bucket of a higher level that a cascade has emptied is not filled again before the base has
   * gone round its level, while others fill now, so its array serves better elsewhere.
   */
  static final int SMALL_CAPACITY = 16;
  /** Slots the arrays may hold on top of {@link #OWNED_SLOTS_PER_TIMER} per timer of the queue. */
  static final int SPARE_SLOTS = 4096;
  /**
   * Slots per timer that the arrays in buckets and in the pool may hold together before an array
   * given back is dropped: a growing bucket's array has up to twice the slots of its timers, and a
   * turning wheel needs the sizes its buckets grow through at hand. With two, a wheel turning a
   * million timers through base-256 levels still allocates several bytes per fired timer. With
   * three, a million timers re-armed with 16 TTLs allocate about 63 bytes per advance for their
   * first million advances, while a dozen large buckets find their sizes, and nothing after; four
   * would shorten that, at about 4 more bytes per timer for as long as the flow runs.
   */
  static final int OWNED_SLOTS_PER_TIMER = 3;

  /** {@code free[c]} holds {@code count[c]} arrays of capacity {@code 2^c}. */
  private final CascadeTimer<?>[][][] free = new CascadeTimer<?>[Integer.SIZE][][];
  private final int[] count = new int[Integer.SIZE];
  /** The queue whose number of timers bounds what the pool holds. */
  private final CascadeTimerQueue<?> queue;
  /**
   * The most slots a bucket's timers may occupy, the slots a position can name: a power of two, at
   * least the most timers the queue holds, so that a compaction always makes room.
   */
  final int maxSlots;
  /**
   * The slots a compacting bucket has just filled, {@link Bucket#COMPACTED_CHUNK} at a time, whose
   * timers' positions it writes next: one array for all the queue's buckets, as one compacts at a
   * time.
   */
  final int[] filledHoles = new int[Bucket.COMPACTED_CHUNK];
  /** The number of slots in the arrays held. */
  private long heldSlots;
  /** The number of slots in the arrays handed out and held: in buckets or here. */
  private long ownedSlots;

  SlotPool(CascadeTimerQueue<?> queue, int maxSlots) {
    this.queue = queue;
    this.maxSlots = maxSlots;
  }

  /**
   * Gives {@code bucket} an array at least twice as large as its own and of at least {@code
   * needed} slots, holding its timers in the same slots; gives its old array back if {@code
   * keepOutgrown}, else drops it. The bucket's field is written here, not by the caller: the
   * store's G1 write barrier then stays out of the compiled code of every add, which C2 inlines
   * into arm along with the bucket's makeRoom, and which would otherwise outgrow the size up to
   * which C2 inlines arm into its callers.
   */
  void grow(SlotBucket bucket, int needed, boolean keepOutgrown) {
    CascadeTimer<?>[] slots = bucket.slots;
    int capacity = Math.max(FIRST_CAPACITY, slots.length << 1);
    if (capacity < needed) {
      capacity = Integer.highestOneBit(needed - 1) << 1;
    }
    CascadeTimer<?>[] grown = take(capacity, false);
    System.arraycopy(slots, 0, grown, 0, slots.length);
    if (keepOutgrown) {
      Arrays.fill(slots, null);
      give(slots);
    } else {
      ownedSlots -= slots.length;
    }
    bucket.slots = grown;
  }

  /** Whether an array holding {@code end} timers in its first slots should be halved. */
  static boolean shouldShrink(CascadeTimer<?>[] slots, int end) {
    return slots.length > KEPT_CAPACITY && end < slots.length >>> 2;
  }

  /** Returns an array half as large, holding the timers of the first {@code end} slots. */
  CascadeTimer<?>[] halved(CascadeTimer<?>[] slots, int end) {
    CascadeTimer<?>[] halved = take(slots.length >>> 1, true);
    System.arraycopy(slots, 0, halved, 0, end);
    Arrays.fill(slots, 0, end, null);
    give(slots);
    return halved;
  }

  /**
   * Takes back the array of a bucket that has just been emptied (all its slots {@code null}) unless
   * it has at most {@code kept} slots, and returns the array the bucket keeps: its own, or none.
   */
  CascadeTimer<?>[] afterEmptying(CascadeTimer<?>[] slots, int kept) {
    if (slots.length <= kept) {
      return slots;
    }
    give(slots);
    return NONE;
  }

  /** The number of slots in the arrays the pool holds. */
  long heldSlots() {
    return heldSlots;
  }

  /** The number of slots in the arrays the pool has handed out and holds. */
  long ownedSlots() {
    return ownedSlots;
  }

  /**
   * Returns a cleared array of at least {@code capacity} slots: the smallest one held that is
   * large enough, or with {@code exact} one of that very capacity, else a new one.
   */
  private CascadeTimer<?>[] take(int capacity, boolean exact) {
    int wanted = Integer.numberOfTrailingZeros(capacity);
    int last = exact ? wanted : count.length - 1;
    for (int sizeClass = wanted; sizeClass <= last; sizeClass++) {
      int held = count[sizeClass];
      if (held > 0) {
        CascadeTimer<?>[][] arrays = free[sizeClass];
        CascadeTimer<?>[] taken = arrays[--held];
        arrays[held] = null;
        count[sizeClass] = held;
        heldSlots -= taken.length;
        return taken;
      }
    }
    ownedSlots += capacity;
    return new CascadeTimer<?>[capacity];
  }

  /** Keeps a cleared array given back, unless the arrays owned are over their bound. */
  private void give(CascadeTimer<?>[] slots) {
    int capacity = slots.length;
    if (capacity == 0) {
      return;
    }
    if (ownedSlots > OWNED_SLOTS_PER_TIMER * (long) queue.size() + SPARE_SLOTS) {
      ownedSlots -= capacity;
      return;
    }
    int sizeClass = Integer.numberOfTrailingZeros(capacity);
    CascadeTimer<?>[][] arrays = free[sizeClass];
    int held = count[sizeClass];
    if (arrays == null || held == arrays.length) {
      arrays = Arrays.copyOf(arrays == null ? new CascadeTimer<?>[0][] : arrays,
          Math.max(4, held << 1));
      free[sizeClass] = arrays;
    }
    arrays[held] = slots;
    count[sizeClass] = held + 1;
    heldSlots += capacity;
  }
}
