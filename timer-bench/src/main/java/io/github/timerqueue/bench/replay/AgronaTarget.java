package io.github.timerqueue.bench.replay;

import io.github.timerqueue.bench.AgronaWheels;
import java.util.concurrent.TimeUnit;
import org.agrona.DeadlineTimerWheel;

/**
 * Agrona's {@link DeadlineTimerWheel} under replay, through its own API, with a tick of one trace
 * tick and spokes sized for the trace's peak population. Where the API differs, the closest honest
 * equivalent: {@code scheduleWithin} schedules at the earliest time (never early), {@code
 * reschedule} is {@code cancelTimer} then {@code scheduleTimer}, and since it has no next-deadline
 * query, an event loop polls it every tick while timers are pending ({@link #nextExpiryDelay()}
 * says 1).
 */
final class AgronaTarget implements ReplayTarget {
  private final DeadlineTimerWheel wheel;
  private final LongIntMap slotOfId = new LongIntMap();
  private long[] ids = new long[1024];
  private final DeadlineTimerWheel.TimerHandler onFire = this::onFire;
  private Fired fired;

  /**
   * Creates the wheel for a peak of {@code peakTimers} pending timers, sized for that load as the
   * benchmarks size it ({@link AgronaWheels#spokesFor}).
   */
  AgronaTarget(long peakTimers) {
    this.wheel = new DeadlineTimerWheel(TimeUnit.NANOSECONDS, 0, 1,
        AgronaWheels.spokesFor(peakTimers));
  }

  @Override
  public void schedule(int slot, long deadline) {
    if (slot >= ids.length) {
      ids = java.util.Arrays.copyOf(ids, Math.max(slot + 1, ids.length * 2));
    }
    long id = wheel.scheduleTimer(deadline);
    ids[slot] = id;
    slotOfId.put(id, slot);
  }

  @Override
  public void scheduleWithin(int slot, long earliest, long latest) {
    schedule(slot, earliest);
  }

  @Override
  public boolean cancel(int slot) {
    boolean wasPending = wheel.cancelTimer(ids[slot]);
    slotOfId.remove(ids[slot]);
    return wasPending;
  }

  @Override
  public boolean reschedule(int slot, long deadline) {
    boolean wasPending = cancel(slot);
    schedule(slot, deadline);
    return wasPending;
  }

  @Override
  public int advance(long now, Fired fired) {
    this.fired = fired;
    return AgronaWheels.advance(wheel, now, onFire);
  }

  private boolean onFire(TimeUnit unit, long now, long timerId) {
    int slot = slotOfId.remove(timerId);
    fired.fired(slot, now);
    return true;
  }

  @Override
  public long nextExpiryDelay() {
    return wheel.timerCount() == 0 ? Long.MAX_VALUE : 1;
  }

  @Override
  public void clear() {
    wheel.clear();
    slotOfId.clear();
  }

  @Override
  public long size() {
    return wheel.timerCount();
  }

  @Override
  public Object structure() {
    return wheel;
  }

  @Override
  public long replayBytesPerTimer() {
    return 0;
  }
}
