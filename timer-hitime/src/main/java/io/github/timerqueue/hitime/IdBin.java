package io.github.timerqueue.hitime;

/**
 * A low bin of a {@link HiTimeTimerQueue} while it holds its timers by id ({@link IdBins}): a
 * first-in, first-out sequence of entries of two {@code int}s, a timer's id and the low 32 bits of
 * its tick. An entry whose id no longer names a timer in {@link IdBins#byId} is <em>stale</em>:
 * its timer was cancelled, and its id is freed when the entry is next met.
 */
final class IdBin {
  /** The array of a bin that has never held a timer, or has let go of its array. */
  static final int[] NO_ENTRIES = {};

  /** The entries, two {@code int}s each, from index 0 up to {@link #tail}. */
  int[] entries = NO_ENTRIES;
  /** The index after the last entry. */
  int tail;
  /** How many entries are not stale: the timers the bin holds. */
  int size;
}
