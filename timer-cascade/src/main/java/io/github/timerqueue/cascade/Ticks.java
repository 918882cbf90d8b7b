package io.github.timerqueue.cascade;

/**
 * Converts between unsigned distances from the start time and ticks, the units of the resolution
 * the wheel counts in. All values are unsigned 64-bit. A resolution that is a power of two divides
 * by shifting.
 */
final class Ticks {
  private final long resolution;
  /** log2 of the resolution if it is a power of two, else -1. */
  private final int shift;
  /** The largest tick whose start fits in 64 unsigned bits. */
  private final long lastWholeTick;
  /** The tick of a deadline beyond the end of the clock's range: {@code ceil(2^64 - 1)}. */
  private final long lastTick;

  Ticks(long resolution) {
    this.resolution = resolution;
    this.shift = Long.bitCount(resolution) == 1 ? Long.numberOfTrailingZeros(resolution) : -1;
    this.lastWholeTick = Long.divideUnsigned(-1L, resolution);
    this.lastTick = ceil(-1L);
  }

  /** The tick that contains {@code distance}: the last tick that starts at or before it. */
  long floor(long distance) {
    return shift >= 0 ? distance >>> shift : Long.divideUnsigned(distance, resolution);
  }

  /** The first tick that starts at or after {@code distance}: a deadline rounded up, never early. */
  long ceil(long distance) {
    // The floor's start never saturates: it is at most the distance. A resolution that is a power
    // of two needs no multiplication: the distance starts a tick if its low bits are clear.
    if (shift >= 0) {
      return (distance >>> shift) + ((distance & (resolution - 1)) == 0 ? 0 : 1);
    }
    long tick = Long.divideUnsigned(distance, resolution);
    return tick * resolution == distance ? tick : tick + 1;
  }

  /** The distance at which {@code tick} starts, saturating at the end of the clock's range. */
  long start(long tick) {
    if (Long.compareUnsigned(tick, lastWholeTick) > 0) {
      return -1L;
    }
    return shift >= 0 ? tick << shift : tick * resolution;
  }

  /**
   * The largest key that a timer filed while the base is {@code base} can have only by overflow:
   * the start of the tick before the base, or 0 at base 0. See {@link #tickOf}.
   */
  long overflowBound(long base) {
    return base == 0 ? 0 : start(base - 1);
  }

  /**
   * The tick of a timer in the wheel (or the far bucket), or being re-filed, from its deadline's
   * unsigned distance {@code key} from the start time, given the {@link #overflowBound} of the base.
   * Such a timer was armed with a deadline after the clock, and its tick is {@code ceil(key)}, at or
   * after the base; unless its distance from the clock overflowed the clock's range, in which case
   * its tick is the last one. An overflowed key lies at least 2<sup>63</sup> before the clock when
   * it was armed, so at or before the start of the tick before the base, which no other timer's key
   * is (a timer's key is at least 1); at base 0 no key can have overflowed.
   */
  long tickOf(long key, long overflowBound) {
    return Long.compareUnsigned(key, overflowBound) > 0 ? ceil(key) : lastTick;
  }

  /**
   * The first of the keys that {@link #tickOf} gives {@code base} itself, among the keys of timers
   * whose tick is at or after {@code base}, given the base's {@link #overflowBound}: with {@link
   * #dueKeySpan}, such a key {@code k} has the tick {@code base} exactly when {@code k -
   * dueKeysFrom(base, overflowBound)} is at most {@code dueKeySpan(base)}, compared unsigned. That
   * is one subtraction and one comparison per timer, where deriving its tick is a comparison with
   * the overflow bound and a rounding.
   *
   * <p>The keys of {@code base} are those after the start of the tick before it, the overflow
   * bound, up to its own start: a whole resolution. At base 0 that is key 0 alone, which no timer
   * in the wheel has: its deadline would have been due when it was armed, and no key can have
   * overflowed yet. At the last tick every key is due, an overflowed one included.
   */
  long dueKeysFrom(long base, long overflowBound) {
    return base == 0 || base == lastTick ? 0 : overflowBound + 1;
  }

  /** How many keys after {@link #dueKeysFrom} are still due at {@code base}, unsigned. */
  long dueKeySpan(long base) {
    if (base == 0) {
      return 0;
    }
    return base == lastTick ? -1L : resolution - 1;
  }
}
