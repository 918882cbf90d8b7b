package io.github.timerqueue.bench;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * Counts the timers fired by the expiring workloads. As an {@link AuxCounters.Type#OPERATIONS}
 * counter in average-time mode, JMH reports it as a secondary result named {@code fired}: the time
 * per fired timer, over the same iterations as the primary result (the time per advance). The
 * number of timers an advance fires varies, so {@code @OperationsPerInvocation} could not say it.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.OPERATIONS)
public class FiredTimers {
  /** Timers fired in the current iteration; JMH resets it before each. */
  public long fired;
}
