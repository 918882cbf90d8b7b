package io.github.timerqueue.hitime;

import io.github.timerqueue.TimerHandle;

/**
 * A timer of a {@link HiTimeTimerQueue}: its handle, and its place in the one bucket it is in
 * while it is pending, a bin or a bucket of due timers. It is pending exactly while {@link #slot}
 * is not negative.
 *
 * <p>Four fields, so that with compressed references a timer takes 32 bytes, half a cache line,
 * and never straddles two. Hence what is not here: the queue that created the timer is its
 * bucket's {@link TimerBucket#owner}, which is why {@link #bucket} is never {@code null} once the
 * timer is armed (a timer that is not pending keeps the bucket it was last in); the bin is the
 * bucket's; and the tick at which the timer is due is derived from the deadline when the timer is
 * re-examined ({@link HiTimeTimerQueue#tickOf}), not stored.
 */
final class HiTimeTimer<T> implements TimerHandle<T> {
  /** The {@link #slot} of a timer that is in no bucket. */
  static final int NOT_PENDING = -1;

  final T payload;
  long deadline;
  /**
   * The bucket it is in while pending; afterwards the bucket it was last in, kept for its {@link
   * TimerBucket#owner}.
   */
  TimerBucket<T> bucket;
  /** Its slot in {@link #bucket}, or {@link #NOT_PENDING}: pending if and only if not negative. */
  int slot = NOT_PENDING;

  HiTimeTimer(T payload) {
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
    return slot >= 0;
  }

  @Override
  public String toString() {
    return "HiTimeTimer{deadline=" + deadline + ", pending=" + isPending() + ", payload=" + payload
        + "}";
  }
}
