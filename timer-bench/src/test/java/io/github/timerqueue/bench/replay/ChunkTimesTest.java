package io.github.timerqueue.bench.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class ChunkTimesTest {

  @Test
  void eachChunkCountsWithItsLeastTimeAndTheSpreadIsTheSlowestPassAgainstThat() {
    ChunkTimes times = new ChunkTimes();
    // Pass 1: 100 + 300 ns for 20 records; pass 2: 200 + 100 ns. Least: 100 + 100 = 10 ns/record.
    times.record(0, 100, 10);
    times.record(1, 300, 10);
    times.record(0, 200, 10);
    times.record(1, 100, 10);

    assertThat(times.nanosPerRecord()).isEqualTo(10.0);
    // The slowest pass took 400 ns for 20 records, 20 ns/record: 100% slower than the best.
    assertThat(times.spread()).isCloseTo(1.0, within(1e-9));
  }

  @Test
  void onePassHasNoSpreadAndNothingTimedHasNone() {
    ChunkTimes times = new ChunkTimes();
    assertThat(times.spread()).isNaN();

    times.record(0, 100, 10);
    times.record(2, 500, 10);
    assertThat(times.spread()).isZero();
  }
}
