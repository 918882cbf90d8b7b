package io.github.timerqueue.bench.runtime;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * CPU time per schedule + cancel pair, as {@code RuntimeScheduleCancelBenchmark} does them (a
 * timeout 30 s ahead, cancelled at once), read from the JVM's per-thread CPU clocks: the producers'
 * own CPU time, and the CPU time of the contender's timer thread (named {@code "tq-" + name}).
 * Unlike wall-clock throughput, a thread's CPU time hardly moves when other processes take the
 * processors, so it compares contenders on a shared machine. Contenders alternate within each
 * round, and the least of the rounds is printed: noise only ever adds time.
 *
 * <pre>
 * java -cp timer-bench/target/benchmarks.jar io.github.timerqueue.bench.runtime.PairCpu \
 *     [impl,...] [pairs] [rounds] [threads]
 * </pre>
 *
 * Defaults: {@code wheel,netty}, 5,000,000 pairs per round (split among the threads), 5 rounds,
 * one producer thread. The first round warms the code up and is not counted.
 */
public final class PairCpu {
  private static final long DELAY_NANOS = 30_000_000_000L;
  /** Lets the timer thread finish starting up before its CPU time is read. */
  private static final long SETTLE_MILLIS = 20;

  private PairCpu() {}

  /** One round of one contender: nanoseconds per pair. */
  record Round(double wall, double producerCpu, double timerCpu) {}

  /**
   * Prints, per contender, the least wall time, producer CPU time and timer-thread CPU time per
   * pair over the rounds.
   *
   * @param args optionally contenders (comma-separated), pairs, rounds and producer threads
   * @throws Exception if interrupted
   * @throws UnsupportedOperationException if this JVM cannot read a thread's CPU time
   */
  public static void main(String[] args) throws Exception {
    List<String> impls = Arrays.asList((args.length > 0 ? args[0] : "wheel,netty").split(","));
    long pairs = args.length > 1 ? Long.parseLong(args[1]) : 5_000_000;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    int threads = args.length > 3 ? Integer.parseInt(args[3]) : 1;
    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    if (!cpu.isThreadCpuTimeSupported()) {
      throw new UnsupportedOperationException("this JVM cannot read a thread's CPU time");
    }
    cpu.setThreadCpuTimeEnabled(true);
    Map<String, List<Round>> results = new LinkedHashMap<>();
    for (int round = 0; round <= rounds; round++) {
      for (String impl : impls) {
        Round measured = measure(cpu, impl, pairs, threads);
        if (round > 0) {
          results.computeIfAbsent(impl, name -> new ArrayList<>()).add(measured);
        }
      }
    }
    System.out.printf("schedule+cancel, %d pairs x %d rounds, %d producer thread(s), least of the"
        + " rounds, ns per pair%n", pairs, rounds, threads);
    results.forEach((impl, measured) -> System.out.printf(
        "%-8s wall %6.1f  producer cpu %6.1f  timer thread cpu %6.1f%n", impl,
        measured.stream().mapToDouble(Round::wall).min().orElseThrow(),
        measured.stream().mapToDouble(Round::producerCpu).min().orElseThrow(),
        measured.stream().mapToDouble(Round::timerCpu).min().orElseThrow()));
  }

  private static Round measure(ThreadMXBean cpu, String impl, long pairs, int threads)
      throws InterruptedException {
    try (RuntimeTimer timer = RuntimeContenders.start(impl)) {
      Thread.sleep(SETTLE_MILLIS);
      Map<Long, Long> timerBefore = timerThreadCpu(cpu, timer.threadName());
      long[] producerCpu = new long[threads];
      Thread[] producers = new Thread[threads];
      long perThread = pairs / threads;
      long started = System.nanoTime();
      for (int t = 0; t < threads; t++) {
        int index = t;
        producers[t] = new Thread(() -> {
          long own = cpu.getCurrentThreadCpuTime();
          for (long i = 0; i < perThread; i++) {
            if (!timer.cancel(timer.schedule(DELAY_NANOS, Action.NOTHING))) {
              throw new IllegalStateException(impl + " did not cancel a pending timeout");
            }
          }
          producerCpu[index] = cpu.getCurrentThreadCpuTime() - own;
        });
        producers[t].start();
      }
      for (Thread producer : producers) {
        producer.join();
      }
      long wall = System.nanoTime() - started;
      long timerCpu = 0;
      for (Map.Entry<Long, Long> after : timerThreadCpu(cpu, timer.threadName()).entrySet()) {
        timerCpu += after.getValue() - timerBefore.getOrDefault(after.getKey(), 0L);
      }
      double done = (double) perThread * threads;
      return new Round(wall / done, Arrays.stream(producerCpu).sum() / done, timerCpu / done);
    }
  }

  /** CPU time of every live thread named {@code name}, by thread id. */
  private static Map<Long, Long> timerThreadCpu(ThreadMXBean cpu, String name) {
    Map<Long, Long> times = new HashMap<>();
    for (Thread thread : Thread.getAllStackTraces().keySet()) {
      if (thread.getName().startsWith(name)) {
        times.put(thread.getId(), cpu.getThreadCpuTime(thread.getId()));
      }
    }
    return times;
  }
}
