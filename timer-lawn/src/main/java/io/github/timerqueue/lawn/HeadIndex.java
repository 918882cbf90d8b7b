package io.github.timerqueue.lawn;

import java.util.Arrays;

/**
 * The non-empty TTL queues, in an indexed binary min-heap keyed by the expiry of each queue's head:
 * what replaces the paper's per-tick visit of every queue. Its first entry is the paper's "closest
 * expiration", kept exact at all times.
 *
 * <p>A queue's key changes only when its head leaves, and the next timer of a queue never expires
 * before the one ahead of it, so a key only ever grows: {@link #headRemoved} sifts down, never up.
 * Keys are kept in a primitive array beside the queues, with the sign bit flipped so that signed
 * comparison orders them as the unsigned distances they are. Queues whose heads expire together are
 * ordered by their {@link TtlQueue#rank}, which keeps timers of one TTL first-in, first-out when
 * they are in different {@linkplain SharedQueues shared queues}.
 *
 * <p>With {@code Q} queues: {@link #add}, {@link #remove} and {@link #headRemoved} {@code O(log
 * Q)}; the rest {@code O(1)}.
 */
final class HeadIndex<T> {
  private static final int INITIAL_CAPACITY = 8;

  private TtlQueue<T>[] queues;
  /** {@code keys[i]} is the sign-flipped head expiry of {@code queues[i]}. */
  private long[] keys;
  private int size;

  @SuppressWarnings("unchecked")
  HeadIndex() {
    queues = (TtlQueue<T>[]) new TtlQueue<?>[INITIAL_CAPACITY];
    keys = new long[INITIAL_CAPACITY];
  }

  int size() {
    return size;
  }

  boolean isEmpty() {
    return size == 0;
  }

  /** Returns the queue at a position, {@code 0 <= position < size()}: for visiting every queue. */
  TtlQueue<T> get(int position) {
    return queues[position];
  }

  /** Returns the queue whose head expires first. The index must not be empty. */
  TtlQueue<T> first() {
    return queues[0];
  }

  /** Returns the expiry of the first queue's head (unsigned). The index must not be empty. */
  long firstExpiry() {
    return keys[0] ^ Long.MIN_VALUE;
  }

  /** Adds a queue that has a head and is not in the index. */
  void add(TtlQueue<T> queue) {
    if (size == queues.length) {
      queues = Arrays.copyOf(queues, size << 1);
      keys = Arrays.copyOf(keys, size << 1);
    }
    siftUp(queue, keyOf(queue), size++);
  }

  /** Takes a queue out of the index. */
  void remove(TtlQueue<T> queue) {
    int position = queue.position;
    queue.position = TtlQueue.NOT_INDEXED;
    int last = --size;
    TtlQueue<T> moved = queues[last];
    long movedKey = keys[last];
    queues[last] = null;
    if (position != last) {
      if (position > 0 && before(movedKey, moved, (position - 1) >>> 1)) {
        siftUp(moved, movedKey, position);
      } else {
        siftDown(moved, movedKey, position);
      }
    }
  }

  /** Re-keys a queue whose head left, by the expiry of its new head (no earlier than the old). */
  void headRemoved(TtlQueue<T> queue) {
    long key = keyOf(queue);
    int position = queue.position;
    if (!keyAbove(key, queue, position)) {
      // It stays where it is, which with a single queue it always does: only its key changes,
      // and no reference is stored (so no write barrier is paid).
      keys[position] = key;
    } else {
      siftDown(queue, key, position);
    }
  }

  /** Whether {@code queue}, keyed {@code key}, at {@code position} goes after one of its children. */
  private boolean keyAbove(long key, TtlQueue<T> queue, int position) {
    int child = (position << 1) + 1;
    if (child >= size) {
      return false;
    }
    return after(key, queue, child) || (child + 1 < size && after(key, queue, child + 1));
  }

  /**
   * Whether {@code queue}, keyed {@code key}, goes after the queue at {@code position}: its head
   * expires later, or at the same time and its rank is higher. The ranks are read only on a tie.
   */
  private boolean after(long key, TtlQueue<T> queue, int position) {
    long other = keys[position];
    return key > other || (key == other && queue.rank > queues[position].rank);
  }

  /** Whether {@code queue}, keyed {@code key}, goes before the queue at {@code position}. */
  private boolean before(long key, TtlQueue<T> queue, int position) {
    long other = keys[position];
    return key < other || (key == other && queue.rank < queues[position].rank);
  }

  /** Removes every queue. */
  void clear() {
    for (int position = 0; position < size; position++) {
      queues[position].position = TtlQueue.NOT_INDEXED;
      queues[position] = null;
    }
    size = 0;
  }

  /** Returns the sign-flipped key stored at a position: for the invariant checks of the tests. */
  long keyAt(int position) {
    return keys[position];
  }

  private static long keyOf(TtlQueue<?> queue) {
    return queue.firstExpiry() ^ Long.MIN_VALUE;
  }

  private void siftUp(TtlQueue<T> queue, long key, int position) {
    while (position > 0) {
      int parent = (position - 1) >>> 1;
      if (!before(key, queue, parent)) {
        break;
      }
      place(queues[parent], keys[parent], position);
      position = parent;
    }
    place(queue, key, position);
  }

  private void siftDown(TtlQueue<T> queue, long key, int position) {
    while (true) {
      int child = (position << 1) + 1;
      if (child >= size) {
        break;
      }
      if (child + 1 < size && before(keys[child + 1], queues[child + 1], child)) {
        child++;
      }
      if (!after(key, queue, child)) {
        break;
      }
      place(queues[child], keys[child], position);
      position = child;
    }
    place(queue, key, position);
  }

  private void place(TtlQueue<T> queue, long key, int position) {
    queues[position] = queue;
    keys[position] = key;
    queue.position = position;
  }
}
