package io.github.timerqueue.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.Test;

/** The striped event counters: every event counted once, whichever thread counts it. */
class LaneCountersTest {

  @Test
  void countersAreIndependentAndStartAtZero() {
    LaneCounters counters = new LaneCounters(8, 3);
    assertThat(counters.sum(0)).isZero();
    counters.increment(0);
    counters.increment(2);
    counters.increment(2);
    assertThat(counters.sum(0)).isEqualTo(1);
    assertThat(counters.sum(1)).isZero();
    assertThat(counters.sum(2)).isEqualTo(2);
  }

  @Test
  void threadsSharingOneLaneLoseNoCount() throws Exception {
    // One lane: one thread owns it and counts plainly, the others add atomically beside it.
    LaneCounters counters = new LaneCounters(1, 2);
    int threads = 8;
    int each = 200_000;
    CyclicBarrier start = new CyclicBarrier(threads);
    List<Thread> started = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread thread = new Thread(() -> {
        await(start);
        for (int i = 0; i < each; i++) {
          counters.increment(1);
        }
      });
      thread.start();
      started.add(thread);
    }
    for (Thread thread : started) {
      thread.join();
    }
    assertThat(counters.sum(1)).isEqualTo((long) threads * each);
    assertThat(counters.sum(0)).isZero();
  }

  @Test
  void aLaneWhoseOwnerEndedKeepsItsCountAndCountsOthers() throws Exception {
    LaneCounters counters = new LaneCounters(1, 1);
    for (int round = 1; round <= 3; round++) {
      Thread thread = new Thread(() -> {
        for (int i = 0; i < 1_000; i++) {
          counters.increment(0);
        }
      });
      thread.start();
      thread.join();
      assertThat(counters.sum(0)).isEqualTo(round * 1_000L);
    }
    counters.increment(0);
    assertThat(counters.sum(0)).isEqualTo(3_001);
  }

  @Test
  void rejectsLaneAndCounterNumbersItCannotHold() {
    assertThatThrownBy(() -> new LaneCounters(3, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("3");
    assertThatThrownBy(() -> new LaneCounters(0, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0");
    assertThatThrownBy(() -> new LaneCounters(4, 8))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("8");
    assertThatThrownBy(() -> new LaneCounters(4, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0");
  }

  private static void await(CyclicBarrier barrier) {
    try {
      barrier.await();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }
}
