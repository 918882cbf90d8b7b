package io.github.timerqueue.wheel;

import io.github.timerqueue.internal.AbstractTimerHandle;

/**
 * A timer of a {@link TimingWheel}: its handle, and its position in the wheel, a {@linkplain
 * Bucket bucket} and a slot of that bucket's array, or, for the lone timer of a slot of a level,
 * the level's lone bucket and the slot's number (see {@link Level}).
 *
 * <p>Four fields, so that with compressed references a timer takes 32 bytes, half a cache line, and
 * never straddles two: a million timers take 32 MB instead of the 48 MB of a timer that also keeps
 * its key and its owner, which decides how many of the random timer reads of cancelling and
 * re-arming the last-level cache serves. Hence what is not here: the key is derived from the
 * deadline and the clock ({@link TimingWheel#keyOf(WheelTimer)}), and the owner is the {@linkplain
 * Bucket#owner owner of the bucket}, which is why {@link #bucket} is never {@code null}: a timer
 * that is not pending keeps the bucket it was last in (a new one, the wheel's due bucket).
 */
final class WheelTimer<T> extends AbstractTimerHandle<T> {
  /** The {@link #slot} of a timer that is not pending. */
  static final int NOT_PENDING = -1;

  /**
   * The bucket it is in while pending (its level's lone bucket while it is a slot's lone timer);
   * afterwards the one it was last in. Never {@code null}.
   */
  Bucket<T> bucket;
  /**
   * Its slot in {@link #bucket} (a lone timer: its slot of the level), or {@link #NOT_PENDING}:
   * pending if and only if not negative.
   */
  int slot = NOT_PENDING;

  WheelTimer(Bucket<T> bucket, T payload) {
    super(payload);
    this.bucket = bucket;
  }

  @Override
  public boolean isPending() {
    return slot >= 0;
  }
}
