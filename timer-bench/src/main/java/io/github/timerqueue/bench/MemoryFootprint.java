package io.github.timerqueue.bench;

import org.openjdk.jol.info.GraphStats;

/**
 * Memory per pending timer, measured with JOL: the total size of everything reachable from the
 * structure ({@link Timers#structure()}) holding {@code n} timers, divided by {@code n}. JOL's
 * {@code GraphStats} gives the same total as {@code GraphLayout} without keeping the graph in
 * memory. Every timer carries the same payload object, so payloads count once, not per timer; the
 * caller's record of its handles or ids is not part of the structure. Timers are spread over the
 * wide range of schedule+cancel, so a strategy whose size depends on the spread of deadlines (lawn
 * keeps a queue per distinct TTL) shows its size for that spread.
 */
final class MemoryFootprint {
  private MemoryFootprint() {}

  /**
   * Prints memory per pending timer with few TTLs, the TTL workloads' case, which {@link Compare}
   * does not measure: {@code java -Djdk.attach.allowAttachSelf=true -cp benchmarks.jar
   * io.github.timerqueue.bench.MemoryFootprint lawn,agrona 1,16,random,expire [timers]}, where
   * {@code random} stands for the random deadlines of {@link Compare}'s memory column (almost one
   * TTL per timer, lawn's worst case), measured after filling only, and {@code expire} for the
   * steady flow of {@link ExpireBenchmark} ({@link #bytesPerTimerInFlow}; Agrona's contender needs
   * the benchmark's JVM option {@value AgronaWheels#INLINE_SCHEDULE_TIMER} there).
   *
   * @param args the contenders, the numbers of TTLs or {@code random}, and optionally the number
   *     of timers
   */
  public static void main(String[] args) {
    String[] contenders = args[0].split(",");
    String[] ttlCounts = args[1].split(",");
    int timers = args.length > 2 ? Integer.parseInt(args[2]) : Compare.MEMORY_TIMERS;
    System.out.printf("Bytes per pending timer at %d timers (JOL): after filling, then after 1 and"
        + " 4 times as many schedule+cancel operations%n", timers);
    for (String ttls : ttlCounts) {
      for (String contender : contenders) {
        if (ttls.equals("expire")) {
          System.out.printf("  expire    %-8s %6.1f B%n", contender,
              bytesPerTimerInFlow(contender, timers));
          continue;
        }
        if (ttls.equals("random")) {
          System.out.printf("  random    %-8s %6.1f B%n", contender,
              bytesPerTimer(contender, timers));
          continue;
        }
        int count = Integer.parseInt(ttls);
        try {
          System.out.printf("  %3d TTLs  %-8s %6.1f B  %6.1f B  %6.1f B%n", count, contender,
              bytesPerTimerWithTtls(contender, timers, count, 0),
              bytesPerTimerWithTtls(contender, timers, count, timers),
              bytesPerTimerWithTtls(contender, timers, count, 4 * timers));
        } catch (RuntimeException | OutOfMemoryError e) {
          System.out.printf("  %3d TTLs  %-8s failed: %s%n", count, contender, e);
        }
      }
    }
  }

  /**
   * Bytes per pending timer of {@code contender} holding {@code timers} timers whose delays are
   * drawn among the {@code ttls} TTLs of {@link TtlScheduleCancelBenchmark}, measured after {@code
   * churn} operations of that workload (a random timer cancelled and scheduled again), which is
   * where a structure that leaves cancelled entries behind shows what they cost.
   */
  static double bytesPerTimerWithTtls(String contender, int timers, int ttls, int churn) {
    Timers structure = Contenders.create(contender, timers);
    DelaySequence delays = DelaySequence.among(Scenario.cycle(timers) + 1,
        TtlScheduleCancelBenchmark.ttlChoices(ttls), Scenario.SEED + 7);
    for (int slot = 0; slot < timers; slot++) {
      structure.schedule(slot, Scenario.START_TIME + delays.next());
    }
    SlotSequence slots = SlotSequence.uniform(Scenario.cycle(timers), timers, Scenario.SEED + 8);
    for (int op = 0; op < churn; op++) {
      int slot = slots.next();
      structure.cancel(slot);
      structure.schedule(slot, Scenario.START_TIME + delays.next());
    }
    return (double) GraphStats.parseInstance(structure.structure()).totalSize() / timers;
  }

  /**
   * Bytes per pending timer of {@code contender} holding {@code timers} timers in the steady state
   * of the flow of expiring timers, as {@link ExpireBenchmark} measures it (filled, then run for
   * twice its longest delay). Buckets there have emptied and refilled many times, so what a
   * structure keeps for reuse, and the room its buckets take as they refill, count here and not
   * after filling.
   */
  static double bytesPerTimerInFlow(String contender, int timers) {
    ExpireBenchmark flow = new ExpireBenchmark();
    flow.strategy = contender;
    flow.pending = timers;
    flow.setUp();
    return (double) GraphStats.parseInstance(flow.timers.structure()).totalSize() / timers;
  }

  /** Bytes per pending timer of {@code contender} holding {@code timers} timers. */
  static double bytesPerTimer(String contender, int timers) {
    Timers structure = Contenders.create(contender, timers);
    DelaySequence delays = DelaySequence.uniform(
        Scenario.cycle(timers) + 1, Scenario.RESOLUTION, Scenario.WIDE_RANGE, Scenario.SEED + 9);
    for (int slot = 0; slot < timers; slot++) {
      structure.schedule(slot, Scenario.START_TIME + delays.next());
    }
    return (double) GraphStats.parseInstance(structure.structure()).totalSize() / timers;
  }
}
