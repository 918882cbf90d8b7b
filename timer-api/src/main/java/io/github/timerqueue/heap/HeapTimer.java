package io.github.timerqueue.heap;

import io.github.timerqueue.internal.AbstractTimerHandle;

/**
 * A timer of a {@link HeapTimerQueue}: its handle, and its entry in the heap.
 */
final class HeapTimer<T> extends AbstractTimerHandle<T> {
  /** {@link #index} of a timer that is not pending. */
  static final int NOT_PENDING = -1;

  final HeapTimerQueue<T> queue;
  /** Position in the heap array, or {@link #NOT_PENDING}. */
  int index = NOT_PENDING;
  /**
   * Arming order: breaks ties between equal deadlines so that they fire first in, first out, and
   * tells a timer armed by a handler of the running advance from one that was due before it.
   */
  long sequence;

  HeapTimer(HeapTimerQueue<T> queue, T payload) {
    super(payload);
    this.queue = queue;
  }

  @Override
  public boolean isPending() {
    return index != NOT_PENDING;
  }
}
