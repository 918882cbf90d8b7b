package io.github.timerqueue.bench.replay;

/**
 * The delays of a trace in ticks: how many distinct values (counted exactly up to {@value
 * #MAX_DISTINCT}), and a histogram by powers of two for the median and the 99th percentile.
 */
final class DelayProfile {
  static final int MAX_DISTINCT = 1024;

  private final LongIntMap distinct = new LongIntMap();
  private final long[] log2 = new long[65];
  private long count;

  void add(long ticks) {
    count++;
    log2[64 - Long.numberOfLeadingZeros(ticks)]++;
    if (distinct.size() <= MAX_DISTINCT && distinct.get(ticks) == LongIntMap.ABSENT) {
      distinct.put(ticks, 0);
    }
  }

  long count() {
    return count;
  }

  /** Distinct delays, or {@value #MAX_DISTINCT} + 1 for "more than that". */
  int distinct() {
    return distinct.size();
  }

  /** The upper bound (a power of two, in ticks) below which fraction {@code q} of the delays lie. */
  long quantile(double q) {
    long seen = 0;
    for (int bucket = 0; bucket < log2.length; bucket++) {
      seen += log2[bucket];
      if (seen >= q * count && seen > 0) {
        return bucket == 0 ? 0 : bucket >= 63 ? Long.MAX_VALUE : 1L << bucket;
      }
    }
    return 0;
  }
}
