package io.github.timerqueue.trace;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes a timer trace, record by record, to a stream: the compact binary form ({@link #binary})
 * or the text form ({@link #text}), both specified in {@code docs/trace-format.md}. Nothing is
 * kept in memory beyond one block of output, whatever the length of the trace.
 *
 * <p>Records happen at the writer's current time: {@link TraceHeader#startTime()} at first, then
 * the time given to the latest {@link #advance}. Delays are relative to that time. Ids are any
 * {@code long}s that name a timer for its whole life, re-arms included; the binary form is
 * smallest when new timers get consecutive ids. {@link #close()} writes the end record, which a
 * reader needs to accept the trace as complete; a trace that was never closed reads as truncated.
 *
 * <p>A writer is not thread-safe: one thread writes. {@link TraceRecorder} is the thread-safe,
 * never-blocking way to record a live program.
 */
public interface TraceWriter extends Closeable {

  /**
   * Returns a writer of the compact binary form. The header is written at once.
   *
   * @param out where the trace goes; closed by {@link #close()}
   * @param header the clock of the trace
   * @return the writer
   * @throws IOException if writing the header fails
   */
  static TraceWriter binary(OutputStream out, TraceHeader header) throws IOException {
    return new BinaryTraceWriter(out, header);
  }

  /**
   * Returns a writer of the text form: one record per line, values in time units, exact. The
   * header line is written at once.
   *
   * @param out where the trace goes, as US-ASCII; closed by {@link #close()}
   * @param header the clock of the trace
   * @return the writer
   * @throws IOException if writing the header fails
   */
  static TraceWriter text(OutputStream out, TraceHeader header) throws IOException {
    return new TextTraceWriter(out, header);
  }

  /**
   * Returns the header this writer was created with.
   *
   * @return the header
   */
  TraceHeader header();

  /**
   * Records that the clock moved to {@code now}.
   *
   * @param now the new time, not earlier than the current time (compared by signed difference)
   * @throws IllegalArgumentException if {@code now} is earlier than the current time
   * @throws IOException if writing fails
   */
  void advance(long now) throws IOException;

  /**
   * Records that timer {@code id} was scheduled {@code delay} after the current time.
   *
   * @param id the timer's identity
   * @param delay the distance from the current time to the deadline; a negative delay (a deadline
   *     already past) is recorded as 0
   * @throws IOException if writing fails
   */
  void schedule(long id, long delay) throws IOException;

  /**
   * Records that timer {@code id} was scheduled to fire between {@code delay} and {@code delay +
   * range} after the current time.
   *
   * @param id the timer's identity
   * @param delay the distance from the current time to the earliest deadline; negative is 0
   * @param range the width of the range, at least 0
   * @throws IllegalArgumentException if {@code range} is negative
   * @throws IOException if writing fails
   */
  void scheduleWithin(long id, long delay, long range) throws IOException;

  /**
   * Records that timer {@code id} was cancelled.
   *
   * @param id the timer's identity
   * @throws IOException if writing fails
   */
  void cancel(long id) throws IOException;

  /**
   * Records that timer {@code id} was moved, or re-armed, to {@code delay} after the current time.
   *
   * @param id the timer's identity
   * @param delay the distance from the current time to the new deadline; negative is 0
   * @throws IOException if writing fails
   */
  void reschedule(long id, long delay) throws IOException;

  /**
   * Records that every pending timer was removed.
   *
   * @throws IOException if writing fails
   */
  void clear() throws IOException;

  /**
   * Records that {@code count} operations were lost here.
   *
   * @param count how many, at least 1
   * @throws IllegalArgumentException if {@code count} is less than 1
   * @throws IOException if writing fails
   */
  void dropped(long count) throws IOException;

  /**
   * Returns how many records have been written, {@link TraceOp#DROPPED} records included.
   *
   * @return the number of records so far
   */
  long records();

  /**
   * Writes the end record, flushes and closes the stream. Further calls do nothing.
   *
   * @throws IOException if writing or closing fails
   */
  @Override
  void close() throws IOException;
}
