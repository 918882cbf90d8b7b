package io.github.timerqueue.bench;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.agrona.DeadlineTimerWheel;

/**
 * Agrona's {@link DeadlineTimerWheel} behind the workloads, through its own API.
 *
 * <p>Where the API differs, the closest honest equivalent is used and named in the results (see
 * {@link Workload}):
 * <ul>
 *   <li>There are no handles: a timer is a {@code long} id, kept per slot. Agrona reuses the ids of
 *       cancelled and fired timers, so a slot's id is forgotten when it is cancelled. A re-armed
 *       fired timer gets a new id that is not recorded: the workloads that fire timers never
 *       address slots afterwards.
 *   <li>There is no {@code reschedule}: it is {@code cancelTimer} then {@code scheduleTimer}.
 *   <li>{@code poll} looks at one tick of the wheel per call, so moving the clock is polling until
 *       the wheel's tick stops moving, which fires exactly what a {@code TimerQueue}'s {@code
 *       advance} fires.
 *   <li>There is no query for the next deadline, so {@link #nextExpiryDelay()} is not expressible.
 * </ul>
 *
 * <p>The wheel is given the common resolution as its tick, and spokes for the population it is
 * created for ({@link AgronaWheels#spokesFor}).
 */
final class AgronaTimers implements Timers {
  /** An id no timer has: its spoke number is past any wheel's. */
  private static final long NO_TIMER = Long.MAX_VALUE;

  private final DeadlineTimerWheel wheel;
  private final long[] ids;
  private final DeadlineTimerWheel.TimerHandler rearm = this::rearm;
  private DelaySequence rearmDelays;

  AgronaTimers(int capacity) {
    this.wheel = new DeadlineTimerWheel(TimeUnit.NANOSECONDS, Scenario.START_TIME,
        Scenario.RESOLUTION, AgronaWheels.spokesFor(capacity));
    this.ids = new long[capacity];
    Arrays.fill(ids, NO_TIMER);
  }

  @Override
  public void schedule(int slot, long deadline) {
    ids[slot] = wheel.scheduleTimer(deadline);
  }

  @Override
  public boolean cancel(int slot) {
    boolean wasPending = wheel.cancelTimer(ids[slot]);
    ids[slot] = NO_TIMER;
    return wasPending;
  }

  @Override
  public boolean reschedule(int slot, long deadline) {
    boolean wasPending = wheel.cancelTimer(ids[slot]);
    ids[slot] = wheel.scheduleTimer(deadline);
    return wasPending;
  }

  @Override
  public int advance(long now, DelaySequence rearmDelays) {
    this.rearmDelays = rearmDelays;
    return AgronaWheels.advance(wheel, now, rearm);
  }

  private boolean rearm(TimeUnit timeUnit, long now, long timerId) {
    wheel.scheduleTimer(now + rearmDelays.next());
    return true;
  }

  /** Not expressible: {@link DeadlineTimerWheel} has no query for its next deadline. */
  @Override
  public long nextExpiryDelay() {
    throw new UnsupportedOperationException(Workload.NEXT_EXPIRY_DELAY.agronaNote());
  }

  @Override
  public long size() {
    return wheel.timerCount();
  }

  @Override
  public Object structure() {
    return wheel;
  }
}
