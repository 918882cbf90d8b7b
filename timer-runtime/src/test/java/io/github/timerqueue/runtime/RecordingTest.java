package io.github.timerqueue.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerHandle;
import io.github.timerqueue.TimerQueue;
import io.github.timerqueue.TimerQueues;
import io.github.timerqueue.trace.TraceHeader;
import io.github.timerqueue.trace.TraceOp;
import io.github.timerqueue.trace.TraceReader;
import io.github.timerqueue.trace.TraceRecorder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link TimerService.Builder#record}: the queue the timer thread owns is recorded into a trace,
 * which reads back with the operations the service performed and replays to the same expiries.
 */
@org.junit.jupiter.api.Timeout(30)
class RecordingTest {
  private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

  @TempDir Path dir;

  /** One record of the trace, as text: the operation and its fields. */
  private static String describe(TraceOp op, TraceReader trace) {
    switch (op) {
      case ADVANCE:
        return "advance " + trace.time() / MS;
      case SCHEDULE:
      case RESCHEDULE:
        return op.name().toLowerCase() + " " + trace.id() + " +" + trace.delay() / MS;
      case CANCEL:
        return "cancel " + trace.id();
      default:
        return op.name().toLowerCase();
    }
  }

  private static List<String> read(Path file) throws Exception {
    List<String> records = new ArrayList<>();
    try (TraceReader trace = TraceReader.open(file)) {
      for (TraceOp op; (op = trace.next()) != null; ) {
        records.add(describe(op, trace));
      }
    }
    return records;
  }

  /** Replays the trace into a fresh heap queue; returns the ids that fired, with their time. */
  private static List<String> replay(Path file) throws Exception {
    List<String> fired = new ArrayList<>();
    try (TraceReader trace = TraceReader.open(file)) {
      TraceHeader header = trace.header();
      TimerQueue<Long> queue = TimerQueues.create("heap", TimerConfig.builder()
          .startTime(header.startTime()).resolution(header.resolution()).build());
      List<TimerHandle<Long>> timers = new ArrayList<>();
      for (TraceOp op; (op = trace.next()) != null; ) {
        switch (op) {
          case SCHEDULE -> timers.add(queue.schedule(queue.now() + trace.delay(), trace.id()));
          case RESCHEDULE ->
              queue.reschedule(timers.get((int) trace.id()), queue.now() + trace.delay());
          case CANCEL -> queue.cancel(timers.get((int) trace.id()));
          case ADVANCE -> {
            long time = trace.time();
            queue.advance(time, timer -> fired.add(timer.payload() + "@" + time / MS));
          }
          default -> throw new AssertionError("not recorded by this test's service: " + op);
        }
      }
    }
    return fired;
  }

  @Test
  void aRecordingServiceWritesATraceThatReadsBackAndReplaysToTheSameExpiries() throws Exception {
    Path file = dir.resolve("service.trace");
    ManualTicker ticker = new ManualTicker();
    TraceRecorder recorder = TraceRecorder.start(file, TraceHeader.of(TimeUnit.NANOSECONDS, MS, 0));
    List<String> fired = new CopyOnWriteArrayList<>();
    TimerService timers = TimerService.builder()
        .strategy("wheel")
        .ticker(ticker)
        .record(recorder)
        .build();
    Timeout a = timers.newTimeout(t -> fired.add("0@" + ticker.read() / MS), 10,
        TimeUnit.MILLISECONDS);
    Timeout b = timers.newTimeout(t -> fired.add("1@" + ticker.read() / MS), 20,
        TimeUnit.MILLISECONDS);
    Timeout c = timers.newTimeout(t -> fired.add("2@" + ticker.read() / MS), 30,
        TimeUnit.MILLISECONDS);
    ticker.advance(Duration.ofMillis(5));
    b.cancel();
    c.reschedule(10, TimeUnit.MILLISECONDS);
    ticker.advance(Duration.ofMillis(20));
    timers.close();
    recorder.close();

    assertThat(a.isExpired()).isTrue();
    assertThat(fired).containsExactly("0@10", "2@15");
    List<String> records = read(file);
    assertThat(records.stream().filter(r -> !r.startsWith("advance")))
        .containsExactly("schedule 0 +10", "schedule 1 +20", "schedule 2 +30", "cancel 1",
            "reschedule 2 +10");
    assertThat(records).contains("advance 5", "advance 10", "advance 15", "advance 25");
    assertThat(replay(file)).isEqualTo(fired);
    assertThat(recorder.dropped()).isZero();
  }

  @Test
  void aDisabledRecorderRecordsNothingAndTheServiceRunsAsWithout() {
    ManualTicker ticker = new ManualTicker();
    List<Long> fired = new ArrayList<>();
    TimerService timers = TimerService.builder()
        .ticker(ticker)
        .record(TraceRecorder.disabled())
        .build();
    timers.newTimeout(t -> fired.add(ticker.read() / MS), 3, TimeUnit.MILLISECONDS);

    ticker.advance(Duration.ofMillis(5));

    assertThat(fired).containsExactly(3L);
    assertThat(timers.isRecording()).isFalse();
    timers.close();
  }
}
