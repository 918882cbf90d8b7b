package io.github.timerqueue.lawn;

import io.github.timerqueue.TimerHandle;

/**
 * A timer of a {@link LawnTimerQueue}: its handle, and its place in the one ring it is in while it
 * is pending, either the queue of its TTL or the ring of due timers waiting to be handed out.
 */
final class LawnTimer<T> implements TimerHandle<T> {
  final LawnTimerQueue<T> owner;
  final T payload;
  long deadline;
  /**
   * When it expires, as an unsigned distance from the queue's start time: its deadline rounded up
   * to the resolution, or the time it was armed for a deadline already due. Within one TTL queue
   * these never decrease from head to tail.
   */
  long expiry;
  /** The ring it is in: pending if and only if not {@code null}. */
  TimerRing<T> ring;
  /** Its ticket in {@link #ring}, which names its slot there; meaningless when not pending. */
  long ticket;

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
    return ring != null;
  }

  @Override
  public String toString() {
    return "LawnTimer{deadline=" + deadline + ", pending=" + isPending() + ", payload=" + payload
        + "}";
  }
}
