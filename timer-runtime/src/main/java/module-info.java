/**
 * A thread-safe timer service on a real clock, {@link io.github.timerqueue.runtime.TimerService},
 * and a {@link java.util.concurrent.ScheduledExecutorService} on top of it, {@link
 * io.github.timerqueue.runtime.TimerScheduledExecutorService}, both built on whichever {@link
 * io.github.timerqueue.TimerQueue} strategy is named at run time. No dependency beyond the JDK and
 * timer-api.
 */
module io.github.timerqueue.runtime {
  // Not transitive: no public signature of this module names a timer-api type (strategies are
  // chosen by name), so a user that only schedules need not read it.
  requires io.github.timerqueue;
  // The JFR events (LateTimerEvent, ThrottledEvent): a JDK module, present in every full JDK.
  requires jdk.jfr;

  exports io.github.timerqueue.runtime;
}
