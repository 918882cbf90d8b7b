package io.github.timerqueue.bench.replay;

import java.util.Arrays;

/**
 * The time of each chunk of records, the least over the measured passes. A replay is deterministic,
 * so chunk <i>i</i> holds the same operations on the same structure in every pass; a shared machine
 * only ever adds time to a chunk (a preemption, another process's cache traffic), so the least of
 * its times is the best estimate of its cost, and their sum of the cost of the trace.
 *
 * <p>How far the slowest pass is from that estimate ({@link #spread()}) is what the machine's
 * noise did to this contender during its replay: the advice treats contenders closer than that as
 * tied.
 */
final class ChunkTimes {
  private long[] nanos = new long[1024];
  private int[] records = new int[1024];
  /** Each pass's total time and records, the pass beginning at chunk 0. */
  private long[] passNanos = new long[4];
  private long[] passRecords = new long[4];
  private int passes;

  /** Records that chunk {@code chunk}, of {@code n} records, took {@code elapsed} ns this time. */
  void record(long chunk, long elapsed, int n) {
    if (chunk == 0 || passes == 0) {
      if (passes == passNanos.length) {
        passNanos = Arrays.copyOf(passNanos, passes * 2);
        passRecords = Arrays.copyOf(passRecords, passes * 2);
      }
      passes++;
    }
    passNanos[passes - 1] += elapsed;
    passRecords[passes - 1] += n;
    int i = Math.toIntExact(chunk);
    if (i >= nanos.length) {
      int length = Math.max(i + 1, nanos.length * 2);
      int old = nanos.length;
      nanos = Arrays.copyOf(nanos, length);
      records = Arrays.copyOf(records, length);
      Arrays.fill(records, old, length, 0);
    }
    if (records[i] == 0 || elapsed < nanos[i]) {
      nanos[i] = elapsed;
    }
    records[i] = n;
  }

  /** The mean nanoseconds per record over the chunks timed, NaN if none was. */
  double nanosPerRecord() {
    long total = 0;
    long count = 0;
    for (int i = 0; i < nanos.length; i++) {
      if (records[i] > 0) {
        total += nanos[i];
        count += records[i];
      }
    }
    return count == 0 ? Double.NaN : (double) total / count;
  }

  /**
   * How much slower than {@link #nanosPerRecord()} the slowest pass was, as a fraction (0.2 is 20%
   * slower); 0 after a single pass, NaN if nothing was timed.
   */
  double spread() {
    double best = nanosPerRecord();
    double slowest = 0;
    for (int p = 0; p < passes; p++) {
      slowest = Math.max(slowest, (double) passNanos[p] / passRecords[p]);
    }
    return passes == 0 ? Double.NaN : Math.max(0, slowest / best - 1);
  }
}
