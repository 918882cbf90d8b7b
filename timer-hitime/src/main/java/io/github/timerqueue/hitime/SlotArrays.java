package io.github.timerqueue.hitime;

import java.util.Arrays;

/**
 * The slot arrays that a queue's buckets have let go of, kept for reuse by size: every array is a
 * power of two long and holds only {@code null}s while it is here.
 *
 * <p>Which bins hold many timers depends on the bits of the clock, so as the clock moves the
 * timers move from bin to bin: a bin that empties gives its array back here, and a bin that fills
 * takes one, so that a queue of a steady population keeps working in the arrays it already has
 * instead of allocating new ones for each bin's next peak. The arrays that buckets outgrow are
 * kept too, but only once a bucket has emptied: a queue that is only filling keeps nothing here
 * that it does not use. At most
 * {@value #DEPTH} arrays of each size are kept, as many as a queue has buckets.
 */
final class SlotArrays<T> {
  /** Arrays kept of each size. */
  static final int DEPTH = HiTimeTimerQueue.BINS + 2;

  /** {@code kept[k][0]} to {@code kept[k][counts[k] - 1]} are arrays of length 2^k. */
  private final HiTimeTimer<T>[][][] kept;
  private final int[] counts = new int[Integer.SIZE];
  /** Whether a bucket has emptied since this was created or cleared. */
  private boolean circulating;

  @SuppressWarnings("unchecked")
  SlotArrays() {
    kept = (HiTimeTimer<T>[][][]) new HiTimeTimer<?>[Integer.SIZE][][];
  }

  /**
   * A kept array of {@code capacity} slots, a power of two, all {@code null}; {@code null} if
   * none is kept.
   */
  HiTimeTimer<T>[] take(int capacity) {
    int size = Integer.numberOfTrailingZeros(capacity);
    int count = counts[size];
    if (count == 0) {
      return null;
    }
    HiTimeTimer<T>[][] arrays = kept[size];
    HiTimeTimer<T>[] array = arrays[--count];
    arrays[count] = null;
    counts[size] = count;
    return array;
  }

  /** Keeps an array whose slots are all {@code null}, unless enough of its size are kept. */
  @SuppressWarnings("unchecked")
  void give(HiTimeTimer<T>[] array) {
    int size = Integer.numberOfTrailingZeros(array.length);
    int count = counts[size];
    if (count == DEPTH) {
      return;
    }
    if (kept[size] == null) {
      kept[size] = (HiTimeTimer<T>[][]) new HiTimeTimer<?>[DEPTH][];
    }
    kept[size][count] = array;
    counts[size] = count + 1;
  }

  /** Keeps the array of a bucket that emptied: from now on, outgrown arrays are kept too. */
  void giveEmptied(HiTimeTimer<T>[] array) {
    circulating = true;
    give(array);
  }

  /** Whether outgrown arrays are kept: whether a bucket has emptied. */
  boolean circulating() {
    return circulating;
  }

  /** Lets go of every array kept. */
  void clear() {
    circulating = false;
    for (int size = 0; size < Integer.SIZE; size++) {
      if (kept[size] != null) {
        Arrays.fill(kept[size], null);
        counts[size] = 0;
      }
    }
  }

  /** How many arrays of length {@code capacity} are kept; for tests. */
  int count(int capacity) {
    return counts[Integer.numberOfTrailingZeros(capacity)];
  }
}
