package io.github.timerqueue.trace;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/** Writes the text form: a header line, then {@code time op [id [delay [range]]]} per line. */
final class TextTraceWriter extends RecordSink {
  private final Writer out;
  private boolean closed;

  TextTraceWriter(OutputStream out, TraceHeader header) throws IOException {
    super(header);
    this.out = new BufferedWriter(
        new OutputStreamWriter(Objects.requireNonNull(out, "out"), StandardCharsets.US_ASCII),
        1 << 16);
    this.out.write(TextTraceReader.HEADER + " " + Binary.VERSION
        + " unitNanos=" + header.unitNanos() + " resolution=" + header.resolution()
        + " start=" + header.startTime() + "\n");
  }

  @Override
  public void advance(long now) throws IOException {
    checkAdvance(now);
    time = now;
    line(TraceOp.ADVANCE);
    end();
  }

  @Override
  public void schedule(long id, long delay) throws IOException {
    timer(TraceOp.SCHEDULE, id, delay);
    end();
  }

  @Override
  public void scheduleWithin(long id, long delay, long range) throws IOException {
    checkRange(range);
    timer(TraceOp.SCHEDULE_WITHIN, id, delay);
    field(range);
    end();
  }

  @Override
  public void cancel(long id) throws IOException {
    line(TraceOp.CANCEL);
    field(id);
    end();
  }

  @Override
  public void reschedule(long id, long delay) throws IOException {
    timer(TraceOp.RESCHEDULE, id, delay);
    end();
  }

  @Override
  public void clear() throws IOException {
    line(TraceOp.CLEAR);
    end();
  }

  @Override
  public void dropped(long count) throws IOException {
    checkDropped(count);
    line(TraceOp.DROPPED);
    field(count);
    end();
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try (out) {
      out.write(Long.toString(time));
      out.write(" " + TextTraceReader.END + " ");
      out.write(Long.toString(records));
      out.write('\n');
    }
  }

  private void line(TraceOp op) throws IOException {
    if (closed) {
      throw new IllegalStateException("the trace writer is closed");
    }
    out.write(Long.toString(time));
    out.write(' ');
    out.write(op.textName());
  }

  /** Starts the line of an operation that arms timer {@code id}, a negative delay written as 0. */
  private void timer(TraceOp op, long id, long delay) throws IOException {
    line(op);
    field(id);
    field(Math.max(delay, 0));
  }

  private void field(long value) throws IOException {
    out.write(' ');
    out.write(Long.toString(value));
  }

  private void end() throws IOException {
    out.write('\n');
    records++;
  }
}
