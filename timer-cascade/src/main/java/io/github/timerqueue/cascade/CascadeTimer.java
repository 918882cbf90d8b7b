package io.github.timerqueue.cascade;

import io.github.timerqueue.internal.AbstractTimerHandle;

/**
 * A timer of a {@link CascadeTimerQueue}: its handle, the queue that created it, and where it sits.
 *
 * <p>Four fields make 32 bytes with a 12-byte header and compressed references: the payload, the
 * deadline, the queue and a {@link #position}. A pending timer's position is the kind of its
 * bucket (a due bucket, the far bucket, or a level) and its slot in that bucket's array; which
 * bucket of its level follows from its tick, which is not stored either: the queue derives it from
 * the deadline (see {@link Ticks#tickOf}).
 */
final class CascadeTimer<T> extends AbstractTimerHandle<T> {
  /** {@link CascadeTimerQueue#where} of a timer that is not pending. */
  static final int NOT_PENDING = -1;
  /** {@link CascadeTimerQueue#where} of a timer in the far bucket. */
  static final int FAR = -2;
  /** {@link CascadeTimerQueue#where} of a due timer, waiting or in the running advance's firing. */
  static final int DUE = -3;

  /** The {@link #position} of a timer that is not pending. */
  static final int NO_POSITION = -1;

  /** The queue that created the timer: it recognizes its own handles by this alone. */
  final CascadeTimerQueue<T> queue;
  /**
   * If pending (non-negative): its bucket's kind and its slot ({@link CascadeTimerQueue#kindOf},
   * {@link CascadeTimerQueue#slotOf}); else {@link #NO_POSITION}.
   */
  int position = NO_POSITION;

  CascadeTimer(CascadeTimerQueue<T> queue, T payload) {
    super(payload);
    this.queue = queue;
  }

  @Override
  public boolean isPending() {
    return position >= 0;
  }
}
