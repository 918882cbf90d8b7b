package io.github.timerqueue.heap;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerHandle;
import io.github.timerqueue.spi.AbstractTimerQueue;
import io.github.timerqueue.spi.TimerQueueChecks;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The reference strategy: an indexed 4-ary min-heap of timers ordered by deadline, then by the
 * order in which they were armed.
 *
 * <p>It is exact whatever the resolution: a timer fires in the first advance at or past its
 * deadline. Timers that fire in the same advance are handed out in deadline order, first in, first
 * out among equal deadlines (a rescheduled timer counts as armed when it was rescheduled).
 *
 * <p>Costs, with {@code n} pending timers: {@code schedule}, {@code cancel} and {@code reschedule}
 * {@code O(log n)}; {@code advance} {@code O(log n)} per fired timer and {@code O(1)} when nothing
 * is due; {@code nextExpiryDelay} and {@code size} {@code O(1)}. A 4-ary heap is used rather than a
 * binary one because it is half as deep and its four children share a cache line or two.
 *
 * <p>Keys are the unsigned distance of each deadline from the start time, kept in a primitive array
 * beside the heap of handles, with the sign bit flipped so that a signed comparison orders them as
 * unsigned values.
 */
/*
 * Implementation notes.
 *
 * An advance hands timers out straight from the top of the heap, one at a time, with no batch
 * collected beforehand: a handler that cancels or re-arms a due timer therefore never leaves a hole
 * in the advance's quota of {@code limit} timers, and a handler that throws leaves every timer it
 * did not reach where it was.
 *
 * What keeps a timer armed by a handler out of the running advance is the order itself. A deadline
 * at or before now() is keyed at the current elapsed time, the largest key that is due, and ties
 * are broken by the arming sequence; so every timer armed during an advance sorts after every timer
 * that was due when the advance began, and the advance stops at the first due timer whose sequence
 * is not older than the advance.
 */
final class HeapTimerQueue<T> extends AbstractTimerQueue<T, HeapTimer<T>> {
  private static final int ARITY_SHIFT = 2;
  private static final int INITIAL_CAPACITY = 16;

  /** The queue's clock, and its unsigned distance from the start time. */
  private long now;
  private long elapsed;

  private HeapTimer<T>[] heap;
  /** {@code keys[i]} is the sign-flipped key of {@code heap[i]}. */
  private long[] keys;
  private int heapSize;
  private long nextSequence;

  private boolean advancing;

  @SuppressWarnings("unchecked")
  HeapTimerQueue(TimerConfig config) {
    this.now = config.startTime();
    this.heap = (HeapTimer<T>[]) new HeapTimer<?>[INITIAL_CAPACITY];
    this.keys = new long[INITIAL_CAPACITY];
  }

  @Override
  public String strategy() {
    return HeapTimerQueueProvider.NAME;
  }

  @Override
  public long now() {
    return now;
  }

  /**
   * {@inheritDoc}
   *
   * <p>The heap is exact, so every deadline costs the same: it chooses {@code earliest}.
   */
  @Override
  public TimerHandle<T> scheduleWithin(long earliest, long latest, T payload) {
    TimerQueueChecks.checkRange(earliest, latest);
    return schedule(earliest, payload);
  }

  /**
   * {@inheritDoc}
   *
   * <p>A pending timer is moved within the heap, sifted up or down from where it is, rather than
   * removed and pushed again.
   */
  @Override
  public boolean reschedule(TimerHandle<T> timer, long deadline) {
    HeapTimer<T> owned = own(timer);
    int index = owned.index;
    if (index >= 0) {
      owned.setDeadline(deadline);
      owned.sequence = nextSequence++;
      keys[index] = flippedKey(deadline);
      siftUp(index);
      if (heap[index] == owned) {
        siftDown(index);
      }
      return true;
    }
    arm(owned, deadline);
    return false;
  }

