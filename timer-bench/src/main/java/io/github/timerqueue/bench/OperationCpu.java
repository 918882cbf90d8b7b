package io.github.timerqueue.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Thread CPU time per operation of {@link ScheduleCancelBenchmark} and {@link RescheduleBenchmark}
 * on one contender, filled and driven exactly as JMH drives them, but timed by the JVM's clock of
 * this thread's CPU time. Unlike JMH's wall-clock scores, that clock hardly moves when other
 * processes take the processors, so two builds of a strategy, each run in its own JVM one after
 * the other, compare on a shared machine. One contender per JVM, as JMH forks one per contender,
 * so that the benchmark's calls into the strategy stay monomorphic. The two workloads alternate in
 * each round; the first round warms the code up and is not printed.
 *
 * <pre>
 * java -cp timer-bench/target/benchmarks.jar io.github.timerqueue.bench.OperationCpu \
 *     strategy [pending] [operations per round] [rounds]
 * </pre>
 *
 * Defaults: 10,000 pending timers, 20,000,000 operations per round, 7 rounds. Prints, per
 * workload, the least and the median of the rounds' CPU nanoseconds per operation.
 */
public final class OperationCpu {
  private OperationCpu() {}

  /**
   * Measures and prints, as described above.
   *
   * @param args a strategy, optionally pending timers, operations per round and rounds
   * @throws UnsupportedOperationException if this JVM cannot read a thread's CPU time
   */
  public static void main(String[] args) {
    String strategy = args[0];
    int pending = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
    long operations = args.length > 2 ? Long.parseLong(args[2]) : 20_000_000;
    int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 7;
    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    if (!cpu.isCurrentThreadCpuTimeSupported()) {
      throw new UnsupportedOperationException("this JVM cannot read a thread's CPU time");
    }
    ScheduleCancelBenchmark scheduleCancel = new ScheduleCancelBenchmark();
    RescheduleBenchmark reschedule = new RescheduleBenchmark();
    for (TimerBenchmark benchmark : List.of(scheduleCancel, reschedule)) {
      benchmark.strategy = strategy;
      benchmark.pending = pending;
      benchmark.setUp();
    }
    List<Double> scheduleCancelCpu = new ArrayList<>();
    List<Double> rescheduleCpu = new ArrayList<>();
    for (int round = 0; round <= rounds; round++) {
      long start = cpu.getCurrentThreadCpuTime();
      scheduleCancels(scheduleCancel, operations);
      long middle = cpu.getCurrentThreadCpuTime();
      reschedules(reschedule, operations);
      long end = cpu.getCurrentThreadCpuTime();
      if (round > 0) {
        scheduleCancelCpu.add((middle - start) / (double) operations);
        rescheduleCpu.add((end - middle) / (double) operations);
      }
    }
    scheduleCancel.tearDown();
    reschedule.tearDown();
    System.out.printf("%s pending=%d scheduleCancel min %.1f median %.1f"
            + " | reschedule min %.1f median %.1f (CPU ns/op)%n", strategy, pending,
        least(scheduleCancelCpu), median(scheduleCancelCpu), least(rescheduleCpu),
        median(rescheduleCpu));
  }

  private static void scheduleCancels(ScheduleCancelBenchmark benchmark, long operations) {
    for (long op = 0; op < operations; op++) {
      benchmark.scheduleCancel();
    }
  }

  private static void reschedules(RescheduleBenchmark benchmark, long operations) {
    for (long op = 0; op < operations; op++) {
      benchmark.reschedule();
    }
  }

  private static double least(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
  }

  private static double median(List<Double> values) {
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
