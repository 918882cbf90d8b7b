package io.github.timerqueue.trace;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerHandle;
import io.github.timerqueue.TimerQueue;
import io.github.timerqueue.TimerQueues;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The recording example of the README's "Pick by your own workload", compiled and run. */
class ReadmeRecordingExampleTest {

  @Test
  void recordsWhatTheReadmeSays(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("timers.trace");
    long start = System.nanoTime();

    // README: begin
    TimerConfig config = TimerConfig.builder()
        .startTime(start)
        .resolution(1_000_000)                      // 1 ms
        .build();
    TraceRecorder recorder = TraceRecorder.start(file,
        TraceHeader.of(TimeUnit.NANOSECONDS, config.resolution(), config.startTime()));
    TimerQueue<String> timeouts =
        RecordingTimerQueue.wrap(TimerQueues.create("heap", config), recorder);  // any strategy

    TimerHandle<String> idle = timeouts.schedule(start + 30_000_000_000L, "connection 1");
    timeouts.reschedule(idle, start + 31_000_000_000L);
    timeouts.advance(start + 5_000_000, timer -> {});
    // ... and when the service stops:
    recorder.close();                                // then: timer-bench/run --trace timers.trace
    // README: end

    try (TraceReader trace = TraceReader.open(file)) {
      assertThat(Op.readAll(trace)).extracting(Op::op)
          .containsExactly(TraceOp.SCHEDULE, TraceOp.RESCHEDULE, TraceOp.ADVANCE);
    }
  }
}
