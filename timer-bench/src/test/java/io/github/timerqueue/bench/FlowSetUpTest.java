package io.github.timerqueue.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The flows are measured from their steady state: after the set-up, the clock's advances fire
 * {@value Scenario#FIRES_PER_TICK} timers each on average from the first one measured.
 */
class FlowSetUpTest {
  private static final int PENDING = 100_000;

  @Test
  void expireFiresTheSteadyFlowFromItsFirstAdvance() {
    ExpireBenchmark expire = new ExpireBenchmark();
    assertThat(firedPerAdvanceAfterSetUp(expire)).isBetween(7.6, 8.4);
  }

  @Test
  void ttlExpireFiresTheSteadyFlowFromItsFirstAdvance() {
    TtlExpireBenchmark ttl = new TtlExpireBenchmark();
    ttl.ttls = 16;
    assertThat(firedPerAdvanceAfterSetUp(ttl)).isBetween(7.6, 8.4);
  }

  @Test
  void tenThousandTtlsSettleAtTheFewestTimersTheyNeed() {
    TtlExpireBenchmark ttl = new TtlExpireBenchmark();
    ttl.ttls = 10_000;
    ttl.strategy = "heap";
    ttl.pending = 40_000;
    ttl.setUp();
    assertThat(ttl.timers.size()).isEqualTo(40_000);
    ttl.tearDown();
  }

  /**
   * Sets {@code flow} up on the heap and returns the timers fired per advance over the first mean
   * delay's worth of advances: just after filling without settling, about 6.
   */
  private static double firedPerAdvanceAfterSetUp(FlowBenchmark flow) {
    flow.strategy = "heap";
    flow.pending = PENDING;
    flow.setUp();
    int advances = PENDING / Scenario.FIRES_PER_TICK;
    FiredTimers counter = new FiredTimers();
    for (int i = 0; i < advances; i++) {
      flow.advanceOneResolution(counter);
    }
    flow.tearDown();
    return counter.fired / (double) advances;
  }
}
