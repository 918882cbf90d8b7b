package io.github.timerqueue.bench.runtime;

/**
 * One contender's line of the runtime table. Throughputs are operations per second and NaN where
 * not measured (the peers' reschedule) or failed; allocation is bytes per operation.
 */
record RuntimeRow(
    String impl,
    double scheduleCancel1, double scheduleCancel4,
    double bytesPerOp1, double bytesPerOp4,
    double reschedule1, double reschedule4,
    Lateness lateness,
    IdleWakeups.Rate idle) {}
