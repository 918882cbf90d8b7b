package io.github.timerqueue.cascade;

import io.github.timerqueue.internal.AbstractTimerHandle;

/**
 * A timer of a {@link CascadeTimerQueue}: its handle, and where it sits.
 *
 * <p>Three fields make 32 bytes with a 12-byte header and compressed references: the payload, the
 * deadline, and a {@link #position}. A pending timer's position is its bucket and its slot in that
 * bucket's array; a timer that is not pending holds instead the identity of the queue that created
 * it, so that a queue recognizes its own handles in either state. The tick a pending timer is filed
 * at is not stored: the queue derives it from the deadline (see {@link Ticks#tickOf}).
 */
final class CascadeTimer<T> extends AbstractTimerHandle<T> {
  /** {@link CascadeTimerQueue#where} of a timer that is not pending. */
  static final int NOT_PENDING = -1;
  /** {@link CascadeTimerQueue#where} of a timer in the far bucket. */
  static final int FAR = -2;
  /** {@link CascadeTimerQueue#where} of a due timer, waiting or in the running advance's firing. */
  static final int DUE = -3;

  /** The sign bit marks the position of a timer that is not pending. */
  private static final long NOT_PENDING_BIT = Long.MIN_VALUE;

  /**
   * If pending (non-negative): its bucket's number in bits 32 to 62 and its slot in bits 0 to 31.
   * If not pending (negative): {@link #NOT_PENDING_BIT} and the number of the queue that created
   * it.
   */
  long position;

  CascadeTimer(T payload, long notPendingPosition) {
    super(payload);
    this.position = notPendingPosition;
  }

  /** The position of a pending timer in slot {@code slot} of bucket number {@code bucket}. */
  static long position(int bucket, int slot) {
    return (long) bucket << 32 | slot;
  }

  /** The position of a timer that is not pending, of the queue numbered {@code queueNumber}. */
  static long notPending(long queueNumber) {
    return NOT_PENDING_BIT | queueNumber;
  }

  static int bucketOf(long position) {
    return (int) (position >>> 32);
  }

  static int slotOf(long position) {
    return (int) position;
  }

  @Override
  public boolean isPending() {
    return position >= 0;
  }
}
