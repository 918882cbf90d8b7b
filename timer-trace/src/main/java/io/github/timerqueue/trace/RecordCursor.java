package io.github.timerqueue.trace;

import java.io.IOException;
import java.io.InputStream;

/**
 * What the binary and the text reader share: the stream they read, and the fields of the record
 * they read last, which the {@link TraceReader} accessors return.
 */
abstract class RecordCursor implements TraceReader {
  final InputStream in;
  long time;
  long id;
  long delay;
  long range;
  long count;
  /** The byte offset of the record read last, for {@link #offset()}. */
  long recordOffset;

  RecordCursor(InputStream in) {
    this.in = in;
  }

  @Override
  public long time() {
    return time;
  }

  @Override
  public long id() {
    return id;
  }

  @Override
  public long delay() {
    return delay;
  }

  @Override
  public long range() {
    return range;
  }

  @Override
  public long count() {
    return count;
  }

  @Override
  public long offset() {
    return recordOffset;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
