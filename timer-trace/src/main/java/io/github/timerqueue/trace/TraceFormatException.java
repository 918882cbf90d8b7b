package io.github.timerqueue.trace;

import java.io.IOException;

/**
 * Thrown when a trace is corrupt or truncated. The message says what is wrong and at which byte
 * offset of the file; {@link #offset()} gives the offset. A reader that throws it has handed out
 * only records from before that offset, all of them intact, and hands out nothing more.
 */
public final class TraceFormatException extends IOException {
  private static final long serialVersionUID = 1L;

  /** The byte offset from the start of the file at which the problem was found. */
  private final long offset;

  /**
   * Creates an exception for a problem found at byte {@code offset}.
   *
   * @param offset the byte offset from the start of the file
   * @param problem what is wrong there
   */
  public TraceFormatException(long offset, String problem) {
    super("trace is invalid at byte offset " + offset + ": " + problem);
    this.offset = offset;
  }

  /**
   * Returns the byte offset, from the start of the file, at which the problem was found.
   *
   * @return the offset, at least 0
   */
  public long offset() {
    return offset;
  }
}
