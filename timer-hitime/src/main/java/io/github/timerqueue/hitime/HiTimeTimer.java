package io.github.timerqueue.hitime;

import io.github.timerqueue.internal.AbstractTimerHandle;

/**
 * A timer of a {@link HiTimeTimerQueue}: its handle, and its slot in the one bucket it is in while
 * it is pending, a bin or a bucket of due timers, or its id while a low bin holds it by id ({@link
 * IdBins}). It is pending exactly while {@link #slot} is not negative.
 *
 * <p>Four fields, so that with compressed references a timer takes 32 bytes, half a cache line (on
 * alignment, see the notes in {@link AbstractTimerHandle}). Hence what is not here: the tick at
 * which the timer is due, which is derived from the deadline ({@link HiTimeTimerQueue#tickOf}); and
 * the bucket, which follows from the slot and the tick ({@link HiTimeTimerQueue#bucketOf}): a bin
 * is the bucket of the highest bit in which the tick differs from the clock's, and a slot of a
 * bucket of due timers carries {@link #DUE_SLOT}. Moving a timer to another bucket therefore writes
 * an {@code int} to it, not a reference, which spares the garbage collector's write barrier.
 */
final class HiTimeTimer<T> extends AbstractTimerHandle<T> {
  /** The {@link #slot} of a timer that is in no bucket. */
  static final int NOT_PENDING = -1;
  /** The bit of {@link #slot} that says the timer is in a bucket of due timers, not in a bin. */
  static final int DUE_SLOT = 1 << 30;
  /** The bit of {@link #slot} that says a low bin holds the timer by id, the rest of the slot. */
  static final int ID_SLOT = 1 << 29;
  /** The bits of {@link #slot} that number the slot in its bucket, or give the id. */
  static final int SLOT_INDEX = ID_SLOT - 1;

  /** The queue that created the timer. */
  final HiTimeTimerQueue<T> queue;
  /**
   * Its slot number, with {@link #DUE_SLOT} if its bucket holds due timers; or its id, with {@link
   * #ID_SLOT}; or {@link #NOT_PENDING}: pending if and only if not negative.
   */
  int slot = NOT_PENDING;

  HiTimeTimer(HiTimeTimerQueue<T> queue, T payload) {
    super(payload);
    this.queue = queue;
  }

  @Override
  public boolean isPending() {
    return slot >= 0;
  }
}
