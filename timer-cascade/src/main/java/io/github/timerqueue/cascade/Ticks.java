package io.github.timerqueue.cascade;

/**
 * Converts between unsigned distances from the start time and ticks, the units of the resolution
 * the wheel counts in. All values are unsigned 64-bit.
 */
final class Ticks {
  private final long resolution;
  /** The largest tick whose start fits in 64 unsigned bits. */
  private final long lastWholeTick;

  Ticks(long resolution) {
    this.resolution = resolution;
    this.lastWholeTick = Long.divideUnsigned(-1L, resolution);
  }

  /** The tick that contains {@code distance}: the last tick that starts at or before it. */
  long floor(long distance) {
    return resolution == 1 ? distance : Long.divideUnsigned(distance, resolution);
  }

  /** The first tick that starts at or after {@code distance}: a deadline rounded up, never early. */
  long ceil(long distance) {
    if (resolution == 1) {
      return distance;
    }
    long tick = Long.divideUnsigned(distance, resolution);
    return tick * resolution == distance ? tick : tick + 1;
  }

  /** The distance at which {@code tick} starts, saturating at the end of the clock's range. */
  long start(long tick) {
    return Long.compareUnsigned(tick, lastWholeTick) > 0 ? -1L : tick * resolution;
  }
}
