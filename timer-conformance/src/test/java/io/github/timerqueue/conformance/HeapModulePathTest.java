package io.github.timerqueue.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** timer-api registers the reference strategy through its module-info as well. */
class HeapModulePathTest {

  @Test
  void heapIsProvidedThroughModuleInfo() throws Exception {
    assertThat(ModulePathProviders.names()).containsExactly("heap");
  }
}
