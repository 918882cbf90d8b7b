package io.github.timerqueue.runtime;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Counts how late tasks started, in nanoseconds, in a fixed set of log-linear buckets: exact below
 * {@value #SUB_BUCKETS}, then {@value #SUB_BUCKETS} buckets per power of two, so a value is known
 * to within 12.5%. 488 counters cover every non-negative {@code long}; recording is a shift, a
 * count of leading zeros and an atomic increment, from any thread.
 */
final class LatenessHistogram {
  private static final int SUB_BITS = 3;
  static final int SUB_BUCKETS = 1 << SUB_BITS;
  /** Buckets for values below {@link #SUB_BUCKETS}, then for each exponent from 3 to 62. */
  static final int BUCKETS = (63 - SUB_BITS + 1) * SUB_BUCKETS;

  private final AtomicLongArray counts = new AtomicLongArray(BUCKETS);
  private final AtomicLong max = new AtomicLong();

  /** Records one value; negative values count as 0. */
  void record(long nanos) {
    long value = Math.max(0, nanos);
    counts.getAndIncrement(bucket(value));
    long seen;
    while (value > (seen = max.get()) && !max.compareAndSet(seen, value)) {
      // another thread raised the maximum meanwhile; compare again
    }
  }

  /** A copy of the counts, not atomic across buckets, and the largest value recorded. */
  Snapshot snapshot() {
    long[] copy = new long[BUCKETS];
    for (int i = 0; i < BUCKETS; i++) {
      copy[i] = counts.get(i);
    }
    return new Snapshot(copy, max.get());
  }

  static int bucket(long value) {
    if (value < SUB_BUCKETS) {
      return (int) value;
    }
    int exponent = 63 - Long.numberOfLeadingZeros(value);
    int subBucket = (int) (value >>> (exponent - SUB_BITS)) & (SUB_BUCKETS - 1);
    return (exponent - SUB_BITS + 1) * SUB_BUCKETS + subBucket;
  }

  /** The largest value that falls into {@code bucket}. */
  static long upperBound(int bucket) {
    if (bucket < SUB_BUCKETS) {
      return bucket;
    }
    int exponent = bucket / SUB_BUCKETS + SUB_BITS - 1;
    long subBucket = bucket % SUB_BUCKETS;
    long width = 1L << (exponent - SUB_BITS);
    long lower = (SUB_BUCKETS + subBucket) * width;
    return lower + (width - 1);
  }

  /** Counts copied out of a histogram. */
  static final class Snapshot {
    private final long[] counts;
    private final long max;
    private final long total;

    Snapshot(long[] counts, long max) {
      this.counts = counts;
      this.max = max;
      long sum = 0;
      for (long count : counts) {
        sum += count;
      }
      this.total = sum;
    }

    long total() {
      return total;
    }

    long max() {
      return max;
    }

    /**
     * The value at {@code percentile} (0 to 100): the upper bound of the bucket that holds the
     * value of that rank, at most the maximum recorded; 0 if nothing was recorded.
     */
    long valueAt(double percentile) {
      if (!(percentile >= 0 && percentile <= 100)) {
        throw new IllegalArgumentException(
            "percentile must be between 0 and 100, but was " + percentile);
      }
      if (total == 0) {
        return 0;
      }
      long rank = Math.max(1, (long) Math.ceil(percentile * total / 100));
      long seen = 0;
      for (int i = 0; i < counts.length; i++) {
        seen += counts[i];
        if (seen >= rank) {
          return Math.min(upperBound(i), max);
        }
      }
      return max;
    }
  }
}
