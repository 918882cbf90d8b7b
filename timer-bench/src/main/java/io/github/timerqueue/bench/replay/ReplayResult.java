package io.github.timerqueue.bench.replay;

/**
 * What replaying a trace on one contender measured.
 *
 * @param contender what was replayed on
 * @param nanosByKind median nanoseconds per operation of each kind ({@link
 *     ReplayPass#KIND_NAMES}), from the operations timed one by one, less the median cost of
 *     reading the clock; NaN for a kind none of them was
 * @param nanosPerOp mean nanoseconds per record of the trace, every kind in the trace's own mix,
 *     from the chunks timed whole, each at its least time over the passes
 * @param spread how much longer a typical chunk's next-best time over the passes is than its
 *     least, as a fraction: the noise of {@code nanosPerOp} (NaN after a single pass)
 * @param peakPending the most timers pending at once
 * @param bytesPerTimer memory of the structure per pending timer at the peak, NaN if not measured
 * @param wakeups times the event loop woke between recorded advances for its timers
 * @param idleWakeups those wake-ups that fired nothing
 * @param fired timers that fired
 * @param meanLateness mean ticks from deadline to firing
 * @param maxLateness most ticks from deadline to firing
 */
record ReplayResult(
    Contender contender,
    double[] nanosByKind,
    double nanosPerOp,
    double spread,
    long peakPending,
    double bytesPerTimer,
    long wakeups,
    long idleWakeups,
    long fired,
    double meanLateness,
    long maxLateness) {}
