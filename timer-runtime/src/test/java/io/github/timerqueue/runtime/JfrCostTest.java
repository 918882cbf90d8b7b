package io.github.timerqueue.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.timerqueue.conformance.AllocationCounter;
import java.time.Duration;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;

/**
 * The late-timer event costs nothing while JFR does not record it: a late task's turn allocates no
 * event then, and does once a recording enables it. Counted in bytes on the turning thread (the
 * loop of a manual service runs on the test's thread), not timed.
 */
@org.junit.jupiter.api.Timeout(30)
class JfrCostTest {
  private static final TimerTask NOTHING = t -> { };

  /**
   * A turn that fires one task 49 ms late, with a 10 ms threshold; returns the bytes it allocated.
   * The task is scheduled and its request applied first, so that only the firing is counted.
   */
  private static long bytesOfALateTurn(ManualTimer timer) {
    timer.schedule(NOTHING, 1);
    timer.service.runOnce();
    return AllocationCounter.bytesAllocatedBy(() -> {
      timer.ticker.advance(50 * ManualTimer.MS);
      timer.service.runOnce();
    });
  }

  @Test
  void aLateTaskAllocatesNoEventUnlessARecordingEnablesIt() {
    ManualTimer timer = new ManualTimer("heap", 0,
        TimerService.builder().lateTimerThreshold(Duration.ofMillis(10)));
    for (int warm = 0; warm < 20; warm++) { // class loading, the first calls of each path
      bytesOfALateTurn(timer);
    }

    long off = bytesOfALateTurn(timer);
    long on;
    try (Recording recording = new Recording()) {
      recording.enable(LateTimerEvent.NAME);
      recording.start();
      bytesOfALateTurn(timer);
      on = bytesOfALateTurn(timer);
    }

    assertThat(off).as("bytes of a late turn with JFR off").isZero();
    assertThat(on).as("bytes of a late turn recorded").isPositive();
    assertThat(timer.failures).isEmpty();
  }
}
