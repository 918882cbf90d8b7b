package io.github.timerqueue.bench.replay;

import java.util.concurrent.TimeUnit;
import org.agrona.DeadlineTimerWheel;

/**
 * Agrona's {@link DeadlineTimerWheel} under replay, through its own API, with a tick of one trace
 * tick and spokes sized for the trace's peak population. Where the API differs, the closest honest equivalent:
 * {@code scheduleWithin} schedules at the earliest time (never early), {@code reschedule} is {@code
 * cancelTimer} then {@code scheduleTimer}, and since it has no next-deadline query, an event loop
 * polls it every tick while timers are pending ({@link #nextExpiryDelay()} says 1).
 */
final class AgronaTarget implements ReplayTarget {
  private static final int TIMERS_PER_SPOKE = 16;
  private static final int MIN_SPOKES = 64;
  private static final int MAX_SPOKES = 1 << 16;

  private final DeadlineTimerWheel wheel;
  private final LongIntMap slotOfId = new LongIntMap();
  private long[] ids = new long[1024];
  private final DeadlineTimerWheel.TimerHandler onFire = this::onFire;
  private Fired fired;

  /**
   * Creates the wheel for a peak of {@code peakTimers} pending timers: Agrona's spokes never change
   * number and each is an array scanned whole on every poll, so a user sizes the wheel for the
   * load, about 16 timers per spoke (a power of two from 64 to 65,536), as the benchmarks do.
   */
  AgronaTarget(long peakTimers) {
    long wanted = Math.max(peakTimers / TIMERS_PER_SPOKE, 1);
    long spokes = Long.highestOneBit(wanted) < wanted ? Long.highestOneBit(wanted) << 1 : wanted;
    this.wheel = new DeadlineTimerWheel(TimeUnit.NANOSECONDS, 0, 1,
        (int) Math.min(Math.max(spokes, MIN_SPOKES), MAX_SPOKES));
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
  public void cancel(int slot) {
    wheel.cancelTimer(ids[slot]);
    slotOfId.remove(ids[slot]);
  }

  @Override
  public void reschedule(int slot, long deadline) {
    cancel(slot);
    schedule(slot, deadline);
  }

  @Override
  public int advance(long now, Fired fired) {
    this.fired = fired;
    int count = 0;
    long tick;
    do {
      tick = wheel.currentTickTime();
      count += wheel.poll(now, onFire, Integer.MAX_VALUE);
    } while (wheel.currentTickTime() != tick);
    return count;
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
