package io.github.timerqueue.bench;

import java.util.Locale;

/** How the table, chart and progress lines print numbers. */
final class Numbers {
  private Numbers() {}

  /** A time with three significant digits or whole nanoseconds: 1.23, 12.3, 123, 12,345. */
  static String nanos(double value) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      return "?";
    }
    double magnitude = Math.abs(value);
    if (magnitude >= 100) {
      return String.format(Locale.ROOT, "%,.0f", value);
    }
    if (magnitude >= 10) {
      return String.format(Locale.ROOT, "%.1f", value);
    }
    return String.format(Locale.ROOT, "%.2f", value);
  }

  /** Bytes, whole: JMH's own bookkeeping leaves fractions of a byte per operation. */
  static String bytes(double value) {
    return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%,.0f", value);
  }

  /** A count with thousands separators: 1,000,000. */
  static String count(long value) {
    return String.format(Locale.ROOT, "%,d", value);
  }

  /** A count and its noun, in the plural unless the count is 1: "1 workload", "18 runs". */
  static String counted(long value, String noun) {
    return value + " " + (value == 1 ? noun : noun + "s");
  }

  /** A duration as minutes and seconds: 3:07. */
  static String minutes(double seconds) {
    long whole = Math.round(seconds);
    return String.format(Locale.ROOT, "%d:%02d", whole / 60, whole % 60);
  }
}
