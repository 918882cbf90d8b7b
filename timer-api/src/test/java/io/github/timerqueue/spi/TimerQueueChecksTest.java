package io.github.timerqueue.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TimerQueueChecksTest {

  @Test
  void rangeIsComparedBySignedDifference() {
    assertThatCode(() -> TimerQueueChecks.checkRange(5, 5)).doesNotThrowAnyException();
    assertThatCode(() -> TimerQueueChecks.checkRange(Long.MAX_VALUE, Long.MIN_VALUE))
        .as("across the wrap, MIN_VALUE comes just after MAX_VALUE").doesNotThrowAnyException();
    assertThatThrownBy(() -> TimerQueueChecks.checkRange(Long.MIN_VALUE, Long.MAX_VALUE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("earliest (-9223372036854775808) must not be after latest "
            + "(9223372036854775807)");
  }

  @Test
  void limitMustBePositive() {
    assertThatCode(() -> TimerQueueChecks.checkLimit(1)).doesNotThrowAnyException();
    assertThatThrownBy(() -> TimerQueueChecks.checkLimit(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("limit must be at least 1, but was 0");
  }

  @Test
  void advanceAndDrainAreRefusedFromAHandler() {
    assertThatCode(() -> TimerQueueChecks.checkNotInHandler(false, "advance"))
        .doesNotThrowAnyException();
    assertThatThrownBy(() -> TimerQueueChecks.checkNotInHandler(true, "drain"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("drain must not be called from a timer handler");
  }

  @Test
  void advanceChecksHandlerThenLimitThenReentry() {
    assertThatCode(() -> TimerQueueChecks.checkAdvance("handler", 1, false))
        .doesNotThrowAnyException();
    assertThatThrownBy(() -> TimerQueueChecks.checkAdvance(null, 0, true))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("onExpired");
    assertThatThrownBy(() -> TimerQueueChecks.checkAdvance("handler", 0, true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("limit must be at least 1, but was 0");
    assertThatThrownBy(() -> TimerQueueChecks.checkAdvance("handler", 1, true))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("advance must not be called from a timer handler");
  }

  @Test
  void foreignHandleIsNamed() {
    assertThat(TimerQueueChecks.foreignHandle("Timer{42}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("timer Timer{42} was not created by this queue");
  }
}
