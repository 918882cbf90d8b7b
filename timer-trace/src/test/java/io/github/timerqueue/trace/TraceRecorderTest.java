package io.github.timerqueue.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class TraceRecorderTest {

  private static final TraceHeader HEADER = new TraceHeader(1, 1, 0);

  @Test
  void recordsEveryOperationInOrderIntoAFile(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("timers.trace");
    TraceRecorder recorder = TraceRecorder.start(file, HEADER);
    recorder.schedule(0, 500);
    recorder.scheduleWithin(1, 100, 20);
    recorder.advance(10);
    recorder.cancel(1);
    recorder.reschedule(0, 500);
    recorder.clear();
    recorder.close();

    try (TraceReader reader = TraceReader.open(file)) {
      assertThat(reader.header()).isEqualTo(HEADER);
      assertThat(Op.readAll(reader)).containsExactly(
          new Op(TraceOp.SCHEDULE, 0, 0, 500, 0, 0),
          new Op(TraceOp.SCHEDULE_WITHIN, 0, 1, 100, 20, 0),
          new Op(TraceOp.ADVANCE, 10, 0, 0, 0, 0),
          new Op(TraceOp.CANCEL, 10, 1, 0, 0, 0),
          new Op(TraceOp.RESCHEDULE, 10, 0, 500, 0, 0),
          new Op(TraceOp.CLEAR, 10, 0, 0, 0, 0));
    }
    assertThat(recorder.dropped()).isZero();
  }

  @Test
  @Timeout(10)
  void dropsAndCountsInsteadOfWaitingForAStalledWriterAndSaysSoInTheTrace() throws Exception {
    StalledWriter writer = new StalledWriter();
    TraceRecorder recorder = TraceRecorder.start(writer.inner, 4);

    for (int id = 0; id < 4; id++) {
      recorder.schedule(id, 100);          // fills the buffer while the writer is stalled
    }
    for (int i = 0; i < 1000; i++) {
      recorder.cancel(0);                  // returns at once, dropped
    }
    assertThat(recorder.dropped()).isEqualTo(1000);

    writer.resume();
    while (!recorder.drained()) {
      Thread.onSpinWait();
    }
    recorder.advance(5);                   // the first operation with room records the drops first
    recorder.reschedule(1, 7);
    recorder.close();

    assertThat(recorder.dropped()).isEqualTo(1000);
    assertThat(writer.readBack()).containsExactly(
        new Op(TraceOp.SCHEDULE, 0, 0, 100, 0, 0),
        new Op(TraceOp.SCHEDULE, 0, 1, 100, 0, 0),
        new Op(TraceOp.SCHEDULE, 0, 2, 100, 0, 0),
        new Op(TraceOp.SCHEDULE, 0, 3, 100, 0, 0),
        new Op(TraceOp.DROPPED, 0, 0, 0, 0, 1000),
        new Op(TraceOp.ADVANCE, 5, 0, 0, 0, 0),
        new Op(TraceOp.RESCHEDULE, 5, 1, 7, 0, 0));
  }

  @Test
  @Timeout(10)
  void dropsStillPendingAtCloseAreWrittenBeforeTheEnd() throws Exception {
    StalledWriter writer = new StalledWriter();
    TraceRecorder recorder = TraceRecorder.start(writer.inner, 2);
    recorder.schedule(0, 1);
    recorder.schedule(1, 1);
    recorder.cancel(0);
    recorder.cancel(1);
    recorder.advance(3);

    writer.resume();
    recorder.close();

    assertThat(recorder.dropped()).isEqualTo(3);
    assertThat(writer.readBack()).containsExactly(
        new Op(TraceOp.SCHEDULE, 0, 0, 1, 0, 0),
        new Op(TraceOp.SCHEDULE, 0, 1, 1, 0, 0),
        new Op(TraceOp.DROPPED, 0, 0, 0, 0, 3));
  }

  @Test
  void aWriterThatFailsNeverReachesTheRecordingThreadButCloseReportsIt() throws IOException {
    TraceWriter broken = new ForwardingWriter(TraceWriter.binary(new ByteArrayOutputStream(), HEADER)) {
      @Override
      public void cancel(long id) throws IOException {
        throw new IOException("disk full");
      }
    };
    TraceRecorder recorder = TraceRecorder.start(broken, 8);
    for (int i = 0; i < 100; i++) {
      recorder.schedule(i, 1);
      recorder.cancel(i);
    }

    assertThatThrownBy(recorder::close)
        .isInstanceOf(IOException.class)
        .hasMessageContaining("the trace is incomplete")
        .hasRootCauseMessage("disk full");
  }

  @Test
  void theDisabledRecorderDoesNothing() throws IOException {
    TraceRecorder off = TraceRecorder.disabled();
    off.schedule(1, 2);
    off.advance(3);
    off.close();

    assertThat(off.isEnabled()).isFalse();
    assertThat(off.dropped()).isZero();
    assertThat(TraceRecorder.disabled()).isSameAs(off);
  }

  @Test
  void refusesACapacityThatIsNotAPowerOfTwoInRange() {
    TraceWriter writer = new ForwardingWriter(null);
    for (int capacity : new int[] {0, 1, 3, 1000, 1 << 25}) {
      assertThatThrownBy(() -> TraceRecorder.start(writer, capacity))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("power of two from 2 to 2^24")
          .hasMessageContaining(String.valueOf(capacity));
    }
  }

  /** A binary writer into memory whose every call can be held up, as by a stalled disk. */
  private static final class StalledWriter {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final CountDownLatch gate = new CountDownLatch(1);
    final TraceWriter inner;

    StalledWriter() throws IOException {
      inner = new ForwardingWriter(TraceWriter.binary(bytes, HEADER)) {
        @Override
        void before() {
          try {
            if (!gate.await(10, TimeUnit.SECONDS)) {
              throw new AssertionError("stalled for 10 s");
            }
          } catch (InterruptedException e) {
            throw new AssertionError(e);
          }
        }
      };
    }

    void resume() {
      gate.countDown();
    }

    List<Op> readBack() throws IOException {
      try (TraceReader reader = TraceReader.open(new ByteArrayInputStream(bytes.toByteArray()))) {
        return Op.readAll(reader);
      }
    }
  }

  /** Forwards every call to a writer, after {@link #before()}. */
  private static class ForwardingWriter implements TraceWriter {
    private final TraceWriter writer;

    ForwardingWriter(TraceWriter writer) {
      this.writer = writer;
    }

    void before() {}

    @Override
    public TraceHeader header() {
      return writer.header();
    }

    @Override
    public void advance(long now) throws IOException {
      before();
      writer.advance(now);
    }

    @Override
    public void schedule(long id, long delay) throws IOException {
      before();
      writer.schedule(id, delay);
    }

    @Override
    public void scheduleWithin(long id, long delay, long range) throws IOException {
      before();
      writer.scheduleWithin(id, delay, range);
    }

    @Override
    public void cancel(long id) throws IOException {
      before();
      writer.cancel(id);
    }

    @Override
    public void reschedule(long id, long delay) throws IOException {
      before();
      writer.reschedule(id, delay);
    }

    @Override
    public void clear() throws IOException {
      before();
      writer.clear();
    }

    @Override
    public void dropped(long count) throws IOException {
      before();
      writer.dropped(count);
    }

    @Override
    public long records() {
      return writer.records();
    }

    @Override
    public void close() throws IOException {
      writer.close();
    }
  }
}
