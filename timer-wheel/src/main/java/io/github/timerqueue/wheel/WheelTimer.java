package io.github.timerqueue.wheel;

import io.github.timerqueue.internal.AbstractTimerHandle;

/**
 * A timer of a {@link TimingWheel}: its handle, and its position in the wheel, a {@linkplain
 * Bucket bucket} and a slot of that bucket's chain, or, for one of the few timers that a slot of a
 * level holds itself, the next of them and the slot's number (see {@link Level}).
 *
 * <p>Four fields, so that with compressed references a timer takes 32 bytes, half a cache line, and
 * never straddles two: a million timers take 32 MB instead of the 48 MB of a timer that also keeps
 * its key and its owner, which decides how many of the random timer reads of cancelling and
 * re-arming the last-level cache serves. Hence what is not here: the key is derived from the
 * deadline and the clock ({@link TimingWheel#keyOf(WheelTimer)}), and the owner is the {@linkplain
 * Bucket#owner owner of the bucket} ({@link #bucket()}), which is why {@link #link} is never
 * {@code null}: a timer that is not pending keeps the bucket it was last in (a new one, the wheel's
 * due bucket).
 */
final class WheelTimer<T> extends AbstractTimerHandle<T> {
  /** The {@link #slot} of a timer that is not pending. */
  static final int NOT_PENDING = -1;

  /**
   * The {@link Bucket} it is in while pending in one; while it is in a slot's short list ({@link
   * Level}), the next timer of the list, or after the last one its level's list bucket of that
   * kind; afterwards the bucket it was last in. Never {@code null}.
   */
  Object link;
  /**
   * Its slot in the chain of its bucket (in a short list: its slot of the level), or {@link
   * #NOT_PENDING}: pending if and only if not negative.
   */
  int slot = NOT_PENDING;

  WheelTimer(Bucket<T> bucket, T payload) {
    super(payload);
    this.link = bucket;
  }

  /**
   * The bucket it is in or was last in; for a timer of a short list, the list bucket at the end of
   * its list, at most {@value Level#LIST_MAX} links on.
   */
  @SuppressWarnings("unchecked")
  Bucket<T> bucket() {
    // A timer in a bucket first, the case of every cancel with many timers; the walk along a
    // short list is out of line.
    return link instanceof Bucket<?> bucket ? (Bucket<T>) bucket : listBucket();
  }

  @SuppressWarnings("unchecked")
  private Bucket<T> listBucket() {
    Object at = link;
    while (at instanceof WheelTimer<?> next) {
      at = next.link;
    }
    return (Bucket<T>) at;
  }

  /** The timer after this one in its short list, or {@code null} if it is the last. */
  @SuppressWarnings("unchecked")
  WheelTimer<T> nextListed() {
    return link instanceof WheelTimer<?> next ? (WheelTimer<T>) next : null;
  }

  @Override
  public boolean isPending() {
    return slot >= 0;
  }
}
