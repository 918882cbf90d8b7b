package io.github.timerqueue.bench;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;

/**
 * Workload 4, the TTL pattern (sessions, caches, leases): like {@link ExpireBenchmark}, but every
 * delay is one of {@code ttls} distinct TTLs, each a whole number of resolutions, spread evenly
 * around the mean so that the flow stays {@link Scenario#FIRES_PER_TICK} timers per advance. Each
 * new or re-armed timer draws its TTL uniformly among them.
 *
 * <p>The TTLs are distinct in resolutions, so there can be at most {@code 2 * pending /
 * FIRES_PER_TICK} of them; more fails the set-up (10,000 TTLs need 40,000 pending timers).
 */
public class TtlExpireBenchmark extends FlowBenchmark {

  /** The number of distinct TTLs. */
  @Param({"1", "16", "10000"})
  public int ttls;

  @Override
  Workload workload() {
    return Workload.TTL;
  }

  /** The largest number of distinct TTLs a population can have, given the flow. */
  static long maxDistinctTtls(int pending) {
    return 2 * Math.max(1, pending / Scenario.FIRES_PER_TICK);
  }

  @Override
  DelaySequence delays(long meanTicks) {
    if (ttls < 1 || ttls > 2 * meanTicks) {
      throw new IllegalArgumentException(
          "ttls=" + ttls + " with pending=" + pending + ": TTLs average " + meanTicks
              + " resolutions at " + Scenario.FIRES_PER_TICK + " fired timers per advance, so at"
              + " most " + 2 * meanTicks + " distinct TTLs fit");
    }
    long[] choices = new long[ttls];
    for (int i = 0; i < ttls; i++) {
      // The midpoints of ttls equal parts of (0, 2 * meanTicks]: distinct whole resolutions.
      long ticks = Math.max(1, Math.round((i + 0.5) * 2 * meanTicks / ttls));
      choices[i] = ticks * Scenario.RESOLUTION;
    }
    return DelaySequence.among(Scenario.cycle(pending) + 1, choices, Scenario.SEED + 6);
  }

  /** Advances the clock one resolution, firing and re-arming what is due. */
  @Benchmark
  public int expireTtl(FiredTimers counter) {
    return advanceOneResolution(counter);
  }
}
