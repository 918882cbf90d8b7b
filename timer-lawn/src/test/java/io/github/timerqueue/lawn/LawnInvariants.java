package io.github.timerqueue.lawn;

import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Checks the structure of a {@link LawnTimerQueue} after any operation, and names the first broken
 * invariant:
 *
 * <ul>
 *   <li>every list closes on its sentinel, with each forward link mirrored by a backward one;
 *   <li>every TTL queue is non-empty, sorted by expiry from head to tail, no timer in it expires
 *       later than a timer of its TTL armed now would, and its span is its TTL times the
 *       resolution (saturated);
 *   <li>the index is a heap, each entry knows its position, and each key is its queue's head
 *       expiry;
 *   <li>the map and the index hold the same queues, one per TTL;
 *   <li>each pending timer is in exactly one list, which its {@code list} field names;
 *   <li>{@code size()} is the number of timers in the queues and the due list;
 *   <li>spare queues are empty and in neither the map nor the index;
 *   <li>{@code nextExpiryDelay()} is the exact distance to the earliest head.
 * </ul>
 *
 * <p>Failure messages are built only on failure, so that a check costs {@code O(n + Q)}.
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

    if (queue.queuesByTtl.size() != index.size()) {
      throw broken("the map holds " + queue.queuesByTtl.size() + " queues, the index "
          + index.size());
    }
    for (int position = 0; position < index.size(); position++) {
      TtlQueue<T> ttlQueue = index.get(position);
      if (ttlQueue.position != position) {
        throw broken(ttlQueue + " is at index position " + position + " but thinks it is at "
            + ttlQueue.position);
      }
      if (ttlQueue.isEmpty()) {
        throw broken(ttlQueue + " is empty but still indexed");
      }
      if (ttlQueue.ttl < 0) {
        throw broken(ttlQueue + " has a negative TTL");
      }
      if (queue.queuesByTtl.get(ttlQueue.ttl) != ttlQueue) {
        throw broken(ttlQueue + " is not the map's queue for its TTL: " + queue.queuesByTtl);
      }
      if (ttlQueue.span != latestExpiry(0, ttlQueue.ttl, resolution)) {
        throw broken(ttlQueue + " has the span " + Long.toUnsignedString(ttlQueue.span));
      }
      queued += checkList(ttlQueue, queue, seen);
      LawnTimer<T> head = ttlQueue.first();
      if (index.keyAt(position) != (head.expiry ^ Long.MIN_VALUE)) {
        throw broken(ttlQueue + " is keyed " + Long.toUnsignedString(index.keyAt(position)
            ^ Long.MIN_VALUE) + " but its head expires at " + Long.toUnsignedString(head.expiry));
      }
      if (position > 0 && index.keyAt((position - 1) >>> 1) > index.keyAt(position)) {
        throw broken(ttlQueue + " at " + position + " has an earlier key than its parent");
      }
      long latestAllowed = ttlQueue.ttl == 0
          ? elapsed : latestExpiry(tickStart, ttlQueue.ttl, resolution);
      long previousExpiry = 0;
      for (TimerLink<T> link = ttlQueue.next; link != ttlQueue; link = link.next) {
        LawnTimer<T> timer = (LawnTimer<T>) link;
        if (Long.compareUnsigned(previousExpiry, timer.expiry) > 0) {
          throw broken(ttlQueue + " is not sorted by expiry at " + timer);
        }
        if (Long.compareUnsigned(timer.expiry, latestAllowed) > 0) {
          throw broken(ttlQueue + " holds " + timer + " expiring at "
              + Long.toUnsignedString(timer.expiry) + ", later than a timer of its TTL armed now ("
              + Long.toUnsignedString(latestAllowed) + ")");
        }
        if (ttlQueue.ttl > 0 && timer.expiry != -1L
            && Long.remainderUnsigned(timer.expiry, resolution) != 0) {
          throw broken(ttlQueue + " holds " + timer + " expiring off the resolution's grid");
        }
        previousExpiry = timer.expiry;
      }
      if (Long.compareUnsigned(head.expiry, earliestHead) < 0) {
        earliestHead = head.expiry;
      }
    }
    int due = checkList(queue.due, queue, seen);
    if (queue.size() != queued + due) {
      throw broken("size() is " + queue.size() + " but the lists hold " + queued + " + " + due);
    }

    for (int spare = 0; spare < queue.spareCount; spare++) {
      TtlQueue<T> ttlQueue = queue.spares[spare];
      if (!ttlQueue.isEmpty() || ttlQueue.previous != ttlQueue
          || ttlQueue.position != TtlQueue.NOT_INDEXED
          || queue.queuesByTtl.get(ttlQueue.ttl) == ttlQueue) {
        throw broken("spare " + ttlQueue + " is not empty, or still indexed or mapped");
      }
    }

    long delay = queue.nextExpiryDelay();
    long expected;
    if (due > 0 || (!index.isEmpty() && Long.compareUnsigned(earliestHead, elapsed) <= 0)) {
      expected = 0;
    } else if (index.isEmpty()) {
      expected = Long.MAX_VALUE;
    } else {
      long exact = earliestHead - elapsed;
      expected = Long.compareUnsigned(exact, Long.MAX_VALUE - 1) > 0 ? Long.MAX_VALUE - 1 : exact;
    }
    if (delay != expected) {
      throw broken("nextExpiryDelay() is " + delay + " but the earliest head says " + expected);
    }
  }

  /**
   * Checks the links of one list, that they close on its sentinel both ways, and that it owns its
   * timers; returns how many it holds.
   */
  private static <T> int checkList(
      TimerList<T> list, LawnTimerQueue<T> queue, Map<LawnTimer<T>, TimerList<T>> seen) {
    int count = 0;
    TimerLink<T> previous = list;
    for (TimerLink<T> link = list.next; link != list; link = link.next) {
      if (link == null || link instanceof TimerList) {
        throw broken(list + " links to " + link + " after " + count + " timers");
      }
      LawnTimer<T> timer = (LawnTimer<T>) link;
      if (timer.owner != queue) {
        throw broken(list + " holds " + timer + " of another queue");
      }
      if (timer.list != list) {
        throw broken(list + " holds " + timer + ", which thinks it is in " + timer.list);
      }
      if (timer.previous != previous) {
        throw broken(list + " has a broken backward link at " + timer);
      }
      TimerList<T> other = seen.put(timer, list);
      if (other != null) {
        throw broken(timer + " is in " + list + " and also in " + other);
      }
      previous = timer;
      if (++count > queue.size()) {
        throw broken(list + " is longer than size() " + queue.size() + "; is it a cycle?");
      }
    }
    if (list.previous != previous) {
      throw broken(list + " says its last timer is " + list.previous + " but it is " + previous);
    }
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

  private static AssertionError broken(String message) {
    return new AssertionError(message);
  }
}
