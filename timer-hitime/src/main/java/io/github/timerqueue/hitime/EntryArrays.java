package io.github.timerqueue.hitime;

/**
 * The entry arrays that a queue's bins held by id ({@link IdBin}) have outgrown, kept for reuse by
 * length, a power of two. A low bin empties every time the clock passes it and fills again as the
 * timers above come down, to about the same size; it keeps its array while it is empty, since
 * filling in an array still in the cache is faster than taking one from here at each fill. So
 * arrays circulate only as bins grow: the array a bin outgrows waits here for the next bin to grow
 * to its length, and once each bin has reached the size its fills need, the bins file timers by id
 * without allocating. At most {@value #DEPTH} arrays of each length are kept, one per bin that may
 * hold timers by id plus one.
 */
final class EntryArrays {
  /** Arrays kept of each length. */
  static final int DEPTH = IdBins.BINS + 1;

  /**
   * {@code kept[k][0]} to {@code kept[k][counts[k] - 1]} are arrays of length 2^k; both are {@code
   * null} until an array is first kept, as most queues never hold timers by id.
   */
  private int[][][] kept;
  private int[] counts;

  /** A kept array of {@code length}, a power of two, or a new one if none is kept. */
  int[] take(int length) {
    int size = Integer.numberOfTrailingZeros(length);
    if (counts == null || counts[size] == 0) {
      return new int[length];
    }
    int count = counts[size] - 1;
    int[][] arrays = kept[size];
    int[] array = arrays[count];
    arrays[count] = null;
    counts[size] = count;
    return array;
  }

  /** Keeps an array whose length is a power of two, unless enough of its length are kept. */
  void give(int[] array) {
    if (counts == null) {
      kept = new int[Integer.SIZE][][];
      counts = new int[Integer.SIZE];
    }
    int size = Integer.numberOfTrailingZeros(array.length);
    int count = counts[size];
    if (count == DEPTH) {
      return;
    }
    if (kept[size] == null) {
      kept[size] = new int[DEPTH][];
    }
    kept[size][count] = array;
    counts[size] = count + 1;
  }

  /** Lets go of every array kept. */
  void clear() {
    kept = null;
    counts = null;
  }
}
