package io.github.timerqueue.runtime;

/**
 * The work a {@link TimerService} runs when a {@link Timeout} expires.
 *
 * <pre>{@code
 * Timeout idle = timers.newTimeout(t -> connection.close(), 30, TimeUnit.SECONDS);
 * }</pre>
 */
@FunctionalInterface
public interface TimerTask {

  /**
   * Runs the task: on the timer thread, or on the service's task executor if it has one. An
   * exception thrown here goes to the service's {@linkplain
   * TimerService#setUncaughtExceptionHandler uncaught-exception handler} (by default, a logged
   * warning); it does not stop the timer thread and no other timeout is lost. The task may re-arm
   * its own timeout with {@link Timeout#reschedule}.
   *
   * @param timeout the timeout that expired
   * @throws Exception anything; it is handed to the uncaught-exception handler
   */
  void run(Timeout timeout) throws Exception;

  /**
   * Called once each time {@link Timeout#cancel()} cancels this task's pending timeout, on the
   * thread that cancelled it, after the timeout is cancelled; for example to release resources the
   * task would have released. Not called for timeouts that {@link TimerService#stop()} returns. An
   * exception thrown here goes to the uncaught-exception handler, not to the caller of {@code
   * cancel}. Does nothing by default.
   *
   * @param timeout the timeout that was cancelled
   */
  default void cancelled(Timeout timeout) {}
}
