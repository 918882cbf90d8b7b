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
    // Next best: 200 and 200, twice the least.
    assertThat(times.spread()).isCloseTo(1.0, within(1e-9));
  }

  @Test
  void aChunkWhoseNextBestMetAPreemptionDoesNotMakeTheSpread() {
    ChunkTimes times = new ChunkTimes();
    for (int pass = 0; pass < 2; pass++) {
      for (int chunk = 0; chunk < 5; chunk++) {
        boolean preempted = pass == 1 && chunk == 3;
        times.record(chunk, preempted ? 1_000_000 : 1_000 + 100 * pass, 10);
      }
    }

    // Four chunks 10% slower the second time, one 1000 times: the median chunk is 10% slower.
    assertThat(times.spread()).isCloseTo(0.1, within(1e-9));
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
