package io.github.timerqueue.runtime;

import java.time.Duration;
import java.util.Objects;

/** The one check of every {@link Duration} the public API takes: a whole number of nanoseconds. */
final class Durations {
  private Durations() {}

  /**
   * Returns {@code duration} in nanoseconds, if that is from {@code least} (0 or more) to {@code
   * Long.MAX_VALUE}.
   *
   * @throws IllegalArgumentException naming {@code what} and the range, if it is not
   * @throws NullPointerException naming {@code what}, if {@code duration} is {@code null}
   */
  static long nanos(Duration duration, long least, String what) {
    Objects.requireNonNull(duration, what);
    long nanos;
    try {
      nanos = duration.toNanos();
    } catch (ArithmeticException tooLong) {
      nanos = -1; // below any least, so rejected with the range below
    }
    if (nanos < least) {
      throw new IllegalArgumentException(what + " must be between " + least + " ns and "
          + Long.MAX_VALUE + " ns, but was " + duration);
    }
    return nanos;
  }
}
