package io.github.timerqueue.bench;

import org.openjdk.jmh.annotations.Benchmark;

/**
 * Workload 5: the clock ticks while nothing is due. All pending timers are far away ({@link
 * Scenario#FAR_AWAY} and up); each operation advances the clock one resolution and fires nothing.
 * This is the cost an event loop pays on every turn in which no timer fires.
 */
public class IdleAdvanceBenchmark extends TimerBenchmark {
  private DelaySequence delays;

  @Override
  Workload workload() {
    return Workload.IDLE_ADVANCE;
  }

  @Override
  void fill() {
    delays = DelaySequence.uniform(
        Scenario.cycle(pending) + 1,
        Scenario.FAR_AWAY,
        2 * Scenario.FAR_AWAY,
        Scenario.SEED + 7);
    fillAtOnce(delays);
  }

  /** Advances the clock one resolution; returns how many timers fired (none). */
  @Benchmark
  public int idleAdvance() {
    now += Scenario.RESOLUTION;
    return timers.advance(now, delays);
  }
}
