package io.github.timerqueue.lawn;

import io.github.timerqueue.internal.AbstractTimerHandle;

/**
 * A timer of a {@link LawnTimerQueue}: its handle, the queue that owns it, and its place in the one
 * ring it is in while it is pending: the queue of its TTL, or, while the advance whose handler
 * armed it due runs, the ring those timers wait in.
 *
 * <p>Four fields, so that with compressed references a timer takes 32 bytes, half a cache line (on
 * alignment, see the notes in {@link AbstractTimerHandle}). A million timers then take 32 MB where
 * 48-byte ones took 48 MB, which decides how many of the random timer reads that cancelling and
 * re-arming make are served by the last-level cache. Hence what is not here: the ring, which the
 * lawn finds from the {@link #ticket} ({@link TicketTable}); and the expiry, which the ring derives
 * from the deadline ({@link TtlQueue#expiryOf}).
 *
 * <p>Why the ring is not a field: a timer moves from ring to ring (a timer re-armed with another
 * TTL, at every expiry of a lawn of many), and a field naming the ring was a reference store in
 * the timer on each move. A long-running program's timers are old objects, and a reference store
 * in an old object pays G1's post-write barrier: a fence, and for a card not yet dirty, a trip to
 * the refinement queue and a later scan of the card. At a million timers and sixteen TTLs that
 * took a fired timer from 65 ns of thread CPU with its timers young to 188 with them tenured. Now
 * the only reference the lawn stores in a timer is {@link #owner}, once, when it creates it.
 */
final class LawnTimer<T> extends AbstractTimerHandle<T> {
  /** The {@link #ticket} of a timer that is in no ring. */
  static final int NOT_PENDING = -1;

  /** The queue that created the timer, the only one that accepts it. */
  final LawnTimerQueue<T> owner;
  /**
   * The number of its ticket in its ring ({@link TimerRing#numberOf}), which names the ring
   * ({@link TicketTable#ringOf}) and its slot there, or {@link #NOT_PENDING}: pending if and only
   * if not negative. A ticket is not the slot (where other strategies' timers record their slot):
   * it counts the timers that joined the ring, and the ring maps it to a slot, so that the ring
   * moves its slots without touching its timers and knows a stale slot by its timer's number.
   */
  int ticket = NOT_PENDING;

  /** Creates a timer of {@code owner} that is not pending. */
  LawnTimer(LawnTimerQueue<T> owner, T payload) {
    super(payload);
    this.owner = owner;
  }

  @Override
  public boolean isPending() {
    return ticket >= 0;
  }
}
