package io.github.timerqueue.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Collection;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * The process CPU profiler, run through JMH in this JVM on a benchmark whose one thread does
 * nothing but CPU work (nextExpiryDelay on a small heap): its CPU per operation must come out near
 * the primary score, in the same unit, however JMH counts operations.
 */
class ProcessCpuProfilerTest {

  @Test
  void perOperationDividesByTheOperationsAndConvertsToTheUnit() {
    assertThat(ProcessCpuProfiler.perOperation(3_000_000, 1_000, TimeUnit.NANOSECONDS))
        .isEqualTo(3_000.0);
    assertThat(ProcessCpuProfiler.perOperation(3_000_000, 1_000, TimeUnit.MICROSECONDS))
        .isEqualTo(3.0);
    assertThat(ProcessCpuProfiler.perOperation(3_000_000, 0, TimeUnit.NANOSECONDS)).isNaN();
  }

  @Test
  void namesOfHotSpotThreadsTellRefinementGcAndJitApart() {
    assertThat(ProcessCpuProfiler.Task.ThreadKind.of("G1 Refine#0"))
        .isEqualTo(ProcessCpuProfiler.Task.ThreadKind.REFINE);
    assertThat(ProcessCpuProfiler.Task.ThreadKind.of("GC Thread#1"))
        .isEqualTo(ProcessCpuProfiler.Task.ThreadKind.GC);
    assertThat(ProcessCpuProfiler.Task.ThreadKind.of("G1 Conc#0"))
        .isEqualTo(ProcessCpuProfiler.Task.ThreadKind.GC);
    assertThat(ProcessCpuProfiler.Task.ThreadKind.of("C2 CompilerThre"))
        .isEqualTo(ProcessCpuProfiler.Task.ThreadKind.JIT);
    assertThat(ProcessCpuProfiler.Task.ThreadKind.of("VM Periodic Tas"))
        .isEqualTo(ProcessCpuProfiler.Task.ThreadKind.OTHER);
  }

  @Test
  void cpuPerOperationMatchesThePrimaryScoreOnCpuOnlyWork() throws RunnerException {
    assumeSupported();
    // Batches of 1,000 calls counted as 1,000 operations, in µs: a profiler that divided by the
    // invocations, or that did not convert the unit, would be off by 1,000.
    BenchmarkResult result = runNextExpiryDelay(1_000, TimeUnit.MICROSECONDS);

    double wall = result.getPrimaryResult().getScore();
    Map<String, Result> secondary = result.getSecondaryResults();
    Result<?> cpu = secondary.get(ProcessCpuProfiler.PROCESS);
    assertThat(cpu.getScoreUnit()).isEqualTo("us/op");
    assertThat(result.getPrimaryResult().getScoreUnit()).isEqualTo("us/op");
    // The one thread works all the time: CPU and wall agree but for what other threads add and for
    // the time the thread waits for a core on this shared machine.
    assertThat(cpu.getScore() / wall).as("CPU %s / wall %s", cpu.getScore(), wall)
        .isBetween(0.5, 2.0);

    double others = secondary.get(ProcessCpuProfiler.OTHERS).getScore();
    double named = secondary.get(ProcessCpuProfiler.REFINE).getScore()
        + secondary.get(ProcessCpuProfiler.GC).getScore()
        + secondary.get(ProcessCpuProfiler.JIT).getScore();
    // The benchmark thread is found (else others would be 100%), and the GC and JIT threads are
    // among the others.
    assertThat(others).isBetween(0.0, 50.0);
    assertThat(named).isLessThanOrEqualTo(others + 2);
  }

  @Test
  void measurementReadsTheProcessCpuInTheScoresUnit() throws RunnerException {
    assumeSupported();
    Measurement m = Measurement.of(runNextExpiryDelay(1, TimeUnit.NANOSECONDS));

    assertThat(m.cpuNanos() / m.nanos()).as("%s", m).isBetween(0.5, 2.0);
    assertThat(m.othersShare()).isBetween(0.0, 50.0);
    assertThat(m.refineShare()).isCloseTo(0.0, within(5.0));
  }

  /**
   * The profiler reads Linux's /proc, so elsewhere (where the launcher leaves it out) these tests
   * are skipped; on Linux, CI's system, it must be supported.
   */
  private static void assumeSupported() {
    assumeTrue(System.getProperty("os.name").startsWith("Linux"), "reads Linux's /proc");
    assertThat(ProcessCpuProfiler.supported()).as("/proc/self/task and thread CPU time").isTrue();
  }

  @SuppressWarnings("rawtypes") // JMH declares the map with the raw type
  private static BenchmarkResult runNextExpiryDelay(int operationsPerInvocation, TimeUnit unit)
      throws RunnerException {
    Collection<RunResult> runs = new Runner(new OptionsBuilder()
        .include("^" + Pattern.quote(NextExpiryDelayBenchmark.class.getName()) + "\\.")
        .param("strategy", "heap")
        .param("pending", "1000")
        .mode(Mode.AverageTime)
        .timeUnit(unit)
        .operationsPerInvocation(operationsPerInvocation)
        .forks(0)
        .warmupIterations(2)
        .warmupTime(TimeValue.milliseconds(200))
        .measurementIterations(3)
        .measurementTime(TimeValue.milliseconds(200))
        .addProfiler(ProcessCpuProfiler.class)
        .shouldFailOnError(true)
        .verbosity(VerboseMode.SILENT)
        .build()).run();
    assertThat(runs).hasSize(1);
    return runs.iterator().next().getAggregatedResult();
  }
}
