package io.github.timerqueue.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerHandle;
import io.github.timerqueue.TimerQueue;
import io.github.timerqueue.TimerQueues;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecordingTimerQueueTest {

  private static final long START = Long.MAX_VALUE - 100;

  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final TraceRecorder recorder;
  private final RecordingTimerQueue<String> queue;

  RecordingTimerQueueTest() throws IOException {
    recorder = TraceRecorder.start(TraceWriter.text(bytes, new TraceHeader(1, 1, START)), 1024);
    queue = RecordingTimerQueue.wrap(
        TimerQueues.create("heap", TimerConfig.builder().startTime(START).build()), recorder);
  }

  private List<Op> trace() throws IOException {
    recorder.close();
    try (TraceReader reader = TraceReader.open(new ByteArrayInputStream(bytes.toByteArray()))) {
      return Op.readAll(reader);
    }
  }

  @Test
  void recordsEachOperationWithTheTimersIdentityDelayAndClock() throws IOException {
    TimerHandle<String> request = queue.schedule(START + 50, "request");
    TimerHandle<String> idle = queue.scheduleWithin(START + 30, START + 40, "idle");
    List<String> fired = new ArrayList<>();
    queue.advance(START + 45, timer -> {
      fired.add(timer.payload());
      queue.reschedule(timer, queue.now() + 30);     // a periodic timer re-arms itself
    });
    queue.cancel(request);
    queue.reschedule(request, START + 200);          // re-armed: same identity
    queue.advance(START + 10, timer -> {});          // earlier: the clock stays
    queue.clear();
    queue.drain(timer -> {});

    assertThat(fired).containsExactly("idle");
    assertThat(idle.isPending()).isFalse();          // cleared
    long now = START + 45;
    assertThat(trace()).containsExactly(
        new Op(TraceOp.SCHEDULE, START, 0, 50, 0, 0),
        new Op(TraceOp.SCHEDULE_WITHIN, START, 1, 30, 10, 0),
        new Op(TraceOp.ADVANCE, now, 0, 0, 0, 0),
        new Op(TraceOp.RESCHEDULE, now, 1, 30, 0, 0),
        new Op(TraceOp.CANCEL, now, 0, 0, 0, 0),
        new Op(TraceOp.RESCHEDULE, now, 0, 155, 0, 0),
        new Op(TraceOp.ADVANCE, now, 0, 0, 0, 0),
        new Op(TraceOp.CLEAR, now, 0, 0, 0, 0),
        new Op(TraceOp.CLEAR, now, 0, 0, 0, 0));
  }

  @Test
  void aCallThatThrowsLeavesNoRecord() throws IOException {
    TimerQueue<String> other = TimerQueues.create("heap");
    TimerHandle<String> foreign = other.schedule(1, "x");

    assertThatThrownBy(() -> queue.scheduleWithin(START + 5, START + 4, "x"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> queue.cancel(foreign))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not created by this recording queue");
    assertThatThrownBy(() -> queue.advance(START + 1, timer -> {}, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> queue.schedule(START, null))
        .isInstanceOf(NullPointerException.class);

    assertThat(trace()).isEmpty();
    assertThat(queue.now()).isEqualTo(START);
  }

  @Test
  void refusesAQueueThatAlreadyHoldsTimers() {
    TimerQueue<String> busy = TimerQueues.create("heap");
    busy.schedule(5, "x");

    assertThatThrownBy(() -> RecordingTimerQueue.wrap(busy, TraceRecorder.disabled()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must be empty, but it holds 1 timers");
  }

  @Test
  void withTheDisabledRecorderItIsTheWrappedQueue() {
    RecordingTimerQueue<String> plain =
        RecordingTimerQueue.wrap(TimerQueues.create("heap"), TraceRecorder.disabled());
    TimerHandle<String> timer = plain.schedule(5, "x");
    List<String> fired = new ArrayList<>();

    plain.advance(5, t -> fired.add(t.payload()));

    assertThat(fired).containsExactly("x");
    assertThat(timer.isPending()).isFalse();
    assertThat(plain.strategy()).isEqualTo("heap");
  }
}
