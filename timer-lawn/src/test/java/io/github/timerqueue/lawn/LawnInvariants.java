package io.github.timerqueue.lawn;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks the structure of a {@link LawnTimerQueue} after any operation, and names the first broken
 * invariant:
 *
 * <ul>
 *   <li>every ring's tickets in use fit its slots, its slots outside them are empty (but for the
 *       tail's, which may still refer to a timer that left), its first and last slots hold timers
 *       of the ring, and its size counts the slots that do; its window of ticket numbers has more
 *       numbers than it has slots, and the lawn's ticket table names the ring for each, and no
 *       ring but the lawn's for any number;
 *   <li>every TTL queue is non-empty and its span is its TTL times the resolution (saturated);
 *       in a queue of TTL 1 or more, timers are sorted by expiry from head to tail, each on the
 *       resolution's grid, not earlier than its deadline, and armed in a tick that has begun
 *       (which a timer whose expiry saturates and was put there would not be); every timer of
 *       the queue of TTL 0 is due; the queue of saturated timers, in the index but not in the
 *       map, is keyed at the end of the clock's range;
 *   <li>the index is a heap, each entry knows its position, and each key is its queue's head
 *       expiry;
 *   <li>the map and the index hold the same queues, one per TTL, besides the saturated queue and
 *       the shared queues that are not empty;
 *   <li>the shared queues are ordered by their latest expiry, latest first, and by rank, lowest
 *       first; each holds timers sorted by expiry, none later than its latest, and is in the index
 *       exactly while it is not empty;
 *   <li>each pending timer is in exactly one ring of its queue, which its ticket names;
 *   <li>{@code size()} is the number of timers in the queues; no timer armed due by a handler is
 *       still set apart once the advance is over;
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
    Map<LawnTimer<T>, TimerRing<T>> seen = new IdentityHashMap<>();
    long earliestHead = -1L;
    int queued = 0;

    long start = queue.now() - elapsed;
    int saturated = queue.saturated == null ? 0 : 1;
    Map<TtlQueue<T>, Long> shared = checkShared(queue.shared);
    int sharedHolding = 0;
    for (TtlQueue<T> sharedQueue : shared.keySet()) {
      sharedHolding += sharedQueue.isEmpty() ? 0 : 1;
    }
    if (queue.queuesByTtl.size() + saturated + sharedHolding != index.size()) {
      throw broken("the map holds " + queue.queuesByTtl.size() + " queues, " + saturated
          + " saturated and " + sharedHolding + " shared, the index " + index.size());
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
      if (ttlQueue.ttl == TtlQueue.SATURATED) {
        if (queue.saturated != ttlQueue || ttlQueue.span != -1L) {
          throw broken(ttlQueue + " is saturated but not the lawn's saturated queue "
              + queue.saturated + ", or has a span");
        }
      } else if (ttlQueue.ttl == TtlQueue.SHARED) {
        if (!shared.containsKey(ttlQueue)) {
          throw broken(ttlQueue + " is indexed but not among the shared queues");
        }
      } else {
        if (ttlQueue.ttl < 0) {
          throw broken(ttlQueue + " has a negative TTL");
        }
        if (queue.queuesByTtl.get(ttlQueue.ttl) != ttlQueue) {
          throw broken(ttlQueue + " is not the map's queue for its TTL: " + queue.queuesByTtl);
        }
        if (ttlQueue.rank != Long.MAX_VALUE) {
          throw broken(ttlQueue + " has the rank " + ttlQueue.rank + " of a shared queue");
        }
        if (ttlQueue.span != saturatedSpan(ttlQueue.ttl, resolution)) {
          throw broken(ttlQueue + " has the span " + Long.toUnsignedString(ttlQueue.span));
        }
      }
      List<LawnTimer<T>> timers = checkOwnedRing(ttlQueue, queue, seen);
      queued += timers.size();
      long headExpiry = ttlQueue.firstExpiry();
      if (index.keyAt(position) != (headExpiry ^ Long.MIN_VALUE)) {
        throw broken(ttlQueue + " is keyed " + Long.toUnsignedString(index.keyAt(position)
            ^ Long.MIN_VALUE) + " but its head expires at " + Long.toUnsignedString(headExpiry));
      }
      if (position > 0 && index.keyAt((position - 1) >>> 1) > index.keyAt(position)) {
        throw broken(ttlQueue + " at " + position + " has an earlier key than its parent");
      }
      long previousExpiry = 0;
      for (LawnTimer<T> timer : timers) {
        long expiry = ttlQueue.expiryOf(timer);
        if (ttlQueue.ttl == TtlQueue.SATURATED) {
          if (expiry != -1L) {
            throw broken(ttlQueue + " holds " + timer + " expiring before the end of the clock");
          }
        } else if (ttlQueue.ttl == 0) {
          if (Long.compareUnsigned(expiry, elapsed) > 0) {
            throw broken(ttlQueue + " holds " + timer + ", which is not due");
          }
        } else {
          if (Long.compareUnsigned(previousExpiry, expiry) > 0) {
            throw broken(ttlQueue + " is not sorted by expiry at " + timer);
          }
          if (Long.remainderUnsigned(expiry, resolution) != 0
              || Long.compareUnsigned(expiry, timer.deadline() - start) < 0) {
            throw broken(ttlQueue + " holds " + timer + " expiring at "
                + Long.toUnsignedString(expiry) + ", off the resolution's grid or early");
          }
          if (ttlQueue.ttl == TtlQueue.SHARED) {
            if (Long.compareUnsigned(expiry, shared.get(ttlQueue)) > 0) {
              throw broken(ttlQueue + " holds " + timer + " expiring after its latest expiry "
                  + Long.toUnsignedString(shared.get(ttlQueue)));
            }
            previousExpiry = expiry;
            continue;
          }
          // The start of the tick it was armed in: not after the current tick. A saturated timer
          // put here would have a wrapped-around deadline, its expiry less than the span.
          long armedInTick = expiry - ttlQueue.span;
          if (Long.compareUnsigned(expiry, ttlQueue.span) < 0
              || Long.compareUnsigned(armedInTick, tickStart) > 0) {
            throw broken(ttlQueue + " holds " + timer + " expiring at "
                + Long.toUnsignedString(expiry) + ", not a timer of its TTL armed until now");
          }
          previousExpiry = expiry;
        }
      }
      if (Long.compareUnsigned(headExpiry, earliestHead) < 0) {
        earliestHead = headExpiry;
      }
    }
    if (!checkOwnedRing(queue.armedDue, queue, seen).isEmpty()) {
      throw broken("timers armed due by a handler are still set apart after the advance");
    }
    if (queue.size() != queued) {
      throw broken("size() is " + queue.size() + " but the queues hold " + queued);
    }

    for (int spare = 0; spare < queue.spareCount; spare++) {
      TtlQueue<T> ttlQueue = queue.spares[spare];
      if (!ttlQueue.isEmpty() || !checkRing(ttlQueue).isEmpty()
          || ttlQueue.slots.length > TimerRing.RETAINED_CAPACITY
          || ttlQueue.position != TtlQueue.NOT_INDEXED
          || queue.queuesByTtl.get(ttlQueue.ttl) == ttlQueue || shared.containsKey(ttlQueue)) {
        throw broken("spare " + ttlQueue + " is not empty, keeps too many slots, or is still"
            + " indexed, mapped or shared");
      }
    }
    checkTicketTable(queue, shared.keySet());

    long delay = queue.nextExpiryDelay();
    long expected;
    if (!index.isEmpty() && Long.compareUnsigned(earliestHead, elapsed) <= 0) {
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
   * Checks the order of the shared queues (latest expiries strictly descending, ranks strictly
   * ascending) and that the empty ones are not indexed; returns each with its latest expiry.
   */
  private static <T> Map<TtlQueue<T>, Long> checkShared(SharedQueues<T> shared) {
    Map<TtlQueue<T>, Long> latest = new IdentityHashMap<>();
    for (int position = 0; position < shared.count(); position++) {
      TtlQueue<T> queue = shared.get(position);
      if (queue.ttl != TtlQueue.SHARED) {
        throw broken(queue + " is among the shared queues at " + position);
      }
      if (position > 0) {
        TtlQueue<T> ahead = shared.get(position - 1);
        if (Long.compareUnsigned(shared.latestAt(position - 1), shared.latestAt(position)) <= 0
            || ahead.rank >= queue.rank) {
          throw broken("shared queue " + position + " (latest "
              + Long.toUnsignedString(shared.latestAt(position)) + ", rank " + queue.rank
              + ") is out of order after latest "
              + Long.toUnsignedString(shared.latestAt(position - 1)) + ", rank " + ahead.rank);
        }
      }
      if (queue.isEmpty() != (queue.position == TtlQueue.NOT_INDEXED)) {
        throw broken("shared " + queue + " is indexed at " + queue.position);
      }
      if (queue.isEmpty() && !checkRing(queue).isEmpty()) {
        throw broken("empty shared " + queue + " still holds timers");
      }
      if (latest.put(queue, shared.latestAt(position)) != null) {
        throw broken(queue + " is twice among the shared queues");
      }
    }
    return latest;
  }

  /**
   * Checks one ring of the queue and that each of its timers belongs to the queue and to no other
   * ring; returns its timers, first to last.
   */
  private static <T> List<LawnTimer<T>> checkOwnedRing(
      TimerRing<T> ring, LawnTimerQueue<T> queue, Map<LawnTimer<T>, TimerRing<T>> seen) {
    List<LawnTimer<T>> timers = checkRing(ring);
    for (LawnTimer<T> timer : timers) {
      if (timer.owner != queue) {
        throw broken(ring + " holds " + timer + " of another queue");
      }
      if (queue.ringOf(timer) != ring) {
        throw broken(ring + " holds " + timer + " whose ticket names " + queue.ringOf(timer));
      }
      TimerRing<T> other = seen.put(timer, ring);
      if (other != null) {
        throw broken(timer + " is in " + ring + " and also in " + other);
      }
    }
    return timers;
  }

  /**
   * Checks the structure of one ring and returns its timers, first to last: the tickets in use fit
   * in the slots, from the head's slot on, wrapping; slots outside those tickets are empty, except
   * that the slot of the tail of a ring that is not full may still refer to a timer it does not
   * hold there (the last head of a full ring, left for a turn in place); the first and last slots
   * hold timers of the ring (those whose ring and ticket name the slot; the slots between may also
   * be stale, referring to another timer or, once swept, empty), and the size counts them.
   */
  static <T> List<LawnTimer<T>> checkRing(TimerRing<T> ring) {
    LawnTimer<T>[] slots = ring.slots;
    int capacity = slots.length;
    checkWindow(ring);
    if (capacity < 1 || ring.headSlot < 0 || ring.headSlot >= capacity) {
      throw broken(ring + " has " + capacity + " slots and its head in slot " + ring.headSlot);
    }
    long span = ring.tail - ring.head;
    if (ring.head < 0 || span < 0 || span > capacity) {
      throw broken(ring + " uses tickets [" + ring.head + ", " + ring.tail + ") in " + capacity
          + " slots");
    }
    List<LawnTimer<T>> timers = new ArrayList<>();
    boolean[] inUse = new boolean[capacity];
    for (long ticket = ring.head; ticket != ring.tail; ticket++) {
      int slot = (int) ((ring.headSlot + ticket - ring.head) % capacity);
      inUse[slot] = true;
      LawnTimer<T> timer = slots[slot];
      if (timer != null && timer.ticket == ring.numberOf((int) ticket)) {
        timers.add(timer);
      } else if (ticket == ring.head || ticket == ring.tail - 1) {
        throw broken(ring + " has a stale slot at its end, ticket " + ticket);
      }
    }
    int tailSlot = (int) ((ring.headSlot + span) % capacity);
    for (int slot = 0; slot < capacity; slot++) {
      if (!inUse[slot] && slots[slot] != null) {
        LawnTimer<T> timer = slots[slot];
        if (slot != tailSlot || (timer.isPending() && ring.owner.ringOf(timer) == ring)) {
          throw broken(ring + " refers to " + timer + " from slot " + slot
              + ", outside its tickets");
        }
      }
    }
    if (ring.size != timers.size()) {
      throw broken(ring + " has size " + ring.size + " but holds " + timers.size() + " timers");
    }
    return timers;
  }

  /**
   * Checks that the ticket table names no ring but the lawn's: those in the index, the shared ones,
   * the spares and the ring of timers armed due. A ring dropped without giving its window back
   * would stay reachable from the table, and its numbers lost.
   */
  private static <T> void checkTicketTable(LawnTimerQueue<T> queue, Set<TtlQueue<T>> shared) {
    Set<TimerRing<T>> rings = Collections.newSetFromMap(new IdentityHashMap<>());
    rings.add(queue.armedDue);
    rings.addAll(shared);
    for (int position = 0; position < queue.index.size(); position++) {
      rings.add(queue.index.get(position));
    }
    rings.addAll(Arrays.asList(queue.spares).subList(0, queue.spareCount));
    for (long number = 0; number < queue.tickets.numbersCut(); number += TicketTable.BLOCK) {
      TimerRing<T> named = queue.tickets.ringOf((int) number);
      if (named != null && !rings.contains(named)) {
        throw broken("the ticket table gives the number " + number + " to " + named
            + ", which is not a ring of the lawn");
      }
    }
  }

  /**
   * Checks that a ring's window of ticket numbers is a power of two of at least a block, with more
   * numbers than the ring has slots, and that the lawn's ticket table names the ring for each.
   */
  private static <T> void checkWindow(TimerRing<T> ring) {
    int size = ring.windowMask + 1;
    if (Integer.bitCount(size) != 1 || size < TicketTable.BLOCK || size <= ring.slots.length
        || ring.windowStart < 0 || ring.windowStart % TicketTable.BLOCK != 0) {
      throw broken(ring + " has the window of " + size + " numbers from " + ring.windowStart
          + " for " + ring.slots.length + " slots");
    }
    for (int block = 0; block < size; block += TicketTable.BLOCK) {
      TimerRing<T> named = ring.owner.tickets.ringOf(ring.windowStart + block);
      if (named != ring) {
        throw broken(ring + " has the number " + (ring.windowStart + block) + " in its window,"
            + " which the table gives " + named);
      }
    }
  }

  /** {@code ttl * resolution}, or {@code 2^64 - 1} if that does not fit in 64 unsigned bits. */
  private static long saturatedSpan(long ttl, long resolution) {
    return Math.multiplyHigh(ttl, resolution) != 0 ? -1L : ttl * resolution;
  }

  private static AssertionError broken(String message) {
    return new AssertionError(message);
  }
}
