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
