package io.github.timerqueue.wheel;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.timerqueue.conformance.ModulePathProviders;
import org.junit.jupiter.api.Test;

class WheelModulePathTest {

  @Test
  void wheelIsProvidedThroughModuleInfo() throws Exception {
    assertThat(ModulePathProviders.names(TimingWheelProvider.class)).contains("wheel");
  }
}
