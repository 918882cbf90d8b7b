package io.github.timerqueue.bench.replay;

/**
 * The times of single operations, by kind, as histograms of whole nanoseconds (up to {@value
 * #RANGE} ns, longer ones counted above it), for their medians: a median is not moved by the few
 * operations that a preemption makes thousands of times slower, where a mean is.
 */
final class OperationTimes {
  static final int RANGE = 1 << 14;

  private final long[][] counts = new long[ReplayPass.KINDS][RANGE + 1];
  private final long[] totals = new long[ReplayPass.KINDS];

  void add(int kind, long nanos) {
    counts[kind][(int) Math.min(Math.max(nanos, 0), RANGE)]++;
    totals[kind]++;
  }

  /** The median time of kind {@code kind} in ns, NaN if none was timed. */
  double median(int kind) {
    return median(counts[kind], totals[kind]);
  }

  static double median(long[] histogram, long total) {
    if (total == 0) {
      return Double.NaN;
    }
    long seen = 0;
    for (int nanos = 0; nanos < histogram.length; nanos++) {
      seen += histogram[nanos];
      if (2 * seen >= total) {
        return nanos;
      }
    }
    return RANGE;
  }

  /** The median cost, in ns, of the two {@code nanoTime} calls that bracket an operation. */
  static double clockCost() {
    long[] histogram = new long[RANGE + 1];
    int n = 1 << 20;
    for (int i = 0; i < n; i++) {
      long t0 = System.nanoTime();
      histogram[(int) Math.min(System.nanoTime() - t0, RANGE)]++;
    }
    return median(histogram, n);
  }
}
