package io.github.timerqueue.bench.replay;

import java.util.Arrays;

/**
 * The time of each chunk of records, the least over the measured passes. A replay is deterministic,
 * so chunk <i>i</i> holds the same operations on the same structure in every pass; a shared machine
 * only ever adds time to a chunk (a preemption, another process's cache traffic), so the least of
 * its times is the best estimate of its cost, and their sum of the cost of the trace.
 *
 * <p>How far a typical chunk's next-best time is from its least ({@link #spread()}) is how
 * reproducible the least times are: the noise of the measurement, which the advice uses to call
 * contenders closer than that a tie. It is the median over the chunks, not a ratio of sums: a
 * chunk whose next-best time met a preemption is an outlier that the least times already leave
 * out, as they leave out the preemptions that make a whole pass's time no measure of the noise on
 * a machine busier than its cores.
 */
final class ChunkTimes {
  private long[] least = new long[1024];
  private long[] nextLeast = new long[1024];
  /** The records of each chunk, 0 for a chunk not timed. */
  private int[] records = new int[1024];
  /** How many times each chunk was timed. */
  private int[] times = new int[1024];

  /** Records that chunk {@code chunk}, of {@code n} records, took {@code elapsed} ns this time. */
  void record(long chunk, long elapsed, int n) {
    int i = Math.toIntExact(chunk);
    if (i >= least.length) {
      int length = Math.max(i + 1, least.length * 2);
      least = Arrays.copyOf(least, length);
      nextLeast = Arrays.copyOf(nextLeast, length);
      records = Arrays.copyOf(records, length);
      times = Arrays.copyOf(times, length);
    }
    if (times[i] == 0 || elapsed < least[i]) {
      nextLeast[i] = least[i];
      least[i] = elapsed;
    } else if (times[i] == 1 || elapsed < nextLeast[i]) {
      nextLeast[i] = elapsed;
    }
    times[i]++;
    records[i] = n;
  }

  /** The mean nanoseconds per record over the chunks timed, NaN if none was. */
  double nanosPerRecord() {
    long total = 0;
    long count = 0;
    for (int i = 0; i < least.length; i++) {
      if (records[i] > 0) {
        total += least[i];
        count += records[i];
      }
    }
    return count == 0 ? Double.NaN : (double) total / count;
  }

  /**
   * How much longer a chunk's next-best time is than its least, as a fraction (0.2 is 20% more):
   * the median over the chunks timed; NaN unless every chunk timed was timed at least twice.
   */
  double spread() {
    double[] ratios = new double[least.length];
    int n = 0;
    for (int i = 0; i < least.length; i++) {
      if (records[i] > 0) {
        if (times[i] < 2) {
          return Double.NaN;
        }
        ratios[n++] = (double) nextLeast[i] / Math.max(least[i], 1);
      }
    }
    if (n == 0) {
      return Double.NaN;
    }
    Arrays.sort(ratios, 0, n);
    double median = n % 2 == 1 ? ratios[n / 2] : (ratios[n / 2 - 1] + ratios[n / 2]) / 2;
    return median - 1;
  }
}
