package io.github.timerqueue.lawn;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.timerqueue.conformance.ModulePathProviders;
import org.junit.jupiter.api.Test;

class LawnModulePathTest {

  @Test
  void lawnIsProvidedThroughModuleInfo() throws Exception {
    assertThat(ModulePathProviders.names(LawnTimerQueueProvider.class)).contains("lawn");
  }
}
