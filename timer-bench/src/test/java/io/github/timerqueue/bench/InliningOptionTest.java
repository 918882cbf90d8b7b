package io.github.timerqueue.bench;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Agrona is measured only in a JVM whose compiler inlines {@code scheduleTimer} into its handler
 * ({@link AgronaWheels#INLINE_SCHEDULE_TIMER}); the strategies need nothing.
 */
class InliningOptionTest {

  @Test
  void agronaIsRefusedWithoutTheOption() {
    assertThatThrownBy(() -> AgronaWheels.requireInliningOption(Contenders.AGRONA,
        List.of("-Xms2g", "-Xmx2g")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(AgronaWheels.INLINE_SCHEDULE_TIMER)
        .hasMessageContaining("-Xmx2g");
  }

  @Test
  void agronaIsMeasuredWithTheOption() {
    assertThatCode(() -> AgronaWheels.requireInliningOption(Contenders.AGRONA,
        List.of("-Xmx2g", AgronaWheels.INLINE_SCHEDULE_TIMER))).doesNotThrowAnyException();
  }

  @Test
  void strategiesNeedNoOption() {
    assertThatCode(() -> AgronaWheels.requireInliningOption("heap", List.of()))
        .doesNotThrowAnyException();
  }

  @Test
  void theSmokeTestsJvmHasTheOption() {
    // The smoke tests run Agrona's benchmarks in this JVM; the pom's argLine gives the option.
    assertThatCode(() -> AgronaWheels.requireInliningOption(Contenders.AGRONA))
        .doesNotThrowAnyException();
  }
}
