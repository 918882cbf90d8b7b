package io.github.timerqueue.spi;

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
}
