package io.github.timerqueue.bench.runtime;

/**
 * A thread-safe timer on the real clock, as the runtime benchmarks use it: a {@code TimerService}
 * over a registered strategy, or a peer through its own API. One benchmark body drives every
 * contender through this.
 *
 * <p>A handle is whatever the contender returns for a scheduled task (a {@code Timeout}, a {@code
 * ScheduledFuture}, Kafka's {@code TimerTask}); only the adapter that made it looks inside.
 */
interface RuntimeTimer extends AutoCloseable {

  /** Schedules {@code action} to run once, {@code delayNanos} from now; returns its handle. */
  Object schedule(long delayNanos, Action action);

  /** Cancels the timer of {@code handle}; returns whether this call cancelled it. */
  boolean cancel(Object handle);

  /**
   * Re-arms the timer of {@code handle} to {@code delayNanos} from now, whatever its state.
   *
   * @throws UnsupportedOperationException if the contender's API has no such operation (every
   *     peer: a timeout there is scheduled once)
   */
  boolean reschedule(Object handle, long delayNanos);

  /** The name of the thread that keeps the time, as {@code /proc/self/task/<tid>/comm} shows it. */
  String threadName();

  /** Stops the timer and its threads. */
  @Override
  void close();
}