  @Override
  public int advance(long now, Consumer<? super TimerHandle<T>> onExpired, int limit) {
    TimerQueueChecks.checkAdvance(onExpired, limit, advancing);
    long step = now - this.now;
    if (step > 0) {
      this.now = now;
      this.elapsed += step;
    }
    long dueKey = elapsed ^ Long.MIN_VALUE;
    // Timers armed from now on, by the handler, are not older than this and wait for the next advance.
    long armedBefore = nextSequence;
    advancing = true;
    try {
      int fired = 0;
      while (fired < limit && heapSize > 0 && keys[0] <= dueKey
          && heap[0].sequence < armedBefore) {
        HeapTimer<T> timer = heap[0];
        removeAt(0);
        timer.index = HeapTimer.NOT_PENDING;
        fired++;
        onExpired.accept(timer);
      }
      return fired;
    } finally {
      advancing = false;
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>Exact and {@code O(1)}: the distance to the earliest deadline, capped at {@code
   * Long.MAX_VALUE - 1}.
   */
  @Override
  public long nextExpiryDelay() {
    if (heapSize == 0) {
      return Long.MAX_VALUE;
    }
    long earliest = keys[0] ^ Long.MIN_VALUE;
    if (Long.compareUnsigned(earliest, elapsed) <= 0) {
      return 0;
    }
    return Math.min(earliest - elapsed, Long.MAX_VALUE - 1);
  }

  @Override
  public int size() {
    return heapSize;
  }

  @Override
  public void clear() {
    for (int i = 0; i < heapSize; i++) {
      heap[i].index = HeapTimer.NOT_PENDING;
      heap[i] = null;
    }
    heapSize = 0;
  }

  @Override
  public int drain(Consumer<? super TimerHandle<T>> sink) {
    Objects.requireNonNull(sink, "sink");
    TimerQueueChecks.checkNotInHandler(advancing, "drain");
    int drained = 0;
    while (heapSize > 0) {
      // Removing the last entry needs no sifting and leaves a valid heap.
      HeapTimer<T> timer = heap[heapSize - 1];
      removeAt(heapSize - 1);
      timer.index = HeapTimer.NOT_PENDING;
      drained++;
      sink.accept(timer);
    }
    return drained;
  }

  @Override
  public void forEach(Consumer<? super TimerHandle<T>> action) {
    Objects.requireNonNull(action, "action");
    for (int i = 0; i < heapSize; i++) {
      action.accept(heap[i]);
    }
  }

  @Override
  public String toString() {
    return "HeapTimerQueue{now=" + now + ", size=" + size() + "}";
  }

  @Override
  protected HeapTimer<T> newTimer(T payload) {
    return new HeapTimer<>(this, payload);
  }

  @Override
  protected HeapTimer<T> ownedOrNull(TimerHandle<T> timer) {
    return timer instanceof HeapTimer<T> owned && owned.queue == this ? owned : null;
  }

  @Override
  protected void arm(HeapTimer<T> timer, long deadline) {
    timer.setDeadline(deadline);
    timer.sequence = nextSequence++;
    push(timer, flippedKey(deadline));
  }

  @Override
  protected void remove(HeapTimer<T> timer) {
    removeAt(timer.index);
    timer.index = HeapTimer.NOT_PENDING;
  }

  /**
   * The sign-flipped key of a deadline: its unsigned distance from the start time, where a deadline
   * in the past counts as now, saturating at the end of the clock's range.
   */
  private long flippedKey(long deadline) {
    long distance = Math.max(0, deadline - now);
    long key = elapsed + distance;
    if (Long.compareUnsigned(key, elapsed) < 0) {
      key = -1L;
    }
    return key ^ Long.MIN_VALUE;
  }

  private void push(HeapTimer<T> timer, long key) {
    if (heapSize == heap.length) {
      int capacity = heap.length * 2;
      heap = Arrays.copyOf(heap, capacity);
      keys = Arrays.copyOf(keys, capacity);
    }
    int index = heapSize++;
    heap[index] = timer;
    keys[index] = key;
    timer.index = index;
    siftUp(index);
  }

  private void removeAt(int index) {
    int last = --heapSize;
    HeapTimer<T> moved = heap[last];
    long movedKey = keys[last];
    heap[last] = null;
    if (index != last) {
      heap[index] = moved;
      keys[index] = movedKey;
      moved.index = index;
      siftUp(index);
      if (heap[index] == moved) {
        siftDown(index);
      }
    }
  }

  /** Whether entry {@code (key, timer)} is ordered before the entry at {@code index}. */
  private boolean before(long key, HeapTimer<T> timer, int index) {
    long other = keys[index];
    return key < other || (key == other && timer.sequence < heap[index].sequence);
  }

  private void siftUp(int index) {
    HeapTimer<T> timer = heap[index];
    long key = keys[index];
    while (index > 0) {
      int parent = (index - 1) >>> ARITY_SHIFT;
      if (!before(key, timer, parent)) {
        break;
      }
      place(heap[parent], keys[parent], index);
      index = parent;
    }
    place(timer, key, index);
  }

  private void siftDown(int index) {
    HeapTimer<T> timer = heap[index];
    long key = keys[index];
    while (true) {
      int firstChild = (index << ARITY_SHIFT) + 1;
      if (firstChild >= heapSize) {
        break;
      }
      int smallest = firstChild;
      int end = Math.min(firstChild + (1 << ARITY_SHIFT), heapSize);
      for (int child = firstChild + 1; child < end; child++) {
        if (before(keys[child], heap[child], smallest)) {
          smallest = child;
        }
      }
      if (before(key, timer, smallest)) {
        break;
      }
      place(heap[smallest], keys[smallest], index);
      index = smallest;
    }
    place(timer, key, index);
  }

  private void place(HeapTimer<T> timer, long key, int index) {
    heap[index] = timer;
    keys[index] = key;
    timer.index = index;
  }
}
