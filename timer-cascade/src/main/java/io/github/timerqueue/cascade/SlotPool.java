package io.github.timerqueue.cascade;

import java.util.Arrays;

/**
 * The slot arrays of a queue's buckets: how they grow and shrink, and the arrays that emptied
 * buckets gave back, kept for the buckets that fill next.
 *
 * <p>Capacities are powers of two. A full array is replaced by one twice as large; an array that
 * cancelling leaves less than a quarter full, above {@value #KEPT_CAPACITY} slots, by one half as
 * large (so an array's capacity stays within four times its timers, amortized {@code O(1)} per
 * cancel). A bucket that empties gives its array back. Replaced and given-back arrays wait here,
 * cleared, for the next bucket that needs that capacity, if when they are given back they add up
 * to no more slots than the queue has timers plus {@value #SPARE_SLOTS} (for the arrays buckets
 * grew out of: an eighth of the timers plus {@value #SPARE_SLOTS}, or a growing queue would keep
 * their whole trail); beyond that they are left to the garbage collector. In a wheel that turns at
 * a steady load the arrays thus pass from the buckets the base has reached to those that fill up,
 * and nothing is allocated.
 */
final class SlotPool {
  /** The array of a bucket that has never held a timer. */
  static final CascadeTimer<?>[] NONE = new CascadeTimer<?>[0];
  /** The capacity of a bucket's first array. */
  static final int FIRST_CAPACITY = 4;
  /** Arrays up to this capacity are never shrunk. */
  static final int KEPT_CAPACITY = 1024;
  /** Slots the pool may hold on top of one per timer of the queue. */
  static final int SPARE_SLOTS = 4096;

  /** {@code free[c]} holds {@code count[c]} arrays of capacity {@code 2^c}. */
  private final CascadeTimer<?>[][][] free = new CascadeTimer<?>[Integer.SIZE][][];
  private final int[] count = new int[Integer.SIZE];
  /** The queue whose number of timers bounds what the pool holds. */
  private final CascadeTimerQueue<?> queue;
  /** The number of slots in the arrays held. */
  private long heldSlots;

  SlotPool(CascadeTimerQueue<?> queue) {
    this.queue = queue;
  }

  /**
   * Returns an array at least twice as large as a full one, holding its timers in the same slots.
   */
  CascadeTimer<?>[] grown(CascadeTimer<?>[] slots) {
    CascadeTimer<?>[] grown = take(Math.max(FIRST_CAPACITY, slots.length << 1), false);
    System.arraycopy(slots, 0, grown, 0, slots.length);
    // A queue that grows leaves a trail of smaller arrays, as large together as its buckets: the
    // pool keeps them only up to an eighth of a slot per timer (plus the spare).
    if (heldSlots + slots.length <= (queue.size() >>> 3) + SPARE_SLOTS) {
      Arrays.fill(slots, null);
      give(slots);
    }
    return grown;
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
   * Takes back the array of a bucket that has just been emptied (all its slots {@code null}), and
   * returns the array the bucket keeps: none. A bucket a cascade has emptied is not filled again
   * before the base has gone round its level, while others fill now.
   */
  CascadeTimer<?>[] afterEmptying(CascadeTimer<?>[] slots) {
    give(slots);
    return NONE;
  }

  /** The number of slots in the arrays the pool holds. */
  long heldSlots() {
    return heldSlots;
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
    return new CascadeTimer<?>[capacity];
  }

  /** Keeps a cleared array, unless the pool would then hold more slots than it may. */
  private void give(CascadeTimer<?>[] slots) {
    int capacity = slots.length;
    if (capacity == 0 || heldSlots + capacity > (long) queue.size() + SPARE_SLOTS) {
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
