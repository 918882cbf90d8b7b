package io.github.timerqueue.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.AverageTimeResult;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.IterationResultMetaData;
import org.openjdk.jmh.results.ResultRole;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.ScalarResult;
import org.openjdk.jmh.results.format.ResultFormatFactory;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.IterationType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.WorkloadParams;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The merge of forks run in rounds: on results built by hand, whose every iteration has a score of
 * its own, so that a fork dropped or a fork given to the wrong benchmark moves the aggregate; and
 * on two real in-process JMH runs, whose parameters must match across runs and keep JMH's order.
 */
class InterleavedForksTest {
  private static final Map<String, List<String>> VALUES = Map.of(
      "strategy", List.of("heap", "agrona"), "pending", List.of("1000", "1000000"));

  @Test
  void eachBenchmarkHoldsItsForksOfEveryRoundInRoundOrder() {
    InterleavedForks forks = new InterleavedForks(VALUES);
    forks.add(List.of(run("heap", fork("heap", 10, 12)), run("agrona", fork("agrona", 100, 102))));
    forks.add(List.of(run("heap", fork("heap", 20, 22)), run("agrona", fork("agrona", 200, 202))));

    List<RunResult> merged = forks.merged();

    assertThat(merged).extracting(r -> r.getParams().getParam("strategy"))
        .containsExactly("heap", "agrona");
    assertThat(scores(merged.get(0))).containsExactly(List.of(10.0, 12.0), List.of(20.0, 22.0));
    assertThat(scores(merged.get(1)))
        .containsExactly(List.of(100.0, 102.0), List.of(200.0, 202.0));
    assertThat(merged).extracting(r -> r.getParams().getForks()).containsExactly(2, 2);

    // The aggregate over all four iterations: the mean, and the statistics of four samples.
    BenchmarkResult heap = merged.get(0).getAggregatedResult();
    assertThat(heap.getPrimaryResult().getScore()).isEqualTo(16.0);
    assertThat(heap.getPrimaryResult().getStatistics().getN()).isEqualTo(4);
    assertThat(merged.get(1).getAggregatedResult().getPrimaryResult().getScore()).isEqualTo(151.0);
    // The profilers' secondary results average over the same iterations.
    assertThat(heap.getSecondaryResults().get(Measurement.ALLOCATED).getScore()).isEqualTo(1.6);
    assertThat(heap.getSecondaryResults().get(ProcessCpuProfiler.PROCESS).getScore())
        .isEqualTo(32.0);
    assertThat(heap.getSecondaryResults().get(ProcessCpuProfiler.PROCESS).getStatistics().getN())
        .isEqualTo(4);
  }

  @Test
  void theAggregateIsJmhsForAsManyForksOfOneRun() {
    BenchmarkResult first = fork("heap", 10, 12);
    BenchmarkResult second = fork("heap", 20, 28);
    InterleavedForks forks = new InterleavedForks(VALUES);
    forks.add(List.of(run("heap", first)));
    forks.add(List.of(run("heap", second)));

    BenchmarkResult merged = forks.merged().get(0).getAggregatedResult();
    BenchmarkResult jmhs = new RunResult(params("heap", "1000", 2), List.of(first, second))
        .getAggregatedResult();

    assertThat(merged.getPrimaryResult().getScore())
        .isEqualTo(jmhs.getPrimaryResult().getScore());
    assertThat(merged.getPrimaryResult().getScoreError())
        .isEqualTo(jmhs.getPrimaryResult().getScoreError()).isPositive();
    assertThat(merged.getSecondaryResults().keySet())
        .isEqualTo(jmhs.getSecondaryResults().keySet());
    jmhs.getSecondaryResults().forEach((label, result) ->
        assertThat(merged.getSecondaryResults().get(label).getScore()).as(label)
            .isEqualTo(result.getScore()));
  }

  @Test
  void aBenchmarkWhoseForkFailedInARoundHoldsFewerForksAndSaysSo() {
    InterleavedForks forks = new InterleavedForks(VALUES);
    forks.add(List.of(run("heap", fork("heap", 10, 12)), run("agrona", fork("agrona", 100, 102))));
    forks.add(List.of(run("heap", fork("heap", 20, 22))));

    List<RunResult> merged = forks.merged();

    assertThat(merged).extracting(r -> r.getParams().getForks()).containsExactly(2, 1);
    assertThat(merged.get(1).getAggregatedResult().getPrimaryResult().getScore())
        .isEqualTo(101.0);
    assertThat(Compare.shortOfForks(merged, 2)).hasSize(1).first()
        .asString().isEqualToNormalizingWhitespace("schedule+cancel agrona 1,000: 1 of 2 forks");
  }

  @Test
  void mergedParametersAreJmhsButForTheForkCount() {
    BenchmarkParams original = params("agrona", "1000000", 1);
    InterleavedForks forks = new InterleavedForks(VALUES);
    forks.add(List.of(run("agrona", "1000000", fork(original, 10, 12))));
    forks.add(List.of(run("agrona", "1000000", fork(original, 20, 22))));

    BenchmarkParams merged = forks.merged().get(0).getParams();

    assertThat(merged.getForks()).isEqualTo(2);
    assertThat(merged).usingRecursiveComparison().ignoringFields("forks").isEqualTo(original);
    assertThat(merged.compareTo(params("heap", "1000000", 1))).isPositive();
    assertThat(merged.compareTo(params("agrona", "1000", 1))).isPositive();
  }

