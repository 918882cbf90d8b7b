package io.github.timerqueue.trace;

import java.util.concurrent.TimeUnit;

/**
 * What a trace says about its clock: the length of one time unit, the resolution at which times and
 * delays are kept, and the time at which the trace starts.
 *
 * <p>Times in a trace are in the recorded queue's own units (for example {@link System#nanoTime()}
 * nanoseconds). The binary form keeps them in whole <em>ticks</em> of {@link #resolution()} units:
 * the clock rounded down to a tick since {@link #startTime()}, delays rounded up to whole ticks, so
 * a replayed timer is never earlier than the recorded one. Choose the resolution the recorded queue
 * was configured with: a queue fires no more precisely than that anyway, and coarser ticks make a
 * smaller trace.
 *
 * @param unitNanos the length of one time unit in nanoseconds, or {@code 0} when the units are not
 *     a measure of real time (ticks of a simulation)
 * @param resolution the length of one tick in time units, at least 1
 * @param startTime the time at which the trace starts, in time units
 */
public record TraceHeader(long unitNanos, long resolution, long startTime) {

  /**
   * Checks the values.
   *
   * @param unitNanos the length of one time unit in nanoseconds, or {@code 0}
   * @param resolution the length of one tick in time units, at least 1
   * @param startTime the time at which the trace starts
   * @throws IllegalArgumentException if {@code unitNanos} is negative or {@code resolution} is
   *     less than 1
   */
  public TraceHeader {
    if (unitNanos < 0) {
      throw new IllegalArgumentException(
          "unitNanos must be 0 (not real time) or positive, but was " + unitNanos);
    }
    if (resolution < 1) {
      throw new IllegalArgumentException("resolution must be at least 1, but was " + resolution);
    }
  }

  /**
   * Returns a header for times in {@code unit}, kept at {@code resolution} units per tick, starting
   * at {@code startTime}.
   *
   * @param unit the time unit of the recorded queue's clock
   * @param resolution the length of one tick in {@code unit}s, at least 1
   * @param startTime the time at which the trace starts
   * @return the header
   * @throws IllegalArgumentException if {@code resolution} is less than 1
   */
  public static TraceHeader of(TimeUnit unit, long resolution, long startTime) {
    return new TraceHeader(unit.toNanos(1), resolution, startTime);
  }

  /** Returns the number of whole ticks from the start to {@code time} (unsigned distance). */
  long ticksAt(long time) {
    return Long.divideUnsigned(time - startTime, resolution);
  }

  /** Returns the time of tick {@code ticks}. */
  long timeOf(long ticks) {
    return startTime + ticks * resolution;
  }

  /** Returns {@code delay} in whole ticks, rounded up; a negative delay (a past deadline) is 0. */
  long delayTicks(long delay) {
    return delay <= 0 ? 0 : (delay - 1) / resolution + 1;
  }
}
