package io.github.timerqueue.bench.runtime;

import java.util.Arrays;

/**
 * How late the timers of one lateness run ran: actual minus deadline of each that ran, sorted,
 * in nanoseconds, and how many were scheduled. Percentiles are nearest-rank.
 */
record Lateness(String impl, long[] sortedNanos, int scheduled) {

  Lateness {
    sortedNanos = sortedNanos.clone();
    Arrays.sort(sortedNanos);
  }

  /** How many of the scheduled timers ran within the run's time limit. */
  int ran() {
    return sortedNanos.length;
  }

  /** The nearest-rank percentile {@code p} (0 < p <= 100); 0 if nothing ran. */
  long percentile(double p) {
    if (sortedNanos.length == 0) {
      return 0;
    }
    int rank = (int) Math.ceil(p / 100 * sortedNanos.length);
    return sortedNanos[Math.max(0, rank - 1)];
  }

  /** The latest any timer ran; 0 if nothing ran. */
  long max() {
    return sortedNanos.length == 0 ? 0 : sortedNanos[sortedNanos.length - 1];
  }
}
