package io.github.timerqueue;

/**
 * A timer scheduled on a {@link TimerQueue}: the handle returned by {@code schedule} and handed to
 * the {@code advance} handler when the timer fires.
 *
 * <p>A handle belongs to the queue that created it for its whole life. It is <em>pending</em> from
 * the moment it is scheduled until it fires (is handed to an {@code advance} handler), is
 * cancelled, or is removed by {@link TimerQueue#clear() clear} or {@link TimerQueue#drain drain}.
 * A handle that is no longer pending stays safe to use forever: {@link TimerQueue#cancel cancel}
 * returns {@code false} for it and touches no other timer, and {@link TimerQueue#reschedule
 * reschedule} re-arms it, so a caller that keeps one handle per connection can schedule without
 * allocating.
 *
 * <p>Handles are owned by their queue and share its threading rule: read them from the thread
 * that drives the queue. Implementations are provided by strategies; callers never implement this
 * interface.
 *
 * @param <T> the type of the payload
 */
public interface TimerHandle<T> {

  /**
   * Returns the payload this timer was scheduled with. Never {@code null}. Constant time.
   *
   * @return the payload given to {@code schedule} or {@code scheduleWithin}
   */
  T payload();

  /**
   * Returns the deadline this timer was last armed with: the value given to {@code schedule} or
   * {@code reschedule}, or for {@code scheduleWithin} the time in the range that the strategy
   * chose. The value is kept after the timer fires or is cancelled. Constant time.
   *
   * @return the deadline, in the queue's time units
   */
  long deadline();

  /**
   * Returns whether this timer is pending: scheduled and not yet fired, cancelled, drained or
   * cleared. A timer whose deadline has passed but that has not yet been handed to a handler is
   * still pending. Constant time.
   *
   * @return {@code true} if this timer is pending
   */
  boolean isPending();
}
