package io.github.timerqueue.bench;

import org.openjdk.jmh.annotations.Benchmark;

/**
 * Workload 2, the idle-timeout "touch" on every packet: each operation moves a random pending timer
 * to a new deadline, uniform over a wide range ({@link Scenario#WIDE_RANGE}). The clock stands
 * still, so nothing fires.
 */
public class RescheduleBenchmark extends TimerBenchmark {
  private SlotSequence slots;
  private DelaySequence delays;

  @Override
  Workload workload() {
    return Workload.RESCHEDULE;
  }

  @Override
  void fill() {
    int cycle = Scenario.cycle(pending);
    delays = DelaySequence.uniform(
        cycle + 1, Scenario.RESOLUTION, Scenario.WIDE_RANGE, Scenario.SEED + 3);
    slots = SlotSequence.uniform(cycle, pending, Scenario.SEED + 4);
    fillAtOnce(delays);
  }

  /** Moves a random pending timer; returns whether it was pending (always). */
  @Benchmark
  public boolean reschedule() {
    return timers.reschedule(slots.next(), now + delays.next());
  }
}
