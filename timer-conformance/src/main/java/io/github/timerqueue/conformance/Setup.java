package io.github.timerqueue.conformance;

import io.github.timerqueue.TimerConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One clock origin and resolution that the conformance suite runs a test under.
 *
 * @param startTime the queue's start time
 * @param resolution the queue's resolution
 */
public record Setup(long startTime, long resolution) {

  /** Seed of the random clock origins, fixed so that a failure can be replayed. */
  static final long ORIGIN_SEED = 0x5EED_0F_71_3E5L;

  /**
   * Every origin the suite covers (the extremes where the clock wraps, around zero, and random
   * ones) crossed with resolutions 1, a power of two and a non-power of two.
   */
  static List<Setup> all() {
    SplittableRandom random = new SplittableRandom(ORIGIN_SEED);
    long[] origins = {
      Long.MIN_VALUE, -1, 0, Long.MAX_VALUE - (1L << 20), Long.MAX_VALUE,
      random.nextLong(), random.nextLong()
    };
    long[] resolutions = {1, 64, 1000};
    List<Setup> setups = new ArrayList<>();
    for (long origin : origins) {
      for (long resolution : resolutions) {
        setups.add(new Setup(origin, resolution));
      }
    }
    return setups;
  }

  TimerConfig.Builder config() {
    return TimerConfig.builder().startTime(startTime).resolution(resolution);
  }

  /**
   * The distance from the start time by which a timer must have fired, given the clock's distance
   * from the start time when it was armed and the distance of its deadline: the deadline rounded up
   * to a multiple of the resolution, or the clock itself for a deadline already due. All values are
   * unsigned distances from the start time, as the contract defines them.
   */
  long mustFireBy(long elapsedWhenArmed, long deadlineKey) {
    if (Long.compareUnsigned(deadlineKey, elapsedWhenArmed) <= 0) {
      return elapsedWhenArmed;
    }
    long intervals = Long.divideUnsigned(deadlineKey, resolution);
    if (intervals * resolution != deadlineKey) {
      intervals++;
    }
    return intervals * resolution;
  }

  /**
   * The unsigned distance from the start time at which a deadline set when the clock was {@code
   * elapsed} units past the start becomes due: a deadline in the past counts as due now.
   */
  static long deadlineKey(long elapsed, long now, long deadline) {
    return elapsed + Math.max(0, deadline - now);
  }

  @Override
  public String toString() {
    return "start=" + startTime + ", resolution=" + resolution;
  }
}
