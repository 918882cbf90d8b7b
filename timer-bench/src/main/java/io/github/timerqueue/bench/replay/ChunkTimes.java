package io.github.timerqueue.bench.replay;

import java.util.Arrays;

/**
 * The time of each chunk of records, the least over the measured passes. A replay is deterministic,
 * so chunk <i>i</i> holds the same operations on the same structure in every pass; a shared machine
 * only ever adds time to a chunk (a preemption, another process's cache traffic), so the least of
 * its times is the best estimate of its cost, and their sum of the cost of the trace.
 *
 * <p>How far that estimate is from the one the next-best time of each chunk gives ({@link
 * #spread()}) is how reproducible the least times are: the noise of the measurement, which the
 * advice uses to call contenders closer than that a tie. (A pass's whole time is no measure of it:
 * on a machine busier than its cores, it counts every preemption the least times leave out.)
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
   * How much more the chunks' next-best times add up to than their least times, as a fraction (0.2
   * is 20% more); NaN unless every chunk timed was timed at least twice.
   */
  double spread() {
    long leastTotal = 0;
    long nextTotal = 0;
    boolean any = false;
    for (int i = 0; i < least.length; i++) {
      if (records[i] > 0) {
        if (times[i] < 2) {
          return Double.NaN;
        }
        leastTotal += least[i];
        nextTotal += nextLeast[i];
        any = true;
      }
    }
    return any && leastTotal > 0 ? (double) nextTotal / leastTotal - 1 : Double.NaN;
  }
}
