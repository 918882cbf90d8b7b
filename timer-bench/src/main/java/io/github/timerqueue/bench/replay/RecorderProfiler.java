package io.github.timerqueue.bench.replay;

import io.github.timerqueue.trace.TraceRecorder;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * Adds to each iteration of a {@link RecordingOverheadBenchmark} that records the half of its cost
 * the owner's time does not show: {@value #WRITER_CPU}, the CPU time of the recorder's writer
 * thread per operation, and {@value #DROPPED}, the operations the recorder dropped of the {@value
 * #OPERATIONS} the iteration performed. Nothing for an
 * iteration without a recorder. Use with {@code -prof
 * io.github.timerqueue.bench.replay.RecorderProfiler}.
 */
public final class RecorderProfiler implements InternalProfiler {
  /** The secondary result: writer thread CPU nanoseconds per operation of the iteration. */
  public static final String WRITER_CPU = "writer.cpu";
  /** The secondary result: operations dropped during the iteration. */
  public static final String DROPPED = "dropped";
  /** The secondary result: operations the iteration performed. */
  public static final String OPERATIONS = "operations";

  private TraceRecorder recorder;
  private long cpuBefore;
  private long droppedBefore;

  /** Creates the profiler; JMH does, by class name. */
  public RecorderProfiler() {}

  @Override
  public String getDescription() {
    return "CPU time of the trace recorder's writer thread per operation, and operations dropped";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmark, IterationParams iteration) {
    recorder = RecordingOverheadBenchmark.activeRecorder;
    if (recorder != null) {
      cpuBefore = RecordingOverheadBenchmark.writerCpuNanos();
      droppedBefore = recorder.dropped();
    }
  }

  @Override
  public Collection<? extends Result> afterIteration(BenchmarkParams benchmark,
      IterationParams iteration, IterationResult result) {
    long operations = result.getMetadata().getMeasuredOps();
    // The last iteration ends after the trial's tear-down, whose close() ends the writer thread:
    // its CPU time is gone with it, and the iteration is left out.
    long cpuAfter = RecordingOverheadBenchmark.writerCpuNanos();
    if (recorder == null || operations == 0 || cpuBefore < 0 || cpuAfter < 0) {
      return List.of();
    }
    long cpu = cpuAfter - cpuBefore;
    return List.of(
        new ScalarResult(WRITER_CPU, (double) cpu / operations, "ns/op", AggregationPolicy.AVG),
        new ScalarResult(DROPPED, recorder.dropped() - droppedBefore, "ops",
            AggregationPolicy.SUM),
        new ScalarResult(OPERATIONS, operations, "ops", AggregationPolicy.SUM));
  }
}
