package io.github.timerqueue.bench.replay;

import java.util.Arrays;

/**
 * The time of each chunk of records, the least over the measured passes. A replay is deterministic,
 * so chunk <i>i</i> holds the same operations on the same structure in every pass; a shared machine
 * only ever adds time to a chunk (a preemption, another process's cache traffic), so the least of
 * its times is the best estimate of its cost, and their sum of the cost of the trace.
 */
final class ChunkTimes {
  private long[] nanos = new long[1024];
  private int[] records = new int[1024];

  /** Records that chunk {@code chunk}, of {@code n} records, took {@code elapsed} ns this time. */
  void record(long chunk, long elapsed, int n) {
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
}
