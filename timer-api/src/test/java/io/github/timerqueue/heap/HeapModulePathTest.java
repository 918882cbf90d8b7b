package io.github.timerqueue.heap;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.timerqueue.conformance.ModulePathProviders;
import org.junit.jupiter.api.Test;

class HeapModulePathTest {

  @Test
  void heapIsProvidedThroughModuleInfo() throws Exception {
    assertThat(ModulePathProviders.names()).containsExactly("heap");
  }
}
