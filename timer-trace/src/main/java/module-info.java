/**
 * Timer traces: the compact binary trace format and its plain-text form, their streaming reader
 * and writer, and {@link io.github.timerqueue.trace.RecordingTimerQueue}, which records what a
 * program does with its {@link io.github.timerqueue.TimerQueue} without ever blocking it on I/O.
 */
module io.github.timerqueue.trace {
  requires transitive io.github.timerqueue;

  exports io.github.timerqueue.trace;
}
