package io.github.timerqueue.runtime;

import static io.github.timerqueue.runtime.ManualTimer.MS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The two JFR events, read back from a recording dumped to a file: a task later than the
 * threshold, and a producer held back by a full backlog.
 */
@org.junit.jupiter.api.Timeout(value = 60,
    threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
class JfrEventsTest {
  @TempDir Path dir;

  private static final class LateTask implements TimerTask {
    @Override
    public void run(Timeout timeout) {}
  }

  private List<RecordedEvent> record(Runnable workload) throws Exception {
    Path file = dir.resolve("events.jfr");
    try (Recording recording = new Recording()) {
      recording.enable(LateTimerEvent.NAME).withoutStackTrace();
      recording.enable(ThrottledEvent.NAME).withThreshold(Duration.ZERO);
      recording.start();
      workload.run();
      recording.stop();
      recording.dump(file);
    }
    return RecordingFile.readAllEvents(file);
  }

  private static List<RecordedEvent> named(List<RecordedEvent> events, String name) {
    return events.stream().filter(e -> e.getEventType().getName().equals(name)).toList();
  }

  @Test
  void aTaskLaterThanTheThresholdIsRecordedAndOneWithinItIsNot() throws Exception {
    ManualTimer timer = new ManualTimer("heap", 0,
        TimerService.builder().lateTimerThreshold(Duration.ofMillis(10)));
    timer.schedule(new LateTask(), 1);
    timer.schedule(t -> { }, 60);

    List<RecordedEvent> events = record(() -> {
      timer.at(50);  // the first, 49 ms late
      timer.at(65);  // the second, 5 ms late
    });

    List<RecordedEvent> late = named(events, LateTimerEvent.NAME);
    assertThat(late).hasSize(1);
    assertThat(late.get(0).getString("strategy")).isEqualTo("heap");
    assertThat(late.get(0).getDuration("lateness")).isEqualTo(Duration.ofMillis(49));
    assertThat(late.get(0).getDuration("threshold")).isEqualTo(Duration.ofMillis(10));
    assertThat(late.get(0).getString("task")).isEqualTo(LateTask.class.getName());
    assertThat(timer.failures).isEmpty();
  }

  @Test
  void theDefaultThresholdIsAHundredMilliseconds() throws Exception {
    ManualTimer timer = new ManualTimer("heap");
    timer.schedule(t -> { }, 1);
    timer.schedule(t -> { }, 150);

    List<RecordedEvent> events = record(() -> {
      timer.at(101); // the first, 100 ms late: not more than the threshold
      timer.at(251); // the second, 101 ms late
    });

    assertThat(named(events, LateTimerEvent.NAME)).singleElement()
        .satisfies(e -> assertThat(e.getDuration("lateness")).isEqualTo(Duration.ofMillis(101)));
    assertThat(TimerService.DEFAULT_LATE_TIMER_THRESHOLD).isEqualTo(Duration.ofMillis(100));
  }

  @Test
  void thresholdsOutsideTheRangeAreRejected() {
    assertThatThrownBy(() -> TimerService.builder().lateTimerThreshold(Duration.ofNanos(-1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("PT-0.000000001S");
    assertThatThrownBy(() -> TimerService.builder().lateTimerThreshold(Duration.ofDays(300 * 365)))
        .isInstanceOf(IllegalArgumentException.class);
    TimerService.builder().lateTimerThreshold(Duration.ZERO);
  }

  @Test
  void aProducerHeldBackByAFullBacklogIsRecordedWithItsWait() throws Exception {
    TimerService timers = TimerService.builder()
        .strategy("wheel")
        .maxBacklog(RequestQueue.MAX_LANES)
        .build();
    long perLane = RequestQueue.MAX_LANES
        / RequestQueue.lanesFor(Runtime.getRuntime().availableProcessors());
    CountDownLatch gate = new CountDownLatch(1);
    AtomicInteger returned = new AtomicInteger();
    try {
      List<RecordedEvent> events = record(() -> {
        // The first task holds the timer thread at the gate; the producer's due timeouts fill its
        // lane's share of the backlog, and it waits until the gate opens.
        Thread producer = new Thread(() -> {
          for (int i = 0; i < perLane + 3; i++) {
            timers.newTimeout(t -> gate.await(), 0, TimeUnit.MILLISECONDS);
            returned.incrementAndGet();
          }
        }, "producer");
        producer.start();
        try {
          while (timers.stats().throttled() == 0) {
            Thread.sleep(1);
          }
          Thread.sleep(20);
          gate.countDown();
          producer.join();
        } catch (InterruptedException e) {
          throw new AssertionError(e);
        }
      });

      assertThat(returned).hasValue((int) perLane + 3);
      List<RecordedEvent> throttled = named(events, ThrottledEvent.NAME);
      assertThat(throttled).hasSize((int) timers.stats().throttled());
      assertThat(throttled.get(0).getThread().getJavaName()).isEqualTo("producer");
      assertThat(throttled.get(0).getLong("laneShare")).isEqualTo(perLane);
      assertThat(throttled.get(0).getDuration()).isGreaterThanOrEqualTo(Duration.ofMillis(10));
    } finally {
      gate.countDown();
      timers.close();
    }
  }
}
