package io.github.timerqueue.bench.replay;

import java.util.Locale;

/**
 * The common shapes of timer load that {@link TraceGenerator} produces. Times are in milliseconds
 * (the trace's resolution); the numbers below are the generator's fixed parameters.
 */
public enum TraceShape {
  /**
   * RPC timeouts: 20 requests per millisecond, each with a 1 s timeout (a tenth with 5 s); 97% are
   * answered after an exponentially distributed 5 ms on average and their timeout cancelled, the
   * rest time out. The event loop turns every millisecond.
   */
  RPC,
  /**
   * Idle timeouts: 20,000 connections with a 60 s idle timeout, re-armed on each of 50 packets per
   * millisecond (spread over 95% of the connections; the other 5% stay silent and time out); 0.05
   * connections close per millisecond (cancel) and are replaced by new ones.
   */
  IDLE,
  /**
   * Cache entries: one insert per millisecond with a TTL of 1 min (60%), 5 min (30%) or 1 h (10%);
   * 10% are invalidated before they expire (cancel), 20% are refreshed once (reschedule to the same
   * TTL), the rest expire.
   */
  CACHE,
  /**
   * Retry back-offs: 2 operations start per millisecond; each attempt fails with probability 1/2
   * and is retried after 100 ms doubled per attempt, with &plusmn;20% jitter, up to 6 attempts (the
   * timer re-armed on firing); a tenth of the waiting retries are abandoned (cancel).
   */
  RETRY,
  /**
   * Cron-like periodic tasks: 10,000 tasks with periods of 1 s, 10 s, 1 min and 1 h, each re-armed
   * from its own handler; the event loop wakes only when a task is due.
   */
  PERIODIC;

  /** The shape's name on the command line: its name in lower case. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * Returns the shape with this label.
   *
   * @param label a label, as {@link #label()} prints it
   * @return the shape
   * @throws IllegalArgumentException if no shape has that label; the message lists them
   */
  public static TraceShape of(String label) {
    for (TraceShape shape : values()) {
      if (shape.label().equals(label)) {
        return shape;
      }
    }
    StringBuilder labels = new StringBuilder();
    for (TraceShape shape : values()) {
      labels.append(labels.length() == 0 ? "" : ", ").append(shape.label());
    }
    throw new IllegalArgumentException(
        "unknown trace shape '" + label + "'; shapes are " + labels);
  }
}
