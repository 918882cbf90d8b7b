package io.github.timerqueue.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * Thread CPU time per operation of schedule+cancel ({@link ScheduleCancelBenchmark}), reschedule
 * ({@link RescheduleBenchmark}), or per fired timer of the expiry flow ({@link ExpireBenchmark})
 * and the TTL flows at one and sixteen TTLs ({@link TtlExpireBenchmark}), calling the benchmark
 * methods themselves, set up as JMH sets them up, for several contenders in one JVM. Each round
 * runs every contender in turn, in an order that reverses from round to round, and reads the
 * thread's CPU clock around it: a thread's CPU time hardly moves when other processes take the
 * processors, where the wall-clock times of JMH on a shared machine do. For each contender it
 * prints the median time per operation (per fired timer for the flows) over the rounds, the
 * median, over the rounds, of its time divided by the last contender's in the same round, and the
 * mean time per operation over the rounds with its ratio to the last contender's mean. The median
 * shrugs off a round that another process slowed; the mean counts work a strategy does once in
 * millions of operations, such as compacting a bucket of half a million timers, which most rounds
 * would not contain. The first quarter of the rounds warms the code up and is not counted.
 *
 * <pre>
 * java -Xms2g -Xmx2g -XX:CompileCommand=inline,org.agrona.DeadlineTimerWheel::scheduleTimer \
 *     -cp timer-bench/target/benchmarks.jar \
 *     io.github.timerqueue.bench.OperationCpu reschedule hitime,agrona 1000000 500000 24
 * </pre>
 *
 * Arguments: the workload ({@code schedule-cancel}, {@code reschedule}, {@code expire}, {@code
 * ttl1} or {@code ttl16}), the contenders (comma-separated; the last is the reference of the
 * ratios), the pending timers, the operations per contender and round (advances, for the flows),
 * and the rounds. A JVM that measures {@code agrona} must run with {@link
 * AgronaWheels#INLINE_SCHEDULE_TIMER}, as the JMH forks do.
 */
public final class OperationCpu {
  private OperationCpu() {}

  /**
   * Runs the rounds and prints one line per contender.
   *
   * @param args the workload, contenders, pending timers, operations per round and rounds
   * @throws IllegalArgumentException if an argument is missing or not understood
   * @throws IllegalStateException if Agrona is a contender and this JVM was started without
   *     {@link AgronaWheels#INLINE_SCHEDULE_TIMER}
   * @throws UnsupportedOperationException if this JVM cannot read a thread's CPU time
   */
  public static void main(String[] args) {
    if (args.length != 5) {
      throw new IllegalArgumentException("expected: schedule-cancel|reschedule|expire|ttl1|ttl16"
          + " contender,... pending operations rounds; got " + Arrays.toString(args));
    }
    String workload = args[0];
    String[] names = args[1].split(",");
    // Each set-up checks this too; checking every contender first fails before any set-up, which
    // takes seconds at millions of timers, rather than after the others' when Agrona comes last.
    for (String name : names) {
      AgronaWheels.requireInliningOption(name);
    }
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
      contenders[i] = new Contender(workload, names[i], pending);
    }
    double[][] nanos = new double[count][rounds];
    for (int round = 0; round < rounds; round++) {
      for (int turn = 0; turn < count; turn++) {
        int i = round % 2 == 0 ? turn : count - 1 - turn;
        long start = cpu.getCurrentThreadCpuTime();
        long counted = contenders[i].run(operations);
        nanos[i][round] = (cpu.getCurrentThreadCpuTime() - start) / (double) counted;
      }
    }
    int warm = rounds / 4;
    for (int i = 0; i < count; i++) {
      double[] ratios = new double[rounds - warm];
      for (int round = warm; round < rounds; round++) {
        ratios[round - warm] = nanos[i][round] / nanos[count - 1][round];
      }
      contenders[i].check();
      double mean = mean(nanos[i], warm);
      System.out.printf("%s %s %,d pending: %.2f ns/op, %.3f x %s; mean %.2f ns/op, %.3f x%n",
          args[0], names[i], pending, median(Arrays.copyOfRange(nanos[i], warm, rounds)),
          median(ratios), names[count - 1], mean, mean / mean(nanos[count - 1], warm));
    }
  }

  /** The mean of {@code values} from index {@code from} on. */
  private static double mean(double[] values, int from) {
    double sum = 0;
    for (int i = from; i < values.length; i++) {
      sum += values[i];
    }
    return sum / (values.length - from);
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  /** One contender: the JMH benchmark itself, set up as JMH sets it up. */
  private static final class Contender {
    private final TimerBenchmark benchmark;
    private final FiredTimers fired = new FiredTimers();

    Contender(String workload, String name, int pending) {
      benchmark = switch (workload) {
        case "schedule-cancel" -> new ScheduleCancelBenchmark();
        case "reschedule" -> new RescheduleBenchmark();
        case "expire" -> new ExpireBenchmark();
        case "ttl1", "ttl16" -> {
          TtlExpireBenchmark ttl = new TtlExpireBenchmark();
          ttl.ttls = workload.equals("ttl1") ? 1 : 16;
          yield ttl;
        }
        default -> throw new IllegalArgumentException("workload '" + workload
            + "': expected schedule-cancel, reschedule, expire, ttl1 or ttl16");
      };
      benchmark.strategy = name;
      benchmark.pending = pending;
      benchmark.setUp();
    }

    /** Runs {@code operations} operations; returns what the time is divided by. */
    long run(int operations) {
      if (benchmark instanceof RescheduleBenchmark rescheduling) {
        for (int i = 0; i < operations; i++) {
          rescheduling.reschedule();
        }
        return operations;
      }
      if (benchmark instanceof ScheduleCancelBenchmark scheduling) {
        for (int i = 0; i < operations; i++) {
          scheduling.scheduleCancel();
        }
        return operations;
      }
      FlowBenchmark flow = (FlowBenchmark) benchmark;
      long before = fired.fired;
      for (int i = 0; i < operations; i++) {
        flow.advanceOneResolution(fired);
      }
      return Math.max(1, fired.fired - before);
    }

    /** Fails if the contender lost or gained timers, as the benchmark's tear-down does. */
    void check() {
      benchmark.tearDown();
    }
  }
}
