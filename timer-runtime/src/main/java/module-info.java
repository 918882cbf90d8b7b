/**
 * A thread-safe timer service on a real clock, {@link io.github.timerqueue.runtime.TimerService},
 * and a {@link java.util.concurrent.ScheduledExecutorService} on top of it, {@link
 * io.github.timerqueue.runtime.TimerScheduledExecutorService}, both built on whichever {@link
 * io.github.timerqueue.TimerQueue} strategy is named at run time. No dependency beyond the JDK and
 * this project's timer-api and timer-trace.
 */
module io.github.timerqueue.runtime {
  // Not transitive by itself: no public signature here names a timer-api type (strategies are
  // chosen by name). timer-trace, whose TraceRecorder the builder takes, brings it transitively.
  requires io.github.timerqueue;
  requires transitive io.github.timerqueue.trace;
  // The JFR events (LateTimerEvent, ThrottledEvent): a JDK module, present in every full JDK.
  requires jdk.jfr;

  exports io.github.timerqueue.runtime;
}
