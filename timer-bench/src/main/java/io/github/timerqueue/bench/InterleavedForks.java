package io.github.timerqueue.bench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.WorkloadParams;

/**
 * One batch's forks, run in rounds of one fork each and merged into the results JMH would have
 * returned had it run them as forks of one run: a result per benchmark and set of parameters,
 * holding every round's fork of it in round order, so that its aggregated primary and secondary
 * results (the GC profiler's and {@link ProcessCpuProfiler}'s included) are JMH's over all those
 * forks' iterations, and its parameters say how many forks it holds ({@link
 * BenchmarkParams#getForks()}, which JMH's JSON writes as {@code "forks"}).
 *
 * <p>Implementation notes: JMH runs a benchmark's forks back to back, so on a machine whose speed
 * drifts over minutes the contenders of one run are measured at different speeds; rounds spread
 * each contender's forks over the whole run. A benchmark is matched across rounds by {@link
 * BenchmarkParams#equals}, which compares the benchmark, the mode and the parameter values, not
 * the fork count. The merged parameters are the first round's with the fork count replaced; the
 * rest is copied through the public constructor, and the parameter values are given the order JMH
 * gives them (each value's position in the list it was passed in), since {@link BenchmarkParams}
 * does not hand its {@link WorkloadParams} out and JMH sorts results by that order. A fork that
 * failed leaves its round without the benchmark (JMH returns no result for a failed run). Where
 * JMH would drop a benchmark one of whose n forks failed, the merge keeps the forks of the rounds
 * that succeeded, and its fork count says how many they are: the launcher names such a benchmark
 * and does not count the comparison complete.
 */
final class InterleavedForks {
  private final Map<String, List<String>> values;
  private final Map<BenchmarkParams, List<BenchmarkResult>> forks = new LinkedHashMap<>();

  /**
   * Creates an empty merge for a batch.
   *
   * @param values each JMH parameter's values in the order JMH was given them ({@link
   *     Compare.Batch#params()})
   */
  InterleavedForks(Map<String, List<String>> values) {
    this.values = values;
  }

  /**
   * Adds one round's results: each benchmark's forks join those of the earlier rounds.
   *
   * @param round what JMH's runner returned for the batch in this round
   */
  void add(Collection<RunResult> round) {
    for (RunResult run : round) {
      forks.computeIfAbsent(run.getParams(), params -> new ArrayList<>())
          .addAll(run.getBenchmarkResults());
    }
  }

  /**
   * The merged results, one per benchmark and set of parameters that succeeded in at least one
   * round, in the order they first came (within a round, JMH's).
   *
   * @return JMH's results as if it had run each benchmark's forks of every round as one run
   */
  List<RunResult> merged() {
    List<RunResult> merged = new ArrayList<>();
    forks.forEach((params, results) ->
        merged.add(new RunResult(withForks(params, results.size()), List.copyOf(results))));
    return merged;
  }

  /** {@code params} with {@code forks} as its fork count. */
  private BenchmarkParams withForks(BenchmarkParams params, int forks) {
    return new BenchmarkParams(params.getBenchmark(), params.generatedBenchmark(),
        params.shouldSynchIterations(), params.getThreads(), params.getThreadGroups(),
        params.getThreadGroupLabels(), forks, params.getWarmupForks(), params.getWarmup(),
        params.getMeasurement(), params.getMode(), workloadParams(params), params.getTimeUnit(),
        params.getOpsPerInvocation(), params.getJvm(), params.getJvmArgs(),
        params.getJdkVersion(), params.getVmName(), params.getVmVersion(), params.getJmhVersion(),
        params.getTimeout());
  }

  /** The parameter values of {@code params}, each with the order JMH gave it. */
  private WorkloadParams workloadParams(BenchmarkParams params) {
    WorkloadParams workload = new WorkloadParams();
    for (String name : params.getParamsKeys()) {
      List<String> given = values.get(name);
      String value = params.getParam(name);
      if (given == null || !given.contains(value)) {
        throw new IllegalArgumentException(
            "parameter " + name + "=" + value + " was not given to JMH: " + values);
      }
      workload.put(name, value, given.indexOf(value));
    }
    return workload;
  }
}
