/**
 * A thread-safe timer service on a real clock, {@link io.github.timerqueue.runtime.TimerService},
 * and a {@link java.util.concurrent.ScheduledExecutorService} on top of it, {@link
 * io.github.timerqueue.runtime.TimerScheduledExecutorService}, both built on whichever {@link
 * io.github.timerqueue.TimerQueue} strategy is named at run time.
 */
// Guava 33.3 is an automatic module (com.google.common); the warning says no more than that.
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module io.github.timerqueue.runtime {
  requires io.github.timerqueue;
  // Transitive: the builder takes a Guava Ticker, so callers must be able to read that package.
  requires transitive com.google.common;

  exports io.github.timerqueue.runtime;
}
