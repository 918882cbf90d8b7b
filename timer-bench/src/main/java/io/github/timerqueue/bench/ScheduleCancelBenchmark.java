package io.github.timerqueue.bench;

import org.openjdk.jmh.annotations.Benchmark;

/**
 * Workload 1, the timeout pattern: most timers are cancelled before they fire. At a steady
 * population, each operation cancels a random pending timer and schedules it again with a new
 * delay, uniform over a wide range ({@link Scenario#WIDE_RANGE}). The clock stands still, so
 * nothing fires. Handles are reused (re-armed), so any allocation is the strategy's own.
 */
public class ScheduleCancelBenchmark extends TimerBenchmark {
  private SlotSequence slots;
  private DelaySequence delays;

  @Override
  Workload workload() {
    return Workload.SCHEDULE_CANCEL;
  }

  @Override
  void fill() {
    int cycle = Scenario.cycle(pending);
    delays = DelaySequence.uniform(
        cycle + 1, Scenario.RESOLUTION, Scenario.WIDE_RANGE, Scenario.SEED + 1);
    slots = SlotSequence.uniform(cycle, pending, Scenario.SEED + 2);
    fillAtOnce(delays);
  }

  /** Cancels a random pending timer and schedules it again; returns whether it was pending. */
  @Benchmark
  public boolean scheduleCancel() {
    int slot = slots.next();
    boolean wasPending = timers.cancel(slot);
    timers.schedule(slot, now + delays.next());
    return wasPending;
  }
}
