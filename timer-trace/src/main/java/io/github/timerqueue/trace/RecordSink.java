package io.github.timerqueue.trace;

import java.util.Objects;

/**
 * What the binary and the text writer share: the header, the trace's current time and the count of
 * records written, with the checks on what a {@link TraceWriter} is given.
 */
abstract class RecordSink implements TraceWriter {
  final TraceHeader header;
  /** The time of the latest advance, the header's start time before the first. */
  long time;
  long records;

  RecordSink(TraceHeader header) {
    this.header = Objects.requireNonNull(header, "header");
    this.time = header.startTime();
  }

  @Override
  public final TraceHeader header() {
    return header;
  }

  @Override
  public final long records() {
    return records;
  }

  /** Throws unless {@code now} is at or after the current time (by signed difference). */
  final void checkAdvance(long now) {
    if (now - time < 0) {
      throw new IllegalArgumentException(
          "advance to " + now + " is earlier than the trace's time " + time
              + "; a trace's clock never moves backwards");
    }
  }

  /** Throws unless {@code range} is at least 0. */
  static void checkRange(long range) {
    if (range < 0) {
      throw new IllegalArgumentException("range must be at least 0, but was " + range);
    }
  }

  /** Throws unless {@code count} is at least 1. */
  static void checkDropped(long count) {
    if (count < 1) {
      throw new IllegalArgumentException("dropped count must be at least 1, but was " + count);
    }
  }
}
