package io.github.timerqueue.bench;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** {@link OperationCpu} refuses to measure Agrona in a JVM whose compiler may draw its slow mode. */
class OperationCpuTest {

  @Test
  void agronaIsRefusedWithoutTheInliningOption() {
    assertThatThrownBy(() -> OperationCpu.main(new String[] {"expire", "heap,agrona", "64", "1",
        "4"}))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(AgronaWheels.INLINE_SCHEDULE_TIMER);
  }
}
