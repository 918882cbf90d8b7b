package io.github.timerqueue.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.timerqueue.TimerQueues;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;

/**
 * Runs every benchmark method, in this JVM, on a tiny population, for every contender it applies to
 * (every registered strategy and Agrona), through the code JMH generated, for one iteration of a
 * few milliseconds: a benchmark that cannot set up, throws, or loses timers fails the build.
 * Nothing about the numbers is asserted beyond their presence.
 */
class BenchmarkSmokeTest {
  /** Small, but large enough for 16 distinct TTLs at the expiring workloads' flow. */
  private static final int TINY = 64;

  @TempDir
  Path results;

  @Test
  void everyBenchmarkRunsOnEveryContenderItApplies() throws Exception {
    List<Measurement> measurements = new ArrayList<>();
    List<Results.Row> rows = new ArrayList<>();
    for (Workload workload : Workload.values()) {
      List<String> contenders = new ArrayList<>();
      for (String contender : Contenders.names()) {
        if (workload.runsOn(contender)) {
          contenders.add(contender);
        }
      }
      List<String> ttls = workload == Workload.TTL ? List.of("1", "16") : List.of();

      Collection<RunResult> runs = runOnce(workload, contenders, ttls);

      assertThat(runs).as(workload.label()).hasSize(contenders.size() * Math.max(1, ttls.size()));
      for (RunResult run : runs) {
        Measurement m = Measurement.of(run.getAggregatedResult());
        assertThat(m.workload()).isEqualTo(workload);
        assertThat(m.pending()).isEqualTo(TINY);
        assertThat(m.nanos()).as(m.toString()).isPositive();
        measurements.add(m);
      }
      for (String count : ttls.isEmpty() ? List.of("0") : ttls) {
        rows.add(new Results.Row(workload, Integer.parseInt(count), TINY));
      }
    }

    // The launcher's rendering of the same results.
    Map<String, Double> memory = new LinkedHashMap<>();
    for (String contender : Contenders.names()) {
      memory.put(contender, 64.0);
    }
    Results all = new Results(
        List.of("smoke test"), Contenders.names(), rows, measurements, TINY, memory);
    String table = ResultTable.text(all);
    for (String contender : Contenders.names()) {
      assertThat(table).contains(contender);
    }
    assertThat(table).doesNotContain("failed");
    assertThat(ResultTable.markdown(all)).contains("| schedule+cancel | 64 |");
    Path png = results.resolve("chart.png");
    ResultChart.write(all, png);
    assertThat(Files.readAllBytes(png)).startsWith(0x89, 'P', 'N', 'G');
  }

  @Test
  void fullDrainRunsOnEveryStrategy() throws RunnerException {
    Collection<RunResult> runs = new Runner(BriefRuns.of(FullDrainBenchmark.class)
        .param("strategy", TimerQueues.strategies().toArray(String[]::new))
        .param("timers", "1000")
        .build()).run();

    assertThat(runs).hasSize(TimerQueues.strategies().size());
  }

  @Test
  void scheduleCancelAmongFewTtlsRunsOnEveryContender() throws RunnerException {
    Collection<RunResult> runs = new Runner(BriefRuns.of(TtlScheduleCancelBenchmark.class)
        .param("strategy", Contenders.names().toArray(String[]::new))
        .param("pending", String.valueOf(TINY))
        .build()).run();

    assertThat(runs).hasSize(Contenders.names().size() * 2);
  }

  @Test
  void agronaDoesNotRunWhatItsApiCannotExpress() {
    assertThatThrownBy(() -> runOnce(
        Workload.NEXT_EXPIRY_DELAY, List.of(Contenders.AGRONA), List.of()))
        .isInstanceOf(RunnerException.class);
  }

  @Test
  void memoryPerTimerIsMeasuredForEveryContender() {
    for (String contender : Contenders.names()) {
      assertThat(MemoryFootprint.bytesPerTimer(contender, TINY)).as(contender).isPositive();
    }
  }

  @Test
  void memoryPerTimerInTheFlowOfExpiringTimersIsMeasuredForEveryContender() {
    for (String contender : Contenders.names()) {
      assertThat(MemoryFootprint.bytesPerTimerInFlow(contender, TINY)).as(contender).isPositive();
    }
  }

  private static Collection<RunResult> runOnce(
      Workload workload, List<String> contenders, List<String> ttls) throws RunnerException {
    ChainedOptionsBuilder options = BriefRuns.of(workload.benchmark())
        .mode(Mode.AverageTime)
        .param("strategy", contenders.toArray(String[]::new))
        .param("pending", String.valueOf(TINY));
    if (!ttls.isEmpty()) {
      options.param("ttls", ttls.toArray(String[]::new));
    }
    return new Runner(options.build()).run();
  }
}
