package io.github.timerqueue.hitime;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.timerqueue.conformance.ModulePathProviders;
import org.junit.jupiter.api.Test;

class HiTimeModulePathTest {

  @Test
  void hitimeIsProvidedThroughModuleInfo() throws Exception {
    assertThat(ModulePathProviders.names(HiTimeTimerQueueProvider.class)).contains("hitime");
  }
}
