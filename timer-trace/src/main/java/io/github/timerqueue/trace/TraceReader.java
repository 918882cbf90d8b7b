package io.github.timerqueue.trace;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads a timer trace record by record, streaming: memory stays at one block of input whatever the
 * length of the trace. Both forms are read, told apart by their first byte.
 *
 * <p>Typical use:
 *
 * <pre>{@code
 * try (TraceReader trace = TraceReader.open(Path.of("timers.trace"))) {
 *   for (TraceOp op; (op = trace.next()) != null; ) {
 *     switch (op) {
 *       case SCHEDULE -> schedule(trace.id(), trace.time() + trace.delay());
 *       ...
 *     }
 *   }
 * }
 * }</pre>
 *
 * <p><b>Nothing silently partial.</b> {@link #next()} returns {@code null} only after it has
 * checked that the trace is complete: the binary form's end record matches the count of records
 * read, and every block passed its CRC-32 before any of its records was handed out. A corrupt or
 * truncated trace throws {@link TraceFormatException} naming the byte offset, and every call after
 * that throws it again. A text trace ends with an {@code end} line when {@link TraceWriter} wrote
 * it; a hand-written one may omit it, but its last line must end with a newline.
 *
 * <p>A reader is not thread-safe. The accessors describe the record that {@link #next()} returned
 * last; what they return for fields that record does not have is unspecified.
 */
public interface TraceReader extends Closeable {

  /**
   * Opens a trace file in either form.
   *
   * @param file the trace
   * @return a reader positioned before the first record
   * @throws TraceFormatException if the file is not a trace or its header is corrupt
   * @throws IOException if the file cannot be read
   */
  static TraceReader open(Path file) throws IOException {
    InputStream in = Files.newInputStream(file);
    try {
      return open(in);
    } catch (IOException | RuntimeException e) {
      in.close();
      throw e;
    }
  }

  /**
   * Opens a trace in either form from a stream, which the reader buffers and closes.
   *
   * @param in the trace's bytes
   * @return a reader positioned before the first record
   * @throws TraceFormatException if the stream is empty, is not a trace, or its header is corrupt
   * @throws IOException if reading fails
   */
  static TraceReader open(InputStream in) throws IOException {
    BufferedInputStream buffered = new BufferedInputStream(in, 1 << 16);
    buffered.mark(1);
    int first = buffered.read();
    buffered.reset();
    if (first < 0) {
      throw new TraceFormatException(0, "the file is empty: a trace starts with a header");
    }
    return (first & 0xFF) == (Binary.MAGIC[0] & 0xFF)
        ? new BinaryTraceReader(buffered)
        : new TextTraceReader(buffered);
  }

  /**
   * Returns the trace's header.
   *
   * @return the header
   */
  TraceHeader header();

  /**
   * Reads the next record.
   *
   * @return its kind, or {@code null} at the verified end of the trace
   * @throws TraceFormatException if the trace is corrupt or truncated at this point
   * @throws IOException if reading fails
   */
  TraceOp next() throws IOException;

  /**
   * Returns the trace's clock after the current record: the time of every record since the last
   * {@link TraceOp#ADVANCE}, in time units.
   *
   * @return the current time
   */
  long time();

  /**
   * Returns the timer identity of the current {@code SCHEDULE}, {@code SCHEDULE_WITHIN}, {@code
   * CANCEL} or {@code RESCHEDULE} record.
   *
   * @return the id
   */
  long id();

  /**
   * Returns the delay of the current {@code SCHEDULE}, {@code SCHEDULE_WITHIN} or {@code
   * RESCHEDULE} record, in time units, at least 0.
   *
   * @return the distance from {@link #time()} to the (earliest) deadline
   */
  long delay();

  /**
   * Returns the width of the range of the current {@code SCHEDULE_WITHIN} record, in time units.
   *
   * @return the range, at least 0
   */
  long range();

  /**
   * Returns how many operations the current {@code DROPPED} record says were lost.
   *
   * @return the count, at least 1
   */
  long count();

  /**
   * Returns the byte offset, from the start of the file, at which the current record starts.
   *
   * @return the offset
   */
  long offset();
}
