package io.github.timerqueue.bench;

import org.openjdk.jmh.annotations.Benchmark;

/**
 * Workload 6: {@code nextExpiryDelay}, which an event loop calls on every turn to know how long it
 * may sleep, on a queue of {@code pending} timers spread over a wide range ({@link
 * Scenario#WIDE_RANGE}). The queue does not change between calls, so a strategy that caches the
 * answer shows the cached cost here; what keeping the cache costs is in the other workloads.
 * Agrona's wheel has no such query, so it does not run this workload.
 */
public class NextExpiryDelayBenchmark extends TimerBenchmark {

  @Override
  Workload workload() {
    return Workload.NEXT_EXPIRY_DELAY;
  }

  @Override
  void fill() {
    fillAtOnce(DelaySequence.uniform(
        Scenario.cycle(pending) + 1, Scenario.RESOLUTION, Scenario.WIDE_RANGE, Scenario.SEED + 8));
  }

  /** Returns the queue's next expiry delay. */
  @Benchmark
  public long nextExpiryDelay() {
    return timers.nextExpiryDelay();
  }
}
