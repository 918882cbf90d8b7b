package io.github.timerqueue.spi;

import io.github.timerqueue.TimerHandle;
import io.github.timerqueue.TimerQueue;
import java.util.Objects;

/**
 * A skeleton of a {@link TimerQueue} that writes {@link #schedule}, {@link #cancel} and {@link
 * #reschedule} once, in terms of four operations of the strategy: create a timer, tell whether a
 * handle is one of this queue's, arm a timer that is not pending, and remove one that is. So a
 * strategy writes its data structure, not the contract's bookkeeping around it: the null checks,
 * the refusal of a foreign handle, and what {@code cancel} and {@code reschedule} return.
 *
 * <p>A strategy whose structure can move a pending timer more cheaply than removing and arming it
 * again (a heap that sifts it in place) overrides {@link #reschedule}; one that can choose a
 * deadline within a range implements {@link #scheduleWithin} with {@link #newTimer} and {@link
 * #arm}. The remaining methods of {@link TimerQueue} are the strategy's.
 *
 * <p>Every method here adds a constant number of steps to the strategy's operations and allocates
 * nothing beyond what {@link #newTimer} does.
 *
 * @param <T> the type of the payload
 * @param <H> the strategy's handle class
 */
public abstract class AbstractTimerQueue<T, H extends TimerHandle<T>> implements TimerQueue<T> {

  /** Creates the skeleton; for subclasses. */
  protected AbstractTimerQueue() {}

  /**
   * {@inheritDoc}
   *
   * <p>Creates the timer with {@link #newTimer} and arms it with {@link #arm}.
   */
  @Override
  public TimerHandle<T> schedule(long deadline, T payload) {
    H timer = newTimer(Objects.requireNonNull(payload, "payload"));
    arm(timer, deadline);
    return timer;
  }

  /**
   * {@inheritDoc}
   *
   * <p>{@link #remove Removes} the timer if it is pending, and does nothing else otherwise.
   */
  @Override
  public boolean cancel(TimerHandle<T> timer) {
    H owned = own(timer);
    if (!owned.isPending()) {
      return false;
    }
    remove(owned);
    return true;
  }

  /**
   * {@inheritDoc}
   *
   * <p>{@link #remove Removes} the timer if it is pending, then {@link #arm arms} it at the new
   * deadline.
   */
  @Override
  public boolean reschedule(TimerHandle<T> timer, long deadline) {
    H owned = own(timer);
    boolean wasPending = owned.isPending();
    if (wasPending) {
      remove(owned);
    }
    arm(owned, deadline);
    return wasPending;
  }

  /**
   * Returns {@code timer} as this queue's handle class, checking that this queue created it.
   *
   * @param timer a handle a caller passed in
   * @return the same object, typed as this strategy's handle
   * @throws NullPointerException if {@code timer} is {@code null}
   * @throws IllegalArgumentException if this queue did not create {@code timer}, naming it
   */
  protected final H own(TimerHandle<T> timer) {
    Objects.requireNonNull(timer, "timer");
    H owned = ownedOrNull(timer);
    if (owned == null) {
      throw TimerQueueChecks.foreignHandle(timer);
    }
    return owned;
  }

  /**
   * Creates a timer of this queue that is not pending. Must not arm it, count it or fail.
   *
   * @param payload the payload, not {@code null}
   * @return a new handle, not pending, that {@link #ownedOrNull} accepts
   */
  protected abstract H newTimer(T payload);

  /**
   * Returns {@code timer} typed as this strategy's handle if this queue created it, pending or
   * not, or {@code null} if it did not (another queue's handle, or another class). Constant time.
   *
   * @param timer a handle, not {@code null}
   * @return {@code timer}, or {@code null}
   */
  protected abstract H ownedOrNull(TimerHandle<T> timer);

  /**
   * Arms a timer of this queue that is not pending at {@code deadline}: it becomes pending, and
   * counts in {@link #size()}. The deadline may be in the past; the timer is then due.
   *
   * @param timer a timer of this queue, not pending
   * @param deadline its new deadline
   */
  protected abstract void arm(H timer, long deadline);

  /**
   * Removes a pending timer of this queue: it stops being pending and no longer counts in {@link
   * #size()}. Its deadline and payload stay as they were.
   *
   * @param timer a pending timer of this queue
   */
  protected abstract void remove(H timer);
}
