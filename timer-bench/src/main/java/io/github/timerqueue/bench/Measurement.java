package io.github.timerqueue.bench;

import java.util.Map;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.Result;

/**
 * One benchmark's result as the table and chart show it: nanoseconds per operation, or per fired
 * timer for the expiring workloads, with JMH's 99.9% confidence half-width, the bytes allocated
 * per the same unit ({@code gc.alloc.rate.norm} from {@code -prof gc}; {@code NaN} without it),
 * and the whole process's CPU time per the same unit with the share of it outside the benchmark
 * thread ({@link ProcessCpuProfiler}; {@code NaN} without it).
 *
 * @param ttls the number of distinct TTLs, or 0 for workloads without that parameter
 * @param cpuNanos process CPU nanoseconds per the unit of {@code nanos}: the benchmark thread's
 *     and every other thread's (collector, G1 refinement, JIT)
 * @param othersShare the percentage of {@code cpuNanos} spent outside the benchmark thread
 * @param refineShare the percentage of {@code cpuNanos} spent in G1's concurrent refinement
 */
record Measurement(
    Workload workload, String contender, int pending, int ttls, double nanos, double error,
    double bytes, double cpuNanos, double othersShare, double refineShare) {

  /** The secondary result of {@link FiredTimers}: time per fired timer. */
  static final String FIRED = "fired";
  /** The secondary result of JMH's GC profiler: bytes allocated per operation. */
  static final String ALLOCATED = "gc.alloc.rate.norm";

  /** Reads an aggregated JMH result. */
  static Measurement of(BenchmarkResult result) {
    BenchmarkParams params = result.getParams();
    Workload workload = Workload.ofBenchmark(params.getBenchmark());
    String ttls = params.getParam("ttls");
    Result<?> primary = result.getPrimaryResult();
    @SuppressWarnings("rawtypes") // JMH declares the map with the raw type
    Map<String, Result> secondary = result.getSecondaryResults();
    double bytesPerOperation = score(secondary.get(ALLOCATED));
    double cpuPerOperation = score(secondary.get(ProcessCpuProfiler.PROCESS));
    double nanos = primary.getScore();
    double error = primary.getScoreError();
    double bytes = bytesPerOperation;
    double cpu = cpuPerOperation;
    if (workload.perFiredTimer()) {
      Result<?> fired = secondary.get(FIRED);
      nanos = fired.getScore();
      error = fired.getScoreError();
      // Advances per fired timer = (time per fired timer) / (time per advance).
      double advancesPerFiredTimer = fired.getScore() / primary.getScore();
      bytes = bytesPerOperation * advancesPerFiredTimer;
      cpu = cpuPerOperation * advancesPerFiredTimer;
    }
    return new Measurement(
        workload,
        params.getParam("strategy"),
        Integer.parseInt(params.getParam("pending")),
        ttls == null ? 0 : Integer.parseInt(ttls),
        nanos,
        error,
        bytes,
        cpu,
        score(secondary.get(ProcessCpuProfiler.OTHERS)),
        score(secondary.get(ProcessCpuProfiler.REFINE)));
  }

  private static double score(Result<?> result) {
    return result == null ? Double.NaN : result.getScore();
  }

  /** The unit of {@link #nanos()}. */
  String unit() {
    return workload.perFiredTimer() ? "ns/fired timer" : "ns/op";
  }
}
