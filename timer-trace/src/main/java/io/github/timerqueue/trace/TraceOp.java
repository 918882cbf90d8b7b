package io.github.timerqueue.trace;

/**
 * The kinds of record in a timer trace. Each record happens at the trace's current time, which only
 * {@link #ADVANCE} moves; the fields a kind carries are listed with it and read through {@link
 * TraceReader}.
 */
public enum TraceOp {
  /** The clock moved to {@link TraceReader#time()}; timers due by then fire. */
  ADVANCE,
  /** Timer {@link TraceReader#id()} was scheduled {@link TraceReader#delay()} after the clock. */
  SCHEDULE,
  /**
   * Timer {@link TraceReader#id()} was scheduled to fire between {@link TraceReader#delay()} and
   * {@code delay() + }{@link TraceReader#range()} after the clock.
   */
  SCHEDULE_WITHIN,
  /** Timer {@link TraceReader#id()} was cancelled (it may no longer have been pending). */
  CANCEL,
  /**
   * Timer {@link TraceReader#id()} was moved, or re-armed if no longer pending, to {@link
   * TraceReader#delay()} after the clock.
   */
  RESCHEDULE,
  /** Every pending timer was removed ({@code clear} or {@code drain}). */
  CLEAR,
  /**
   * The recorder dropped {@link TraceReader#count()} operations here because its buffer was full;
   * the trace is incomplete at this point and says so.
   */
  DROPPED;

  /** The name of this kind in the text form: lower case, {@code within} for SCHEDULE_WITHIN. */
  String textName() {
    return this == SCHEDULE_WITHIN ? "within" : name().toLowerCase(java.util.Locale.ROOT);
  }
}
