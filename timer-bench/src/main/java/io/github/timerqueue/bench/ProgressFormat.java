package io.github.timerqueue.bench;

import java.io.PrintStream;
import java.util.Collection;
import java.util.Locale;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.format.OutputFormat;

/**
 * JMH output as one line per benchmark run: its number out of the total, what runs, a dot per
 * iteration, the result, and the time left. JMH's own headers are dropped; anything else it prints
 * (failures, stack traces, warnings) is passed through.
 */
final class ProgressFormat implements OutputFormat {
  private final PrintStream out;
  private final int total;
  private final long start = System.nanoTime();
  private int started;
  private int finished;
  private long benchmarkStart;

  ProgressFormat(PrintStream out, int total) {
    this.out = out;
    this.total = total;
  }

  @Override
  public void startBenchmark(BenchmarkParams params) {
    started++;
    benchmarkStart = System.nanoTime();
    int width = String.valueOf(total).length();
    out.printf(Locale.ROOT, "[%" + width + "d/%d] %-44s ", started, total, what(params));
    out.flush();
  }

  /**
   * What a benchmark runs, in columns: "schedule+cancel heap         1,000", with " ttls=16" for
   * TTL expire.
   */
  static String what(BenchmarkParams params) {
    Workload workload = Workload.ofBenchmark(params.getBenchmark());
    String ttls = params.getParam("ttls");
    return String.format(Locale.ROOT, "%-15s %-8s %9s%s",
        workload.label(), params.getParam("strategy"),
        Numbers.count(Long.parseLong(params.getParam("pending"))),
        ttls == null ? "" : " ttls=" + ttls);
  }

  @Override
  public void iteration(BenchmarkParams benchParams, IterationParams params, int iteration) {}

  @Override
  public void iterationResult(
      BenchmarkParams benchParams, IterationParams params, int iteration, IterationResult data) {
    out.print('.');
    out.flush();
  }

  @Override
  public void endBenchmark(BenchmarkResult result) {
    finished++;
    double seconds = (System.nanoTime() - benchmarkStart) / 1e9;
    String outcome;
    if (result == null) {
      outcome = "FAILED (see above)";
    } else {
      Measurement m = Measurement.of(result);
      outcome = String.format(Locale.ROOT, "%s ± %s %s, %s B", Numbers.nanos(m.nanos()),
          Numbers.nanos(m.error()), m.unit(), Numbers.bytes(m.bytes()));
      if (!Double.isNaN(m.cpuNanos())) {
        outcome += String.format(Locale.ROOT, ", CPU %s (%.0f%% others)",
            Numbers.nanos(m.cpuNanos()), m.othersShare());
      }
    }
    double elapsed = (System.nanoTime() - start) / 1e9;
    double left = elapsed / finished * (total - finished);
    out.printf(Locale.ROOT, " %s  (%.1f s, about %s left)%n", outcome, seconds,
        Numbers.minutes(left));
  }

  @Override
  public void startRun() {}

  @Override
  public void endRun(Collection<RunResult> result) {}

  @Override
  public void print(String s) {
    // Only JMH's own fragments ("# Preparing profilers: ...") come through print.
  }

  @Override
  public void println(String s) {
    if (!s.isBlank() && !s.startsWith("#")) {
      out.println(s);
    }
  }

  @Override
  public void verbosePrintln(String s) {}

  @Override
  public void write(int b) {
    out.write(b);
  }

  @Override
  public void write(byte[] b) {
    out.write(b, 0, b.length);
  }

  @Override
  public void flush() {
    out.flush();
  }

  @Override
  public void close() {
    out.flush();
  }
}
