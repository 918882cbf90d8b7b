package io.github.timerqueue.lawn;

import io.github.timerqueue.TimerHandle;

/**
 * A timer of a {@link LawnTimerQueue}: its handle, and its link in the one list it is in while it
 * is pending, either the queue of its TTL or the list of due timers waiting to be handed out.
 */
final class LawnTimer<T> extends TimerLink<T> implements TimerHandle<T> {
  final LawnTimerQueue<T> owner;
  final T payload;
  long deadline;
  /**
   * When it expires, as an unsigned distance from the queue's start time: its deadline rounded up
   * to the resolution, or the time it was armed for a deadline already due. Within one TTL queue
   * these never decrease from head to tail.
   */
  long expiry;
  /** The list it is in: pending if and only if not {@code null}. */
  TimerList<T> list;

  LawnTimer(LawnTimerQueue<T> owner, T payload) {
    this.owner = owner;
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
    return list != null;
  }

  @Override
  public String toString() {
    return "LawnTimer{deadline=" + deadline + ", pending=" + isPending() + ", payload=" + payload
        + "}";
  }
}
