package io.github.timerqueue.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AbstractTimerHandleTest {

  /** The smallest strategy handle: pending while its flag says so. */
  private static final class FlagTimer extends AbstractTimerHandle<String> {
    boolean pending;

    FlagTimer(String payload) {
      super(payload);
    }

    @Override
    public boolean isPending() {
      return pending;
    }
  }

  @Test
  void keepsThePayloadAndTheLastDeadlineSet() {
    FlagTimer timer = new FlagTimer("job-7");
    assertThat(timer.payload()).isEqualTo("job-7");
    assertThat(timer.deadline()).isZero();

    timer.setDeadline(Long.MIN_VALUE);
    assertThat(timer.deadline()).isEqualTo(Long.MIN_VALUE);
    timer.setDeadline(42);
    assertThat(timer.deadline()).isEqualTo(42);
  }

  @Test
  void namesTheStrategyClassDeadlinePendingAndPayload() {
    FlagTimer timer = new FlagTimer("job-7");
    timer.setDeadline(42);
    assertThat(timer).hasToString("FlagTimer{deadline=42, pending=false, payload=job-7}");
    timer.pending = true;
    assertThat(timer).hasToString("FlagTimer{deadline=42, pending=true, payload=job-7}");
  }
}
