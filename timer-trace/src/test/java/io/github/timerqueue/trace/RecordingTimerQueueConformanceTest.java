package io.github.timerqueue.trace;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerQueue;
import io.github.timerqueue.conformance.TimerQueueConformanceTest;
import java.io.IOException;
import java.io.OutputStream;
import org.junit.jupiter.api.AfterAll;

/**
 * The recording queue keeps the whole {@code TimerQueue} contract: the conformance suite, on queues
 * that record everything the suite does into a live recorder.
 */
class RecordingTimerQueueConformanceTest extends TimerQueueConformanceTest {

  /**
   * One recorder for every queue of the suite (its tests run one at a time, so it has one recording
   * thread at a time), writing text to nowhere: the trace of many queues is not one clock, but the
   * text form does not mind.
   */
  private static final TraceRecorder RECORDER = start();

  private static TraceRecorder start() {
    try {
      return TraceRecorder.start(
          TraceWriter.text(OutputStream.nullOutputStream(), new TraceHeader(0, 1, 0)), 1 << 12);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  @AfterAll
  static void stop() {
    try {
      RECORDER.close();
    } catch (IOException ignored) {
      // queues of different clocks interleave in one trace, which the writer may refuse
    }
  }

  @Override
  protected String strategy() {
    return "heap";
  }

  @Override
  protected <T> TimerQueue<T> create(TimerConfig config) {
    return RecordingTimerQueue.wrap(super.create(config), RECORDER);
  }
}
