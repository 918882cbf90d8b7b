package io.github.timerqueue.bench;

import org.openjdk.jmh.annotations.Benchmark;

/**
 * Workload 3: timers flow through the queue and fire (see {@link FlowBenchmark}), with delays
 * uniform from one resolution to twice the mean, at nanosecond granularity. Reported per fired
 * timer: the secondary result {@code fired} (see {@link FiredTimers}); the primary result is the
 * time per advance.
 */
public class ExpireBenchmark extends FlowBenchmark {

  @Override
  Workload workload() {
    return Workload.EXPIRE;
  }

  @Override
  DelaySequence delays(long meanTicks) {
    return DelaySequence.uniform(
        Scenario.cycle(pending) + 1,
        Scenario.RESOLUTION,
        (2 * meanTicks - 1) * Scenario.RESOLUTION,
        Scenario.SEED + 5);
  }

  /** Advances the clock one resolution, firing and re-arming what is due. */
  @Benchmark
  public int expire(FiredTimers counter) {
    return advanceOneResolution(counter);
  }
}
