package io.github.timerqueue.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * Thread CPU time per operation of schedule+cancel ({@link ScheduleCancelBenchmark}) or reschedule
 * ({@link RescheduleBenchmark}), calling the benchmark methods themselves, set up as JMH sets them
 * up, for several contenders in one JVM. Each round runs every contender in turn, in an order that
 * reverses from round to round, and reads the thread's CPU clock around it: a thread's CPU time
 * hardly moves when other processes take the processors, where the wall-clock times of JMH on a
 * shared machine do. For each contender it prints the median time per operation over the rounds
 * and the median, over the rounds, of its time divided by the last contender's in the same round.
 * The first quarter of the rounds warms the code up and is not counted.
 *
 * <pre>
 * java -Xms2g -Xmx2g -cp timer-bench/target/benchmarks.jar \
 *     io.github.timerqueue.bench.OperationCpu reschedule hitime,agrona 1000000 500000 24
 * </pre>
 *
 * Arguments: the workload ({@code schedule-cancel} or {@code reschedule}), the contenders
 * (comma-separated; the last is the reference of the ratios), the pending timers, the operations
 * per contender and round, and the rounds.
 */
public final class OperationCpu {
  private OperationCpu() {}

  /**
   * Runs the rounds and prints one line per contender.
   *
   * @param args the workload, contenders, pending timers, operations per round and rounds
   * @throws IllegalArgumentException if an argument is missing or not understood
   * @throws UnsupportedOperationException if this JVM cannot read a thread's CPU time
   */
  public static void main(String[] args) {
    if (args.length != 5) {
      throw new IllegalArgumentException("expected: schedule-cancel|reschedule contender,..."
          + " pending operations rounds; got " + Arrays.toString(args));
    }
    boolean reschedule = switch (args[0]) {
      case "reschedule" -> true;
      case "schedule-cancel" -> false;
      default -> throw new IllegalArgumentException(
          "workload '" + args[0] + "': expected schedule-cancel or reschedule");
    };
    String[] names = args[1].split(",");
    int pending = Integer.parseInt(args[2]);
    int operations = Integer.parseInt(args[3]);
    int rounds = Integer.parseInt(args[4]);
    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    if (!cpu.isThreadCpuTimeSupported()) {
      throw new UnsupportedOperationException("this JVM cannot read a thread's CPU time");
    }
    cpu.setThreadCpuTimeEnabled(true);

    int count = names.length;
    Contender[] contenders = new Contender[count];
    for (int i = 0; i < count; i++) {
      contenders[i] = new Contender(names[i], pending, reschedule);
    }
    double[][] nanos = new double[count][rounds];
    for (int round = 0; round < rounds; round++) {
      for (int turn = 0; turn < count; turn++) {
        int i = round % 2 == 0 ? turn : count - 1 - turn;
        long start = cpu.getCurrentThreadCpuTime();
        contenders[i].run(operations);
        nanos[i][round] = (cpu.getCurrentThreadCpuTime() - start) / (double) operations;
      }
    }
    int warm = rounds / 4;
    for (int i = 0; i < count; i++) {
      double[] ratios = new double[rounds - warm];
      for (int round = warm; round < rounds; round++) {
        ratios[round - warm] = nanos[i][round] / nanos[count - 1][round];
      }
      contenders[i].check();
      System.out.printf("%s %s %,d pending: %.2f ns/op, %.3f x %s%n", args[0], names[i], pending,
          median(Arrays.copyOfRange(nanos[i], warm, rounds)), median(ratios), names[count - 1]);
    }
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  /** One contender: the JMH benchmark itself, set up as JMH sets it up. */
  private static final class Contender {
    private final RescheduleBenchmark rescheduling;
    private final ScheduleCancelBenchmark scheduling;

    Contender(String name, int pending, boolean reschedule) {
      TimerBenchmark benchmark;
      if (reschedule) {
        rescheduling = new RescheduleBenchmark();
        scheduling = null;
        benchmark = rescheduling;
      } else {
        rescheduling = null;
        scheduling = new ScheduleCancelBenchmark();
        benchmark = scheduling;
      }
      benchmark.strategy = name;
      benchmark.pending = pending;
      benchmark.setUp();
    }

    void run(int operations) {
      if (rescheduling != null) {
        for (int i = 0; i < operations; i++) {
          rescheduling.reschedule();
        }
      } else {
        for (int i = 0; i < operations; i++) {
          scheduling.scheduleCancel();
        }
      }
    }

    /** Fails if the contender lost or gained timers, as the benchmark's tear-down does. */
    void check() {
      (rescheduling != null ? rescheduling : scheduling).tearDown();
    }
  }
}
