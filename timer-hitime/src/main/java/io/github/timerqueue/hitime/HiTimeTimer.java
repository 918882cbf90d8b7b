package io.github.timerqueue.hitime;

import io.github.timerqueue.TimerHandle;

/**
 * A timer of a {@link HiTimeTimerQueue}: its handle, and its node in one of the queue's lists (a
 * bin, the expired list, or the firing list of the running advance). It is pending exactly while
 * it is in one of them.
 */
final class HiTimeTimer<T> extends TimerLink implements TimerHandle<T> {
  final HiTimeTimerQueue<T> queue;
  final T payload;
  long deadline;
  /**
   * The tick (a whole number of resolutions from the start time, compared unsigned) at which the
   * timer is due: its deadline rounded up to the resolution. For a timer armed already due, the
   * tick it was armed in.
   */
  long tick;
  /**
   * The bin the timer was last placed in. A bulk expiry moves whole bins to the expired list
   * without visiting their timers, so for a timer that is no longer in a bin this is stale; the
   * queue only uses it to re-check whether that bin became empty, which is right either way.
   */
  int bin;

  HiTimeTimer(HiTimeTimerQueue<T> queue, T payload) {
    this.queue = queue;
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
    return isLinked();
  }

  @Override
  public String toString() {
    return "HiTimeTimer{deadline=" + deadline + ", pending=" + isPending() + ", payload=" + payload
        + "}";
  }
}
