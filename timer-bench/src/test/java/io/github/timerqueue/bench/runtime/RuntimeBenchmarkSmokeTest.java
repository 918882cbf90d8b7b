package io.github.timerqueue.bench.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs each runtime benchmark once, in this JVM, on a tiny configuration, for the reference
 * strategy and every peer: a contender that cannot start, throws, or loses a timeout fails the
 * build. Nothing about the numbers is asserted beyond their presence.
 */
class RuntimeBenchmarkSmokeTest {
  private static final List<String> CONTENDERS = List.of("heap", "netty", "kafka", "stpe");

  @Test
  void scheduleCancelRunsOnTheServiceAndEveryPeerFromOneAndFourThreads() throws Exception {
    Collection<RunResult> runs = runOnce(RuntimeScheduleCancelBenchmark.class, CONTENDERS);

    List<String> ran = new ArrayList<>();
    for (RunResult run : runs) {
      assertThat(run.getPrimaryResult().getScore()).as(run.getParams().toString()).isPositive();
      String method = run.getParams().getBenchmark();
      ran.add(run.getParams().getParam("impl") + "."
          + method.substring(method.lastIndexOf('.') + 1));
    }
    assertThat(ran).containsExactlyInAnyOrder(
        "heap.oneThread", "heap.fourThreads", "netty.oneThread", "netty.fourThreads",
        "kafka.oneThread", "kafka.fourThreads", "stpe.oneThread", "stpe.fourThreads");
  }

  @Test
  void rescheduleRunsOnTheServiceAndRefusesThePeers() throws Exception {
    Collection<RunResult> runs = runOnce(RuntimeRescheduleBenchmark.class, List.of("heap"));

    assertThat(runs).hasSize(2);
    for (String peer : RuntimeContenders.PEERS) {
      assertThatThrownBy(() -> runOnce(RuntimeRescheduleBenchmark.class, List.of(peer)))
          .as(peer)
          .isInstanceOf(RunnerException.class);
    }
  }

  @Test
  void everyTimerOfALatenessRunRunsAndIsRecordedOnce() throws Exception {
    for (String impl : CONTENDERS) {
      for (long churnRate : new long[] {0, 100_000}) {
        Lateness lateness = LatenessUnderLoad.measure(impl, 2_000,
            TimeUnit.MILLISECONDS.toNanos(20), 2, churnRate, TimeUnit.SECONDS.toNanos(5));

        assertThat(lateness.ran()).as(impl).isEqualTo(2_000);
        assertThat(lateness.percentile(50)).as(impl)
            .isLessThanOrEqualTo(lateness.percentile(99.9))
            .isLessThanOrEqualTo(lateness.max());
      }
    }
  }

  @Test
  void idleTimerThreadsAreFoundByNameAndTheirWakeupsCounted() throws Exception {
    List<IdleWakeups.Rate> rates = IdleWakeups.measure(CONTENDERS, 300);

    assertThat(rates).extracting(IdleWakeups.Rate::impl).containsExactlyElementsOf(CONTENDERS);
    if (Files.isDirectory(Path.of("/proc/self/task"))) {
      for (IdleWakeups.Rate rate : rates) {
        assertThat(rate.contextSwitchesPerSecond()).as(rate.impl()).isNotNaN();
      }
    }
    assertThat(rates.get(0).serviceWakeupsPerSecond()).as("heap's own count").isNotNaN();
    assertThat(rates.get(1).serviceWakeupsPerSecond()).as("netty has none").isNaN();
  }

  @Test
  void theTableHasALinePerContenderAndSaysWhatWasNotMeasured() {
    Lateness lateness = new Lateness("heap", new long[] {3_000_000, 1_000_000, 2_000_000}, 4);
    List<RuntimeRow> rows = List.of(
        new RuntimeRow("heap", 5e6, 4e6, 24, 24, 2e7, 1e7, lateness,
            new IdleWakeups.Rate("heap", 0, 0)),
        new RuntimeRow("netty", 3e6, Double.NaN, 80, 80, Double.NaN, Double.NaN, null,
            new IdleWakeups.Rate("netty", 1000, Double.NaN)));

    String text = RuntimeTable.text(List.of("about"), rows);

    assertThat(text).contains("about").contains("heap").contains("5.00 M").contains("2.000 ms")
        .contains("3.000 ms (3 ran)").contains("netty").contains("n/a").contains("failed");
    assertThat(RuntimeTable.markdown(List.of("about"), rows))
        .contains("| heap | 5.00 M | 4.00 M | 24 | 24 | 20.00 M | 10.00 M |");
  }

  private static Collection<RunResult> runOnce(Class<?> benchmark, List<String> impls)
      throws RunnerException {
    return new Runner(new OptionsBuilder()
        .include("^" + Pattern.quote(benchmark.getName()) + "\\.")
        .param("impl", impls.toArray(String[]::new))
        .mode(Mode.Throughput)
        .forks(0)
        .warmupIterations(0)
        .measurementIterations(1)
        .measurementTime(TimeValue.milliseconds(20))
        .shouldFailOnError(true)
        .verbosity(VerboseMode.SILENT)
        .build()).run();
  }
}
