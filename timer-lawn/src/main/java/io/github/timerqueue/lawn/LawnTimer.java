package io.github.timerqueue.lawn;

import io.github.timerqueue.internal.AbstractTimerHandle;

/**
 * A timer of a {@link LawnTimerQueue}: its handle, and its place in the one ring it is in while it
 * is pending: the queue of its TTL, or, while the advance whose handler armed it due runs, the
 * ring those timers wait in.
 *
 * <p>Four fields, so that with compressed references a timer takes 32 bytes, half a cache line,
 * and never straddles two. A million timers then take 32 MB where 48-byte ones took 48 MB, which
 * decides how many of the random timer reads that cancelling and re-arming make are served by the
 * last-level cache. Hence what is not here: the queue that created the timer is its ring's {@link
 * TimerRing#owner}, which is why {@link #ring} is never {@code null} (a timer that is not pending
 * keeps the ring it was last in); and the expiry is not stored but derived from the deadline by
 * the ring ({@link TtlQueue#expiryOf}).
 */
final class LawnTimer<T> extends AbstractTimerHandle<T> {
  /** The {@link #ticket} of a timer that is in no ring. */
  static final int NOT_PENDING = -1;

  /**
   * The ring it is in while pending; afterwards the ring it was last in, kept for its {@link
   * TimerRing#owner}. Never {@code null}.
   */
  TimerRing<T> ring;
  /**
   * Its ticket in {@link #ring}, which names its slot there, or {@link #NOT_PENDING}: pending if and
   * only if not negative. A ticket is not the slot (where other strategies' timers record their
   * slot): it counts the timers that joined the ring, and the ring maps it to a slot, so that the
   * ring moves its slots without touching its timers and knows a stale slot by its timer's ticket.
   */
  int ticket = NOT_PENDING;

  /** Creates a timer that is not pending, naming a ring of the queue that owns it. */
  LawnTimer(TimerRing<T> ring, T payload) {
    super(payload);
    this.ring = ring;
  }

  @Override
  public boolean isPending() {
    return ticket >= 0;
  }
}
