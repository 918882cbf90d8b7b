package io.github.timerqueue.bench;

/**
 * The fixed numbers every workload shares, so that every contender sees the same operations in the
 * same order.
 *
 * <p>Queue time is read as nanoseconds, with a resolution of 2<sup>20</sup> ns (about a
 * millisecond): the usual set-up of a timer driven by {@link System#nanoTime()}. The resolution
 * is a power of two because {@code DeadlineTimerWheel} accepts nothing else; every contender gets
 * the same one, and every workload moves the clock by whole resolutions, so that every contender
 * fires exactly the same timers at each advance.
 */
final class Scenario {
  /** The resolution of every queue and the tick of Agrona's wheel. */
  static final long RESOLUTION = 1L << 20;

  /** Where every queue's clock starts. */
  static final long START_TIME = 0;

  /** The seed every random draw derives from. */
  static final long SEED = 0x7157_2024L;

  /**
   * Delays of the workloads where nothing fires (schedule+cancel, reschedule, nextExpiryDelay):
   * uniform from one resolution to 2<sup>22</sup> resolutions (about 73 minutes), so that timers
   * land on every level of a hierarchical wheel, as connection and request timeouts do.
   */
  static final long WIDE_RANGE = (1L << 22) * RESOLUTION;

  /**
   * How many timers fire per advance, on average, in the expire and TTL workloads. With {@code n}
   * pending timers their delays therefore average {@code n / FIRES_PER_TICK} resolutions.
   */
  static final int FIRES_PER_TICK = 8;

  /**
   * Where the idle-advance workload puts its timers: 2<sup>32</sup> resolutions away and more,
   * which no run reaches at one resolution per operation.
   */
  static final long FAR_AWAY = (1L << 32) * RESOLUTION;

  /**
   * Pre-generated draws are replayed in cycles of at least this length; shorter cycles would let
   * the touched timers stay in cache.
   */
  private static final int MIN_CYCLE = 1 << 16;

  private Scenario() {}

  /**
   * Returns the length of a cycle of pre-generated draws for {@code pending} timers: long enough
   * to touch timers all over a large queue. Delay and slot cycles differ in length by one, which
   * keeps their pairing from repeating.
   */
  static int cycle(int pending) {
    return Math.max(pending, MIN_CYCLE);
  }
}
