package io.github.timerqueue.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The counter sees what the workload allocates, and charges nothing of its own. */
class AllocationCounterTest {
  private static volatile Object sink;

  @Test
  void countsWhatTheWorkloadAllocates() {
    long allocated = AllocationCounter.bytesAllocatedBy(() -> sink = new long[1 << 17]);

    assertThat(allocated).isBetween(8L << 17, (8L << 17) + 1024);
  }

  @Test
  void chargesNothingToAWorkloadThatAllocatesNothing() {
    long[] counter = {0};
    long fewest = Long.MAX_VALUE;
    for (int attempt = 0; attempt < 5; attempt++) {
      fewest = Math.min(fewest, AllocationCounter.bytesAllocatedBy(() -> counter[0]++));
    }

    assertThat(fewest).isZero();
  }

  @Test
  void rejectsANullWorkload() {
    assertThatThrownBy(() -> AllocationCounter.bytesAllocatedBy(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("workload");
  }
}
