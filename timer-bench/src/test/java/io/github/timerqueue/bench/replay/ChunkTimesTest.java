package io.github.timerqueue.bench.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class ChunkTimesTest {

  @Test
  void eachChunkCountsWithItsLeastTimeAndTheSpreadComparesTheNextBest() {
    ChunkTimes times = new ChunkTimes();
    // Three passes over two chunks of 10 records.
    times.record(0, 100, 10);
    times.record(1, 300, 10);
    times.record(0, 200, 10);
    times.record(1, 100, 10);
    times.record(0, 5_000, 10); // a preemption: neither least nor next-best
    times.record(1, 200, 10);

    // Least: 100 + 100 over 20 records.
    assertThat(times.nanosPerRecord()).isEqualTo(10.0);
    // Next best: 200 + 200, twice the least.
    assertThat(times.spread()).isCloseTo(1.0, within(1e-9));
  }

  @Test
  void theSpreadNeedsEveryChunkTimedTwice() {
    ChunkTimes times = new ChunkTimes();
    assertThat(times.nanosPerRecord()).isNaN();
    assertThat(times.spread()).isNaN();

    times.record(0, 100, 10);
    times.record(2, 500, 10);
    assertThat(times.nanosPerRecord()).isEqualTo(30.0);
    assertThat(times.spread()).isNaN();

    times.record(0, 100, 10);
    times.record(2, 500, 10);
    assertThat(times.spread()).isZero();
  }
}
