package io.github.timerqueue.bench;

import java.util.Map;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.Result;

/**
 * One benchmark's result as the table and chart show it: nanoseconds per operation, or per fired
 * timer for the expiring workloads, with JMH's 99.9% confidence half-width, and the bytes allocated
 * per the same unit ({@code gc.alloc.rate.norm} from {@code -prof gc}; {@code NaN} without it).
 *
 * @param ttls the number of distinct TTLs, or 0 for workloads without that parameter
 */
record Measurement(
    Workload workload, String contender, int pending, int ttls, double nanos, double error,
    double bytes) {

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
    Result<?> allocated = secondary.get(ALLOCATED);
    double bytesPerOperation = allocated == null ? Double.NaN : allocated.getScore();
    double nanos = primary.getScore();
    double error = primary.getScoreError();
    double bytes = bytesPerOperation;
    if (workload.perFiredTimer()) {
      Result<?> fired = secondary.get(FIRED);
      nanos = fired.getScore();
      error = fired.getScoreError();
      // Fired timers per advance = (time per advance) / (time per fired timer).
      bytes = bytesPerOperation * fired.getScore() / primary.getScore();
    }
    return new Measurement(
        workload,
        params.getParam("strategy"),
        Integer.parseInt(params.getParam("pending")),
        ttls == null ? 0 : Integer.parseInt(ttls),
        nanos,
        error,
        bytes);
  }

  /** The unit of {@link #nanos()}. */
  String unit() {
    return workload.perFiredTimer() ? "ns/fired timer" : "ns/op";
  }
}
