package io.github.timerqueue.cascade;

/**
 * One level of the wheel: 2<sup>bits</sup> buckets, a bitmap of the buckets that may hold timers,
 * and a low-water mark.
 *
 * <p>Level {@code L} holds timers whose tick lies in one of the 2<sup>bits</sup> groups of
 * 2<sup>bits&middot;L</sup> ticks that follow the base's own group; bucket {@code d} holds the one
 * of those groups whose level-{@code L} digit is {@code d}.
 *
 * <p>Neither the bitmap nor the low-water mark is maintained by deleting a timer: a set bit means
 * "may be occupied" and is cleared when the bucket is found empty, and the low-water mark is a
 * lower bound that becomes exact again when it is {@linkplain CascadeTimerQueue tightened}.
 */
final class Level extends LowWaterMark {
  /** The buckets, indexed by digit. */
  final Bucket[] buckets;
  /** Bit {@code d} is set if bucket {@code d} may hold timers; clear only if it is empty. */
  final long[] occupied;
  /**
   * The level's sorted bucket: the timers of the bucket of the base's own group, if that bucket was
   * in tick order when the base entered the group, at the positions they had there (see {@link
   * CascadeTimerQueue}); else empty. It has no number: the queue finds it by the level.
   */
  final DueBucket sorted;

  /**
   * Creates a level whose bucket of digit {@code d} is numbered {@code firstBucket + d}, whose
   * buckets' slot 0 has position {@code positionBase}, with arrays from {@code pool}.
   */
  Level(int bits, int firstBucket, int positionBase, SlotPool pool) {
    int size = 1 << bits;
    buckets = new Bucket[size];
    for (int digit = 0; digit < size; digit++) {
      buckets[digit] = new Bucket(firstBucket + digit, positionBase, pool);
    }
    occupied = new long[(size + Long.SIZE - 1) / Long.SIZE];
    sorted = new DueBucket(-1, positionBase, pool, 0);
  }

  void markOccupied(int digit) {
    occupied[digit >>> 6] |= 1L << digit;
  }

  void markEmpty(int digit) {
    occupied[digit >>> 6] &= ~(1L << digit);
  }

  boolean mayBeOccupied(int digit) {
    return (occupied[digit >>> 6] & (1L << digit)) != 0;
  }

  /**
   * Returns the first digit at or after {@code from}, going round past the last bucket to the
   * first, whose bit is set; -1 if none is.
   */
  int nextMaybeOccupied(int from) {
    int start = from >>> 6;
    long word = occupied[start] & (-1L << from);
    for (int index = start; ; ) {
      if (word != 0) {
        return (index << 6) + Long.numberOfTrailingZeros(word);
      }
      if (++index == occupied.length) {
        break;
      }
      word = occupied[index];
    }
    for (int index = 0; index <= start; index++) {
      word = occupied[index];
      if (index == start) {
        word &= ~(-1L << from);
      }
      if (word != 0) {
        return (index << 6) + Long.numberOfTrailingZeros(word);
      }
    }
    return -1;
  }
}
