package io.github.timerqueue.heap;

import io.github.timerqueue.TimerHandle;

/**
 * A timer of a {@link HeapTimerQueue}: its handle, and its entry in the heap.
 */
final class HeapTimer<T> implements TimerHandle<T> {
  /** {@link #index} of a timer that is not pending. */
  static final int NOT_PENDING = -1;

  final HeapTimerQueue<T> queue;
  final T payload;
  long deadline;
  /** Position in the heap array, or {@link #NOT_PENDING}. */
  int index = NOT_PENDING;
  /**
   * Arming order: breaks ties between equal deadlines so that they fire first in, first out, and
   * tells a timer armed by a handler of the running advance from one that was due before it.
   */
  long sequence;

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
