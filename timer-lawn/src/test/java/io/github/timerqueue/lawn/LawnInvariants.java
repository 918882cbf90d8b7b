package io.github.timerqueue.lawn;

import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Checks the structure of a {@link LawnTimerQueue} after any operation, and names the first broken
 * invariant:
 *
 * <ul>
 *   <li>every TTL queue is non-empty, correctly linked, and sorted by expiry from head to tail, and
 *       no timer in it expires later than a timer of its TTL armed now would;
 *   <li>the index is a heap, each entry knows its position, and each key is its queue's head expiry;
 *   <li>the map and the index hold the same queues, one per TTL;
 *   <li>each pending timer is in exactly one list, which its {@code list} field names;
 *   <li>{@code size()} is the number of timers in the queues and the due list;
 *   <li>spare queues are empty and in neither the map nor the index;
 *   <li>{@code nextExpiryDelay()} agrees with the earliest head.
 * </ul>
 */
final class LawnInvariants {

  private LawnInvariants() {}

  static void check(LawnTimerQueue<?> queue) {
    checkTyped(queue);
  }

  private static <T> void checkTyped(LawnTimerQueue<T> queue) {
    HeadIndex<T> index = queue.index;
    long elapsed = queue.elapsed();
    long resolution = queue.resolution();
    long tickStart = elapsed - Long.remainderUnsigned(elapsed, resolution);
    Map<LawnTimer<T>, TimerList<T>> seen = new IdentityHashMap<>();
    long earliestHead = -1L;
    int queued = 0;

    check(queue.queuesByTtl.size() == index.size(), "the map holds " + queue.queuesByTtl.size()
        + " queues, the index " + index.size());
    for (int position = 0; position < index.size(); position++) {
      TtlQueue<T> ttlQueue = index.get(position);
      String name = ttlQueue + " at index position " + position;
      check(ttlQueue.position == position, name + " thinks it is at " + ttlQueue.position);
      check(!ttlQueue.isEmpty(), name + " is empty but still indexed");
      check(ttlQueue.ttl >= 0, name + " has a negative TTL");
      check(queue.queuesByTtl.get(ttlQueue.ttl) == ttlQueue,
          name + " is not the map's queue for its TTL: " + queue.queuesByTtl);
      check(index.keyAt(position) == (ttlQueue.head.expiry ^ Long.MIN_VALUE),
          name + " is keyed " + (index.keyAt(position) ^ Long.MIN_VALUE) + " but its head expires at "
              + Long.toUnsignedString(ttlQueue.head.expiry));
      if (position > 0) {
        int parent = (position - 1) >>> 1;
        check(index.keyAt(parent) <= index.keyAt(position),
            name + " has an earlier key than its parent at " + parent);
      }
      long latestAllowed = ttlQueue.ttl == 0 ? elapsed : latestExpiry(tickStart, ttlQueue.ttl,
          resolution);
      long previousExpiry = 0;
      int count = checkList(ttlQueue, queue, seen, name);
      for (LawnTimer<T> timer = ttlQueue.head; timer != null; timer = timer.next) {
        check(Long.compareUnsigned(previousExpiry, timer.expiry) <= 0,
            name + " is not sorted by expiry at " + timer);
        check(Long.compareUnsigned(timer.expiry, latestAllowed) <= 0, name + " holds " + timer
            + " expiring at " + Long.toUnsignedString(timer.expiry)
            + ", later than a timer of its TTL armed now (" + Long.toUnsignedString(latestAllowed)
            + ")");
        if (ttlQueue.ttl > 0) {
          check(timer.expiry == -1L || Long.remainderUnsigned(timer.expiry, resolution) == 0,
              name + " holds " + timer + " expiring off the resolution's grid");
        }
        previousExpiry = timer.expiry;
      }
      queued += count;
      if (Long.compareUnsigned(ttlQueue.head.expiry, earliestHead) < 0) {
        earliestHead = ttlQueue.head.expiry;
      }
    }
    int due = checkList(queue.due, queue, seen, "the due list");
    check(queue.size() == queued + due,
        "size() is " + queue.size() + " but the lists hold " + queued + " + " + due);

    for (int spare = 0; spare < queue.spareCount; spare++) {
      TtlQueue<T> ttlQueue = queue.spares[spare];
      check(ttlQueue.isEmpty() && ttlQueue.size == 0, "spare " + ttlQueue + " is not empty");
      check(ttlQueue.position == TtlQueue.NOT_INDEXED, "spare " + ttlQueue + " is indexed");
      check(queue.queuesByTtl.get(ttlQueue.ttl) != ttlQueue, "spare " + ttlQueue + " is mapped");
    }

    long delay = queue.nextExpiryDelay();
    if (due > 0) {
      check(delay == 0, "timers are due but the delay is " + delay);
    } else if (index.isEmpty()) {
      check(delay == Long.MAX_VALUE, "the queue is empty but the delay is " + delay);
    } else if (Long.compareUnsigned(earliestHead, elapsed) <= 0) {
      check(delay == 0, "a head is due but the delay is " + delay);
    } else {
      long exact = earliestHead - elapsed;
      long expected = Long.compareUnsigned(exact, Long.MAX_VALUE - 1) > 0 ? Long.MAX_VALUE - 1
          : exact;
      check(delay == expected, "the earliest head is " + exact + " away but the delay is " + delay);
    }
  }

  /** Checks the links of one list and that it owns its timers; returns how many it holds. */
  private static <T> int checkList(TimerList<T> list, LawnTimerQueue<T> queue,
      Map<LawnTimer<T>, TimerList<T>> seen, String name) {
    int count = 0;
    LawnTimer<T> previous = null;
    for (LawnTimer<T> timer = list.head; timer != null; timer = timer.next) {
      check(timer.owner == queue, name + " holds " + timer + " of another queue");
      check(timer.list == list, name + " holds " + timer + ", which thinks it is in " + timer.list);
      check(timer.previous == previous, name + " has a broken backward link at " + timer);
      TimerList<T> other = seen.put(timer, list);
      check(other == null, timer + " is in " + name + " and also in " + other);
      previous = timer;
      count++;
      check(count <= queue.size(), name + " is longer than size() " + queue.size()
          + "; is it a cycle?");
    }
    check(list.tail == previous, name + " has the wrong tail");
    check(list.size == count, name + " says it holds " + list.size + " but holds " + count);
    return count;
  }

  /** {@code tickStart + ttl * resolution}, saturated at the end of the clock's range. */
  private static long latestExpiry(long tickStart, long ttl, long resolution) {
    if (Math.multiplyHigh(ttl, resolution) != 0) {
      return -1L;
    }
    long expiry = tickStart + ttl * resolution;
    return Long.compareUnsigned(expiry, tickStart) < 0 ? -1L : expiry;
  }

  private static void check(boolean condition, String message) {
    if (!condition) {
      throw new AssertionError(message);
    }
  }
}
