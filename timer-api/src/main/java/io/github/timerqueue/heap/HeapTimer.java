package io.github.timerqueue.heap;

import io.github.timerqueue.TimerHandle;

/**
 * A timer of a {@link HeapTimerQueue}: its handle, and its entry in the heap or in the list of
 * timers being handed out by the running advance.
 */
final class HeapTimer<T> implements TimerHandle<T> {
  /** {@link #index} of a timer that is not pending. */
  static final int NOT_PENDING = -1;
  /** {@link #index} of a due timer waiting in the firing list of the running advance. */
  static final int FIRING = -2;

  final HeapTimerQueue<T> queue;
  final T payload;
  long deadline;
  /** Position in the heap array, or {@link #NOT_PENDING} or {@link #FIRING}. */
  int index = NOT_PENDING;
  /** Sign-flipped key, as in the heap's key array; kept here to put a timer back after a throw. */
  long key;
  /** Arming order: breaks ties between equal deadlines so that they fire first in, first out. */
  long sequence;
  /** Neighbours in the firing list, while {@link #index} is {@link #FIRING}. */
  HeapTimer<T> previousFiring;
  HeapTimer<T> nextFiring;

  HeapTimer(HeapTimerQueue<T> queue, T payload) {
    this.queue = queue;
    this.payload = payload;
  }

  @Override
  public T payload() {
    return payload;
  }

  @Override
  public long deadline() {
    return deadline;
  }

  @Override
  public boolean isPending() {
    return index != NOT_PENDING;
  }

  @Override
  public String toString() {
    return "HeapTimer{deadline=" + deadline + ", pending=" + isPending() + ", payload=" + payload
        + "}";
  }
}