  @Test
  void jmhsJsonWritesEveryRoundsForkAndTheirCount() {
    InterleavedForks forks = new InterleavedForks(VALUES);
    forks.add(List.of(run("heap", fork("heap", 10, 12))));
    forks.add(List.of(run("heap", fork("heap", 20, 22))));
    ByteArrayOutputStream json = new ByteArrayOutputStream();

    ResultFormatFactory.getInstance(ResultFormatType.JSON,
        new PrintStream(json, true, StandardCharsets.UTF_8)).writeOut(forks.merged());

    String written = json.toString(StandardCharsets.UTF_8).replaceAll("\\s", "");
    assertThat(written).contains("\"forks\":2,")
        .contains("\"rawData\":[[10.0,12.0],[20.0,22.0]]");
  }

  @Test
  void aValueNotGivenToJmhIsRefused() {
    InterleavedForks forks = new InterleavedForks(Map.of(
        "strategy", List.of("heap"), "pending", List.of("1000")));
    forks.add(List.of(run("agrona", fork("agrona", 1, 2))));

    assertThatThrownBy(forks::merged)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("strategy=agrona was not given to JMH");
  }

  @Test
  void realRunsOfTheSameBenchmarksMergeAndKeepJmhsOrder() throws RunnerException {
    Map<String, List<String>> values = Map.of(
        "strategy", List.of("wheel", "heap"), "pending", List.of("64"));
    InterleavedForks forks = new InterleavedForks(values);
    List<RunResult> first = new ArrayList<>(runNextExpiryDelay(values));
    forks.add(first);
    forks.add(runNextExpiryDelay(values));

    List<RunResult> merged = forks.merged();

    assertThat(merged).hasSize(2);
    for (int i = 0; i < merged.size(); i++) {
      RunResult one = merged.get(i);
      assertThat(one.getParams().compareTo(first.get(i).getParams())).isZero();
      assertThat(one.getBenchmarkResults()).hasSize(2);
      assertThat(one.getAggregatedResult().getPrimaryResult().getStatistics().getN())
          .isEqualTo(2);
    }
    // JMH sorts by the order of each value in its list: wheel first, as it was given first.
    assertThat(merged.get(0).getParams().compareTo(merged.get(1).getParams())).isNegative();
    assertThat(merged.get(0).getParams().getParam("strategy")).isEqualTo("wheel");
  }

  private static Collection<RunResult> runNextExpiryDelay(Map<String, List<String>> values)
      throws RunnerException {
    ChainedOptionsBuilder options = BriefRuns.of(NextExpiryDelayBenchmark.class)
        .mode(Mode.AverageTime);
    values.forEach((name, list) -> options.param(name, list.toArray(String[]::new)));
    return new Runner(options.build()).run();
  }

  /** Each fork's iterations as their primary scores, fork by fork. */
  private static List<List<Double>> scores(RunResult run) {
    List<List<Double>> forks = new ArrayList<>();
    for (BenchmarkResult fork : run.getBenchmarkResults()) {
      List<Double> iterations = new ArrayList<>();
      for (IterationResult iteration : fork.getIterationResults()) {
        iterations.add(iteration.getPrimaryResult().getScore());
      }
      forks.add(iterations);
    }
    return forks;
  }

  private static RunResult run(String strategy, BenchmarkResult fork) {
    return run(strategy, "1000", fork);
  }

  private static RunResult run(String strategy, String pending, BenchmarkResult fork) {
    return new RunResult(params(strategy, pending, 1), List.of(fork));
  }

  private static BenchmarkResult fork(String strategy, double... nanos) {
    return fork(params(strategy, "1000", 1), nanos);
  }

  /**
   * One fork whose iterations score {@code nanos} ns/op, allocate a tenth of that in bytes and
   * take twice that in process CPU.
   */
  private static BenchmarkResult fork(BenchmarkParams params, double... nanos) {
    List<IterationResult> iterations = new ArrayList<>();
    for (double score : nanos) {
      IterationResult iteration = new IterationResult(
          params, params.getMeasurement(), new IterationResultMetaData(1_000, 1_000));
      iteration.addResult(new AverageTimeResult(
          ResultRole.PRIMARY, "scheduleCancel", 1_000, (long) (score * 1_000),
          TimeUnit.NANOSECONDS));
      iteration.addResult(new ScalarResult(
          Measurement.ALLOCATED, score / 10, "B/op", AggregationPolicy.AVG));
      iteration.addResult(new ScalarResult(
          ProcessCpuProfiler.PROCESS, score * 2, "ns/op", AggregationPolicy.AVG));
      iterations.add(iteration);
    }
    return new BenchmarkResult(params, iterations);
  }

  /** A fork's parameters as JMH gives them, each value's order its position in {@link #VALUES}. */
  private static BenchmarkParams params(String strategy, String pending, int forks) {
    WorkloadParams workload = new WorkloadParams();
    workload.put("strategy", strategy, VALUES.get("strategy").indexOf(strategy));
    workload.put("pending", pending, VALUES.get("pending").indexOf(pending));
    return new BenchmarkParams(
        ScheduleCancelBenchmark.class.getName() + ".scheduleCancel",
        "generated.ScheduleCancelBenchmark_scheduleCancel_jmhTest", true, 1, new int[] {1},
        List.of(), forks, 0,
        new IterationParams(IterationType.WARMUP, 3, TimeValue.milliseconds(250), 1),
        new IterationParams(IterationType.MEASUREMENT, 2, TimeValue.milliseconds(150), 1),
        Mode.AverageTime, workload, TimeUnit.NANOSECONDS, 1, "/usr/bin/java",
        List.of("-Xmx2g"), "17.0.9", "OpenJDK 64-Bit Server VM", "17.0.9+9", "1.37",
        TimeValue.minutes(10));
  }
}
