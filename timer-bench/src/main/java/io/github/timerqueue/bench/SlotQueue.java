package io.github.timerqueue.bench;

import io.github.timerqueue.TimerHandle;
import io.github.timerqueue.TimerQueue;
import java.util.Arrays;

/**
 * A {@link TimerQueue} strategy driven by slot, as its contract recommends for allocation-free
 * code: one handle per slot, created by the slot's first {@code schedule} and re-armed with {@code
 * reschedule} ever after. What the workloads and the trace replay do to a strategy alike.
 *
 * @param <T> the payload of the timers
 */
public abstract class SlotQueue<T> {
  /** The strategy under test. */
  protected final TimerQueue<T> queue;
  private TimerHandle<T>[] handles;

  /**
   * Drives {@code queue} with room for {@code capacity} slots.
   *
   * @param queue the strategy
   * @param capacity the slots to begin with (see {@link #ensureSlot})
   */
  @SuppressWarnings("unchecked")
  protected SlotQueue(TimerQueue<T> queue, int capacity) {
    this.queue = queue;
    this.handles = (TimerHandle<T>[]) new TimerHandle<?>[capacity];
  }

  /**
   * The payload of the timer a slot's first {@code schedule} creates; called once per slot.
   *
   * @param slot the slot
   * @return its timers' payload
   */
  protected abstract T payload(int slot);

  /**
   * Grows the slots to hold {@code slot}; the other methods assume it is held. Amortized O(1).
   *
   * @param slot a slot, at least 0
   */
  protected final void ensureSlot(int slot) {
    if (slot >= handles.length) {
      handles = Arrays.copyOf(handles, Math.max(slot + 1, handles.length * 2));
    }
  }

  /**
   * The handle of {@code slot}, null before its first {@code schedule}.
   *
   * @param slot the slot
   * @return its handle
   */
  protected final TimerHandle<T> handle(int slot) {
    return handles[slot];
  }

  /**
   * Makes {@code handle} the handle of {@code slot}.
   *
   * @param slot the slot
   * @param handle its new handle
   */
  protected final void setHandle(int slot, TimerHandle<T> handle) {
    handles[slot] = handle;
  }

  /**
   * Arms the timer of {@code slot}, which is not pending, to fire at {@code deadline}: the first
   * time with {@code schedule}, later by re-arming its handle.
   *
   * @param slot the slot
   * @param deadline the deadline
   */
  public void schedule(int slot, long deadline) {
    TimerHandle<T> handle = handles[slot];
    if (handle == null) {
      handles[slot] = queue.schedule(deadline, payload(slot));
    } else {
      queue.reschedule(handle, deadline);
    }
  }

  /**
   * Cancels the timer of {@code slot}.
   *
   * @param slot the slot
   * @return whether it was pending
   */
  public boolean cancel(int slot) {
    return queue.cancel(handles[slot]);
  }

  /**
   * Moves the timer of {@code slot} to {@code deadline}, re-arming it if it was not pending.
   *
   * @param slot the slot
   * @param deadline the deadline
   * @return whether it was pending
   */
  public boolean reschedule(int slot, long deadline) {
    return queue.reschedule(handles[slot], deadline);
  }

  /**
   * The strategy's own estimate of the time until the next timer may fire.
   *
   * @return its {@code nextExpiryDelay()}
   */
  public long nextExpiryDelay() {
    return queue.nextExpiryDelay();
  }

  /**
   * The number of pending timers.
   *
   * @return the queue's size
   */
  public long size() {
    return queue.size();
  }

  /**
   * The object graph whose size is the memory the pending timers cost.
   *
   * @return the queue
   */
  public Object structure() {
    return queue;
  }
}
