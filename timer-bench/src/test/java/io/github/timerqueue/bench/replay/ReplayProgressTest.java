package io.github.timerqueue.bench.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ReplayProgressTest {
  private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
  private final PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);

  private String lines() {
    return printed.toString(StandardCharsets.UTF_8);
  }

  private static void sleep() throws InterruptedException {
    Thread.sleep(20);
  }

  @Test
  void aPassPrintsItsShareAndTheTimeLeftForItAndForTheWholeReplay() throws InterruptedException {
    ReplayProgress progress = new ReplayProgress(out, 3, 1, 1_000, 0);
    progress.begin("wheel");

    // The warm-up stops after 100 records; 50 records in, it has read 40 bytes of 1,000.
    progress.phase("warm-up", 100, 2);
    sleep();
    progress.at(50, 40);
    progress.phase("measure 1/1", ReplayProgress.WHOLE_TRACE, 1);
    sleep();
    progress.at(5_000, 250);

    // The warm-up, still compiling, does not tell how long the rest takes.
    assertThat(lines()).containsPattern(
        "    wheel, warm-up: 50% of this pass, about \\d+:\\d\\d left for it\n");
    assertThat(lines()).containsPattern(
        "    wheel, measure 1/1: 25% of this pass, about \\d+:\\d\\d left for it, \\d+:\\d\\d for"
            + " the whole replay\n");
    progress.done("12 ns/op");
    assertThat(lines()).contains("[2/3] wheel");
  }

  @Test
  void nothingIsPrintedBeforeTheFirstRecordsOrSoonerThanAsked() {
    ReplayProgress progress = new ReplayProgress(out, 1, 0, 1_000);
    progress.begin("heap");
    progress.phase("measure 1/1", ReplayProgress.WHOLE_TRACE, 0);
    progress.at(0, 0);
    progress.at(100, 10);

    assertThat(lines()).isEmpty();
  }
}
