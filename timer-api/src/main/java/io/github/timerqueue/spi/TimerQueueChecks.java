package io.github.timerqueue.spi;

import java.util.Objects;

/**
 * The argument checks that every {@link io.github.timerqueue.TimerQueue} implementation makes the
 * same way, so that each bad value is reported with the same message whatever the strategy.
 */
public final class TimerQueueChecks {

  private TimerQueueChecks() {}

  /**
   * Checks the range of {@link io.github.timerqueue.TimerQueue#scheduleWithin}: {@code latest} must
   * not be before {@code earliest}, compared by signed difference.
   *
   * @param earliest the start of the range
   * @param latest the end of the range
   * @throws IllegalArgumentException if {@code latest - earliest < 0}, naming both values
   */
  public static void checkRange(long earliest, long latest) {
    if (latest - earliest < 0) {
      throw new IllegalArgumentException(
          "earliest (" + earliest + ") must not be after latest (" + latest + ")");
    }
  }

  /**
   * Checks the {@code limit} of {@link io.github.timerqueue.TimerQueue#advance(long,
   * java.util.function.Consumer, int)}.
   *
   * @param limit the most timers to fire
   * @throws IllegalArgumentException if {@code limit < 1}, naming the value
   */
  public static void checkLimit(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be at least 1, but was " + limit);
    }
  }

  /**
   * Makes the checks of {@link io.github.timerqueue.TimerQueue#advance(long,
   * java.util.function.Consumer, int)} in the order the contract lists its exceptions: the handler,
   * the limit, then the call from a handler.
   *
   * @param onExpired the handler given to {@code advance}
   * @param limit the most timers to fire
   * @param inHandler whether a handler of this queue's {@code advance} is running
   * @throws NullPointerException if {@code onExpired} is {@code null}
   * @throws IllegalArgumentException if {@code limit < 1}, naming the value
   * @throws IllegalStateException if {@code inHandler}
   */
  public static void checkAdvance(Object onExpired, int limit, boolean inHandler) {
    Objects.requireNonNull(onExpired, "onExpired");
    checkLimit(limit);
    checkNotInHandler(inHandler, "advance");
  }

  /**
   * Checks that {@code advance} or {@code drain} is not called from a handler of the queue's
   * running {@code advance}, which the contract forbids.
   *
   * @param inHandler whether a handler of this queue's {@code advance} is running
   * @param method the name of the method called, for the message
   * @throws IllegalStateException if {@code inHandler}, naming the method
   */
  public static void checkNotInHandler(boolean inHandler, String method) {
    if (inHandler) {
      throw new IllegalStateException(method + " must not be called from a timer handler");
    }
  }

  /**
   * Returns the exception a queue throws for a handle that another queue created, so that the
   * caller's {@code throw} shows the control flow: {@code throw TimerQueueChecks.foreignHandle(t)}.
   *
   * @param timer the handle that this queue did not create
   * @return an {@link IllegalArgumentException} naming the handle
   */
  public static IllegalArgumentException foreignHandle(Object timer) {
    return new IllegalArgumentException("timer " + timer + " was not created by this queue");
  }
}
