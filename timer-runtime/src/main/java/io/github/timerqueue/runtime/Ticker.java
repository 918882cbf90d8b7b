package io.github.timerqueue.runtime;

/**
 * The clock a {@link TimerService} reads: a source of nanoseconds, as {@link System#nanoTime()},
 * whose values mean something only as differences between two readings.
 *
 * <p>The service reads it on every arming and every turn of its timer thread, so {@link #read()}
 * must be cheap, must not block, and must never go backwards (successive readings differ by less
 * than {@code 2^62} nanoseconds; they may wrap around {@code Long.MAX_VALUE}). Tests that move time
 * themselves use a {@link ManualTicker}, which also runs the service without a timer thread.
 */
@FunctionalInterface
public interface Ticker {

  /**
   * Returns the current time in nanoseconds, from an arbitrary origin.
   *
   * @return the time, in nanoseconds
   */
  long read();

  /**
   * Returns the ticker of {@link System#nanoTime()}, the default of {@link
   * TimerService.Builder#ticker}.
   *
   * @return the system ticker, a shared stateless instance
   */
  static Ticker systemTicker() {
    return SystemTicker.INSTANCE;
  }
}
