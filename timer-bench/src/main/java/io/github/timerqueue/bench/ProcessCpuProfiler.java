package io.github.timerqueue.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.profile.ProfilerException;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * A JMH profiler that reports, for each measured iteration, the CPU time the whole benchmark
 * process spent per operation: the benchmark threads and every other thread of the JVM (the
 * collector's, G1's concurrent refinement, the JIT compilers, JMH's own), and how that CPU splits
 * between them. Wall time per operation hides work done on other threads while a core is free,
 * and charges it erratically when none is; CPU per operation counts it either way.
 *
 * <p>Secondary results, each averaged over the measured iterations:
 * <ul>
 *   <li>{@value #PROCESS}: the process's CPU time per operation, in the benchmark's output time
 *       unit ({@code ns/op} for ours), with operations counted as JMH counts them for the primary
 *       result ({@code @OperationsPerInvocation} included), so that on a benchmark whose one
 *       thread does all the work it equals the primary score of average-time mode;
 *   <li>{@value #OTHERS}: the percentage of that CPU spent on threads other than JMH's benchmark
 *       threads (named {@code ...-jmh-worker-N});
 *   <li>{@value #REFINE}, {@value #GC} and {@value #JIT}: the percentages spent on G1's
 *       concurrent refinement threads ({@code G1 Refine#N}), on the collector's other threads
 *       ({@code GC Thread#N}, {@code G1 Conc#N}, the marker and service threads) and on the JIT
 *       compiler threads; what remains of {@value #OTHERS} is the JVM's and JMH's other threads.
 * </ul>
 *
 * <p>Run it with {@code -prof io.github.timerqueue.bench.ProcessCpuProfiler}. It reads Linux's
 * {@code /proc/self/task/<tid>/schedstat} (each thread's time on a CPU, in nanoseconds) and the
 * benchmark threads' CPU time from {@link ThreadMXBean}; elsewhere it cannot be created. A thread
 * that ends during an iteration takes its CPU time since the iteration began with it, so the
 * figures are a lower bound when threads come and go; a benchmark's and the JVM's threads live
 * through the iterations. Each snapshot reads one small file per thread (a few dozen), outside
 * the benchmark's timed region.
 */
public final class ProcessCpuProfiler implements InternalProfiler {
  /** The secondary result: process CPU time per operation. */
  static final String PROCESS = "cpu.process";
  /** The secondary result: the percentage of process CPU outside the benchmark threads. */
  static final String OTHERS = "cpu.others";
  /** The secondary result: the percentage of process CPU in G1's concurrent refinement threads. */
  static final String REFINE = "cpu.refine";
  /** The secondary result: the percentage of process CPU in the collector's other threads. */
  static final String GC = "cpu.gc";
  /** The secondary result: the percentage of process CPU in the JIT compiler threads. */
  static final String JIT = "cpu.jit";

  private static final Path TASKS = Path.of("/proc/self/task");
  private static final String WORKER = "-jmh-worker-";

  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
  private Snapshot before;

  /**
   * Creates the profiler; JMH does, once per forked JVM.
   *
   * @throws ProfilerException unless this JVM can read per-thread CPU times, from {@code
   *     /proc/self/task/<tid>/schedstat} (Linux) and from {@link ThreadMXBean}
   */
  public ProcessCpuProfiler() throws ProfilerException {
    if (!supported()) {
      throw new ProfilerException("needs Linux's /proc/self/task/<tid>/schedstat and per-thread"
          + " CPU time from ThreadMXBean, which this JVM (" + System.getProperty("os.name")
          + ") does not offer");
    }
  }

  /**
   * Whether the profiler can run in this JVM: the launcher adds it only where it can.
   *
   * @return whether {@code /proc/self/task/<tid>/schedstat} is readable and {@link ThreadMXBean}
   *     measures thread CPU time
   */
  static boolean supported() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    if (!threads.isThreadCpuTimeSupported()) {
      return false;
    }
    try {
      return !tasks().isEmpty();
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /** {@inheritDoc} */
  @Override
  public String getDescription() {
    return "Process CPU time per operation (all threads: benchmark, GC, G1 refinement, JIT), and"
        + " the shares of the threads other than the benchmark's";
  }

  /** {@inheritDoc} */
  @Override
  public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
    if (!threads.isThreadCpuTimeEnabled()) {
      threads.setThreadCpuTimeEnabled(true);
    }
    before = snapshot();
  }

  /**
   * {@inheritDoc}
   *
   * @return the results named in the class comment; the per-operation figure is {@code NaN} for
   *     an iteration without operations
   */
  @Override
  public List<Result> afterIteration(
      BenchmarkParams benchmarkParams, IterationParams iterationParams, IterationResult result) {
    Snapshot after = snapshot();
    CpuSplit split = after.since(before);
    before = null;
    TimeUnit unit = benchmarkParams.getTimeUnit();
    return List.of(
        new ScalarResult(PROCESS,
            perOperation(split.process(), result.getMetadata().getAllOps(), unit),
            TimeValue.tuToString(unit) + "/op", AggregationPolicy.AVG),
        share(OTHERS, split.others(), split.process()),
        share(REFINE, split.refine(), split.process()),
        share(GC, split.gc(), split.process()),
        share(JIT, split.jit(), split.process()));
  }

  /**
   * CPU nanoseconds per operation, in {@code unit}: the operations are those JMH counted over the
   * whole iteration (its {@code allOps}, which include any synchronisation ramp and are already
   * multiplied by {@code @OperationsPerInvocation}), since the CPU is taken over the whole
   * iteration too.
   */
  static double perOperation(long cpuNanos, long operations, TimeUnit unit) {
    if (operations <= 0) {
      return Double.NaN;
    }
    return (double) cpuNanos / operations / unit.toNanos(1);
  }

  private static ScalarResult share(String name, long part, long whole) {
    return new ScalarResult(
        name, whole <= 0 ? Double.NaN : 100.0 * part / whole, "%", AggregationPolicy.AVG);
  }

  /** Each thread's CPU time now: every task of the process, and the benchmark threads. */
  private Snapshot snapshot() {
    Map<Long, Long> workers = new HashMap<>();
    ThreadInfo[] infos = threads.getThreadInfo(threads.getAllThreadIds());
    for (ThreadInfo info : infos) {
      if (info != null && info.getThreadName().contains(WORKER)) {
        long cpu = threads.getThreadCpuTime(info.getThreadId());
        if (cpu >= 0) {
          workers.put(info.getThreadId(), cpu);
        }
      }
    }
    try {
      return new Snapshot(tasks(), workers);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + TASKS + ": " + e.getMessage(), e);
    }
  }

  /** Every task (thread) of this process: its CPU nanoseconds so far, and its name. */
  private static Map<Long, Task> tasks() throws IOException {
    Map<Long, Task> tasks = new HashMap<>();
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(TASKS)) {
      for (Path dir : dirs) {
        String schedstat;
        String comm;
        try {
          schedstat = Files.readString(dir.resolve("schedstat"), StandardCharsets.US_ASCII);
          comm = Files.readString(dir.resolve("comm"), StandardCharsets.UTF_8);
        } catch (IOException ended) {
          continue; // the thread ended between the listing and the read
        }
        tasks.put(Long.parseLong(dir.getFileName().toString()),
            new Task(Task.ThreadKind.of(comm.strip()), firstNumber(schedstat)));
      }
    }
    return tasks;
  }

  /** The first field of {@code schedstat}: the task's time on a CPU, in nanoseconds. */
  private static long firstNumber(String schedstat) {
    String trimmed = schedstat.strip();
    int space = trimmed.indexOf(' ');
    return Long.parseLong(space < 0 ? trimmed : trimmed.substring(0, space));
  }

  /** One thread as {@code /proc} shows it. */
  record Task(ThreadKind kind, long cpuNanos) {

    /** What a thread does, by the name HotSpot gives it ({@code comm}, cut to 15 bytes). */
    enum ThreadKind {
      REFINE, GC, JIT, OTHER;

      static ThreadKind of(String name) {
        if (name.startsWith("G1 Refine")) {
          return REFINE;
        }
        if (name.startsWith("GC Thread") || name.startsWith("G1 ")) {
          return GC;
        }
        if (name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre")) {
          return JIT;
        }
        return OTHER;
      }
    }
  }

  /** CPU nanoseconds over an iteration, split by thread. */
  record CpuSplit(long process, long others, long refine, long gc, long jit) {}

  /** Every thread's CPU time at one moment. */
  private record Snapshot(Map<Long, Task> tasks, Map<Long, Long> workers) {

    /** What each thread used since {@code earlier}; a thread born since then counts whole. */
    CpuSplit since(Snapshot earlier) {
      long process = 0;
      long[] byKind = new long[Task.ThreadKind.values().length];
      for (Map.Entry<Long, Task> task : tasks.entrySet()) {
        Task then = earlier.tasks.get(task.getKey());
        long used = task.getValue().cpuNanos() - (then == null ? 0 : then.cpuNanos());
        process += used;
        byKind[task.getValue().kind().ordinal()] += used;
      }
      long benchmark = 0;
      for (Map.Entry<Long, Long> worker : workers.entrySet()) {
        benchmark += worker.getValue() - earlier.workers.getOrDefault(worker.getKey(), 0L);
      }
      return new CpuSplit(process, Math.max(0, process - benchmark),
          byKind[Task.ThreadKind.REFINE.ordinal()], byKind[Task.ThreadKind.GC.ordinal()],
          byKind[Task.ThreadKind.JIT.ordinal()]);
    }
  }
}
