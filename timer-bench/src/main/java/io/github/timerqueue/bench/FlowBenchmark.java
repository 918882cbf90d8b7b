package io.github.timerqueue.bench;

/**
 * Timers flowing through a queue at a steady population: each operation advances the clock by one
 * resolution and fires what is due, and each fired timer is re-armed at once with a new delay from
 * the workload's sequence, so that on average {@link Scenario#FIRES_PER_TICK} timers fire per
 * advance and the population never changes. Delays average {@code pending / FIRES_PER_TICK}
 * resolutions, which is what that flow and population imply.
 *
 * <p>The queue is filled the way it is used: {@code FIRES_PER_TICK} new timers per advance until
 * {@code pending} are in, so that every timer has a delay from the workload's distribution; the
 * clock then runs on for twice the longest delay ({@link #settle}), so that measurement starts
 * with the flow and the mix of remaining delays in their steady state.
 */
abstract class FlowBenchmark extends TimerBenchmark {
  DelaySequence delays;

  /** The delays of new and re-armed timers, for a mean of {@code meanTicks} resolutions. */
  abstract DelaySequence delays(long meanTicks);

  @Override
  final void fill() {
    long meanTicks = Math.max(1, pending / Scenario.FIRES_PER_TICK);
    delays = delays(meanTicks);
    int slot = 0;
    while (slot < pending) {
      for (int i = 0; i < Scenario.FIRES_PER_TICK && slot < pending; i++) {
        timers.schedule(slot++, now + delays.next());
      }
      now += Scenario.RESOLUTION;
      timers.advance(now, delays);
    }
    settle(meanTicks);
  }

  /**
   * Runs the flow for twice its longest delay (which is at most twice the mean), so that every
   * timer has fired and been re-armed at least once. Just after filling, fewer timers fire per
   * advance than the steady {@value Scenario#FIRES_PER_TICK} (at 10^6 timers about 5.4, reaching
   * 8 only after a quarter of a million advances), and a contender's cost per fired timer is
   * higher the more of it is paid per advance: measured before then, the flows would rank
   * contenders by a transient.
   */
  private void settle(long meanTicks) {
    for (long tick = 0; tick < 4 * meanTicks; tick++) {
      now += Scenario.RESOLUTION;
      timers.advance(now, delays);
    }
  }

  /** Advances the clock one resolution; counts and returns the timers that fired. */
  final int advanceOneResolution(FiredTimers counter) {
    now += Scenario.RESOLUTION;
    int fired = timers.advance(now, delays);
    counter.fired += fired;
    return fired;
  }
}
