package io.github.timerqueue.runtime;

import java.util.Locale;

/**
 * A snapshot of a {@link TimerService}'s counters and of how late its tasks started. The counters
 * are read one after another while other threads keep working, so they agree with each other only
 * once the service is quiet.
 *
 * <p>Lateness is the time from a timeout's deadline to the moment its task started running, as
 * read on the service's ticker. It includes the timer's resolution, the time the timer thread took
 * to wake up, any time the task waited behind other tasks on the timer thread or in the task
 * executor's queue. It is kept in a fixed histogram whose percentiles are exact below 8
 * nanoseconds and within 12.5% (rounded up) above.
 */
public final class TimerStats {
  private final long pending;
  private final long fired;
  private final long cancelled;
  private final long rejected;
  private final long wakeups;
  private final long throttled;
  private final LatenessHistogram.Snapshot lateness;

  TimerStats(
      long pending, long fired, long cancelled, long rejected, long wakeups, long throttled,
      LatenessHistogram.Snapshot lateness) {
    this.pending = pending;
    this.fired = fired;
    this.cancelled = cancelled;
    this.rejected = rejected;
    this.wakeups = wakeups;
    this.throttled = throttled;
    this.lateness = lateness;
  }

  /**
   * Returns how many timeouts are pending: scheduled or re-armed, and not yet expired, cancelled
   * or returned by {@link TimerService#stop()}.
   *
   * @return the number of pending timeouts
   */
  public long pending() {
    return pending;
  }

  /**
   * Returns how many times a timeout expired and its task was handed over to run (a re-armed
   * timeout counts once per expiry).
   *
   * @return the number of expiries
   */
  public long fired() {
    return fired;
  }

  /**
   * Returns how many times {@link Timeout#cancel()} cancelled a pending timeout.
   *
   * @return the number of cancellations
   */
  public long cancelled() {
    return cancelled;
  }

  /**
   * Returns how many requests to schedule or re-arm a timeout were rejected, because the service was
   * stopped or held its maximum number of pending timeouts.
   *
   * @return the number of rejected requests
   */
  public long rejected() {
    return rejected;
  }

  /**
   * Returns how many times the timer thread woke up from sleeping: when a deadline came, when a
   * request needed it earlier, or spuriously. A service with nothing scheduled does not wake up.
   *
   * @return the number of wake-ups
   */
  public long wakeups() {
    return wakeups;
  }

  /**
   * Returns how many calls to schedule or re-arm a timeout first waited because the timer thread's
   * backlog was full (see {@link TimerService}'s "Back-pressure" and {@link
   * TimerService.Builder#maxBacklog}). Nonzero only when other threads armed timeouts faster than
   * the timer thread applied and fired them.
   *
   * @return the number of calls that waited
   */
  public long throttled() {
    return throttled;
  }

  /**
   * Returns how many tasks started running and were timed: the population of the lateness
   * percentiles.
   *
   * @return the number of timed task runs
   */
  public long tasksRun() {
    return lateness.total();
  }

  /**
   * Returns the lateness at a percentile, in nanoseconds: the smallest bucket bound below which
   * that share of the tasks started, at most {@link #maxLatenessNanos()}; 0 if no task ran.
   *
   * @param percentile between 0 and 100, for example 99.9
   * @return the lateness at that percentile, in nanoseconds
   * @throws IllegalArgumentException if {@code percentile} is not between 0 and 100
   */
  public long latenessNanos(double percentile) {
    return lateness.valueAt(percentile);
  }

  /**
   * Returns the largest lateness recorded, in nanoseconds; 0 if no task ran.
   *
   * @return the largest lateness, in nanoseconds
   */
  public long maxLatenessNanos() {
    return lateness.max();
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT,
        "TimerStats{pending=%d, fired=%d, cancelled=%d, rejected=%d, wakeups=%d, throttled=%d,"
            + " tasksRun=%d, lateness p50=%dns p90=%dns p99=%dns p99.9=%dns max=%dns}",
        pending, fired, cancelled, rejected, wakeups, throttled, tasksRun(), latenessNanos(50),
        latenessNanos(90), latenessNanos(99), latenessNanos(99.9), maxLatenessNanos());
  }
}
