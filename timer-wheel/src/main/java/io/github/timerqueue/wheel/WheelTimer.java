package io.github.timerqueue.wheel;

import io.github.timerqueue.internal.AbstractTimerHandle;

/**
 * A timer of a {@link TimingWheel}: its handle, and its position in the wheel, a slot of the
 * {@link Slab}, whose chunk names the {@linkplain Bucket bucket} it is in, or, for one of the few
 * timers that a slot of a level holds itself, the next of them and the slot (see {@link Level}).
 *
 * <p>Four fields, so that with compressed references a timer takes 32 bytes, half a cache line (on
 * alignment, see the notes in {@link AbstractTimerHandle}): a million timers take 32 MB instead of
 * the 48 MB of a timer that also keeps its key and its owner, which decides how many of the random
 * timer reads of cancelling and re-arming the last-level cache serves. Hence what is not here: the
 * key is derived from the deadline and the clock ({@link TimingWheel#keyOf(WheelTimer)}), the
 * bucket from the slot ({@link Slab#bucketOf}), and the owner is the {@linkplain Level#owner owner
 * of the level} that {@link #link} leads to ({@link #owner()}), which is why {@link #link} is never
 * {@code null}.
 *
 * <p>Why the bucket is not stored here: moving a timer from one bucket to another would then store
 * a reference in it. A timer that has waited a while is in the old generation, and G1's post-write
 * barrier on a reference store into an old object fences and, for a card not yet dirty (the
 * timer's, at random among a million), queues the card for refinement: with a million tenured
 * timers that made a reschedule cost more than twice what it cost with young ones, where the slot,
 * an {@code int}, costs no barrier at all.
 */
final class WheelTimer<T> extends AbstractTimerHandle<T> {
  /** The {@link #slot} of a timer that is not pending. */
  static final int NOT_PENDING = -1;
  /**
   * The smallest {@link #slot} of a timer in a short list: above every slot of the slab ({@link
   * Slab#MAX_SLOTS}), so the two never meet.
   */
  static final int LISTED = 1 << 30;
  /** Added to {@link #LISTED} in the {@link #slot} of a timer in a short list of a coarse slot. */
  private static final int COARSE = 1 << 29;

  /**
   * While it is in a slot's short list ({@link Level}), the next timer of the list, or after the
   * last one the list's level; otherwise a level of its wheel, which says only who owns it: the
   * first level, or the one whose short list it was last in. Never {@code null}, and never
   * rewritten when the timer moves between buckets.
   */
  Object link;
  /**
   * Its slot in the slab, or while it is in a short list {@link #listedSlot} of its slot of the
   * level, or {@link #NOT_PENDING}: pending if and only if not negative.
   */
  int slot = NOT_PENDING;

  WheelTimer(Level<T> level, T payload) {
    super(payload);
    this.link = level;
  }

  /** The {@link #slot} of a timer in the short list of slot {@code levelSlot} of a kind. */
  static int listedSlot(int levelSlot, boolean coarseKind) {
    return LISTED + (coarseKind ? COARSE : 0) + levelSlot;
  }

  /** The wheel that created it. */
  TimingWheel<T> owner() {
    // A timer outside a short list first, the case of every cancel with many timers; the walk
    // along a short list is out of line.
    return link instanceof Level<?> level ? ownerOf(level) : level().owner;
  }

  @SuppressWarnings("unchecked")
  private static <T> TimingWheel<T> ownerOf(Level<?> level) {
    return (TimingWheel<T>) level.owner;
  }

  /**
   * The level its short list ends at, at most {@value Level#LIST_MAX} links on, or if it is in no
   * short list its {@link #link}.
   */
  @SuppressWarnings("unchecked")
  Level<T> level() {
    Object at = link;
    while (at instanceof WheelTimer<?> next) {
      at = next.link;
    }
    return (Level<T>) at;
  }

  /**
   * The bucket it is in, which it must be: pending and in no short list. A pending timer is in one
   * if and only if {@code !}{@link #isListed()}. For tests: the wheel, which knows it owns the
   * timer, asks its slab directly.
   */
  Bucket<T> bucket() {
    return owner().slab.bucketOf(slot);
  }

  /** Whether it is in a slot's short list. */
  boolean isListed() {
    return slot >= LISTED;
  }

  /** Whether it is in the short list of a coarse slot. */
  boolean isListedCoarse() {
    return slot >= LISTED + COARSE;
  }

  /** Its slot of the level, while it is in a short list. */
  int levelSlot() {
    return slot & (COARSE - 1);
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
