package io.github.timerqueue.wheel;

import io.github.timerqueue.TimerHandle;

/**
 * A timer of a {@link TimingWheel}: its handle, and its node in one of the wheel's intrusive
 * circular doubly-linked lists (a slot of a level, the overflow list, or a list of due timers).
 */
final class WheelTimer<T> implements TimerHandle<T> {
  final TimingWheel<T> wheel;
  final T payload;
  long deadline;
  /**
   * The priority-queue key: the number of the interval that the instant just before the deadline
   * lies in, so that the timer fires once the clock enters the next interval. For a timer that
   * {@code scheduleWithin} placed in a coarse slot, the interval whose end passes that slot.
   * Meaningless while the timer is due or not pending.
   */
  long key;
  /** The list the timer is linked in, a position of {@link TimingWheel}; or not pending. */
  int position = TimingWheel.NOT_PENDING;
  /** Which level count the timer adds to while it is in a slot, or {@link TimingWheel#NO_GROUP}. */
  int group = TimingWheel.NO_GROUP;
  WheelTimer<T> previous;
  WheelTimer<T> next;

  WheelTimer(TimingWheel<T> wheel, T payload) {
    this.wheel = wheel;
    this.payload = payload;
  }

  @Override
  public T payload() {
    return payload;
  }

  @Override
  public long deadline() {
    return deadline;
  }

  @Override
  public boolean isPending() {
    return position != TimingWheel.NOT_PENDING;
  }

  @Override
  public String toString() {
    return "WheelTimer{deadline=" + deadline + ", pending=" + isPending() + ", payload=" + payload
        + "}";
  }
}
