package io.github.timerqueue.bench.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.timerqueue.bench.replay.RecordingOverhead.Overhead;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How the recording overhead is judged against the 20%, on hand-made measurements. */
class RecordingOverheadTest {

  /** A round whose owner takes {@code off} and {@code on} ns and whose writer takes {@code cpu}. */
  private static Overhead round(double off, double on, double cpu) {
    return new Overhead(off, on, off * 2, on * 2, cpu, 0, 950_000, 50, 60, 1_000, 100_000);
  }

  @Test
  void recordingTakesTheOwnersExtraTimeAndTheWritersCpuOutOfEachMicrosecond() {
    Overhead o = round(100, 130, 40);

    assertThat(o.shareOfBudget()).isEqualTo(0.07);
    assertThat(RecordingOverhead.verdict(o, "wheel"))
        .contains("offered a million operations per second (one every 1000 ns; 950,000 a second"
            + " achieved)")
        .contains("a median of 100.0 ns per operation without recording, 130.0 ns with (+30%)")
        .contains("writer thread: 40.0 ns of CPU per operation; 0 operations dropped")
        .contains("recording takes 7.0% of each operation's microsecond (owner +30.0 ns + writer"
            + " 40.0 ns): within the target of at most 20%")
        .contains("the recorder dropped 1,000 of 100,000 operations (1.0%)");
    assertThat(RecordingOverhead.verdict(round(100, 250, 80), "wheel"))
        .contains("23.0% of each operation's microsecond").contains("OVER the target");
  }

  @Test
  void theSummaryJudgesTheMedianRound() {
    List<Overhead> rounds = List.of(round(100, 300, 50), round(150, 110, 10), round(100, 110, 20));

    assertThat(RecordingOverhead.summary(rounds)).isEqualTo("Over 3 rounds, recording took 3.0%"
        + " of each operation's microsecond (the median; rounds from -3.0% to 25.0%): within the"
        + " target of at most 20%.");
    assertThat(RecordingOverhead.summary(List.of(round(100, 300, 50), round(100, 110, 20))))
        .contains("recording took 14.0%").contains("within");
    assertThat(RecordingOverhead.summary(List.of(round(100, 300, 50))))
        .contains("recording took 25.0%").contains("OVER the target");
  }
}
