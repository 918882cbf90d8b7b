package io.github.timerqueue.bench.replay;

/**
 * What a trace holds, as one replay saw it: the mix of operations and what became of the timers.
 *
 * @param records the records in the trace
 * @param counts operations of each kind ({@link ReplayPass#KIND_NAMES})
 * @param fileBytes the size of the trace file
 * @param spanTicks the time the trace covers, in ticks
 * @param fired timers that fired
 * @param cancelled timers cancelled while pending
 * @param moved pending timers moved by a reschedule
 * @param distinctDelays distinct delays in ticks (more than {@value DelayProfile#MAX_DISTINCT}
 *     counts as that plus one)
 * @param medianDelay the power of two of ticks under which half the delays lie
 * @param p99Delay the power of two of ticks under which 99% of the delays lie
 * @param dropped operations the recorder dropped
 */
record TraceProfile(
    long records,
    long[] counts,
    long fileBytes,
    long spanTicks,
    long fired,
    long cancelled,
    long moved,
    int distinctDelays,
    long medianDelay,
    long p99Delay,
    long dropped) {

  static TraceProfile of(ReplayPass pass, long fileBytes) {
    return new TraceProfile(pass.records, pass.counts.clone(), fileBytes, pass.now(), pass.fired,
        pass.cancelledPending, pass.movedPending, pass.delays.distinct(),
        pass.delays.quantile(0.5), pass.delays.quantile(0.99), pass.dropped);
  }

  /** The share of operations of kind {@code kind}. */
  double share(int kind) {
    return records == 0 ? 0 : (double) counts[kind] / records;
  }

  /** The share of the timers that ended cancelled rather than fired. */
  double cancelledShare() {
    long ended = fired + cancelled;
    return ended == 0 ? 0 : (double) cancelled / ended;
  }

  /** Bytes of trace file per record. */
  double bytesPerRecord() {
    return records == 0 ? 0 : (double) fileBytes / records;
  }
}
