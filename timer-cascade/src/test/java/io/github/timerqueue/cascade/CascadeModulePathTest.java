package io.github.timerqueue.cascade;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.timerqueue.conformance.ModulePathProviders;
import org.junit.jupiter.api.Test;

class CascadeModulePathTest {

  @Test
  void cascadeIsProvidedThroughModuleInfo() throws Exception {
    assertThat(ModulePathProviders.names(CascadeTimerQueueProvider.class)).contains("cascade");
  }
}
