package io.github.timerqueue.lawn;

import java.util.function.Consumer;

/**
 * A first-in, first-out sequence of timers in a ring of slots, from which any timer can be removed
 * in {@code O(1)} by writing to that timer alone. A timer is in at most one ring; its {@link
 * LawnTimer#ring} names the ring and its {@link LawnTimer#ticket} the slot.
 *
 * <p>Timers are numbered by <em>tickets</em>, counted up as they join, and ticket {@code t} lives
 * in slot {@code t mod capacity}. The tickets in use lie in {@code [head, tail)}. A slot whose timer
 * has left the ring, or has left and joined again under a newer ticket, is <em>stale</em>: removing
 * a timer only marks the timer itself as out of the ring, and its slot is recognized as stale by
 * the timer's ring and ticket no longer naming it. Stale slots at either end are passed (and
 * emptied) at once, so the slots at {@code head} and {@code tail - 1} always hold timers of the
 * ring unless it is empty; those in the middle stay until the ring runs out of slots. Then, if at
 * least three quarters of its slots would be free, the ring is compacted in place, renumbering the
 * timers that remain in their order; otherwise it doubles. A compaction follows at least three
 * quarters of a capacity of appends and visits one capacity of slots, so appending costs {@code
 * O(1)} amortized. The ring doubles only when more than a quarter of its slots hold timers, so it
 * has fewer than eight slots per timer it held at its fullest (four or five in a steady state).
 * It also shrinks: a ring of more than {@value #RETAINED_CAPACITY} slots that uses fewer than an
 * eighth of them, once its head has passed most of its timers, moves them to an array of four to
 * eight slots each. Neither resize touches a timer: a ticket keeps its number.
 *
 * <p>Why not a linked list, or a slot emptied on removal: unlinking writes to both neighbours, and
 * emptying writes to the slot, and in a large queue each of those is a cache miss of its own, on
 * the path of every cancellation. Here a removal writes only to the timer, which the caller has
 * just read anyway; the stale slots are cleared in bulk, by a sequential pass.
 *
 * <p>Passing the head is where a ring's timers are read one after another (expiring takes heads),
 * so there a ring that {@linkplain #sweepsAhead sweeps ahead} looks ahead: when the head reaches
 * the end of what it has looked at, the next {@value #SWEEP_SLOTS} slots are <em>swept</em>, each
 * timer read and each stale slot emptied, in one tight loop. Reading a timer of a large ring is a
 * cache miss; one per head, each behind the bookkeeping of the last, would be paid one at a time,
 * where the sweep's misses overlap. The heads that follow then find their timers in the cache.
 *
 * <p>Tickets are {@code int}s, to keep a {@link LawnTimer} small, and never negative, so that a
 * negative ticket can mean "not pending". A ring that has taken {@value #TICKET_LIMIT} tickets
 * without emptying, which restarts them at 0, is <em>rebased</em>: its tickets are lowered by a
 * multiple of its capacity, which leaves every timer in its slot and rewrites only the tickets of
 * the timers it holds, once per two billion appends.
 *
 * <p>A stale slot still refers to its timer, so a cancelled timer that the user drops stays
 * reachable until a sweep or the head passes its slot or a compaction clears it.
 */
class TimerRing<T> {
  /** Slots of a new ring: a power of two. */
  static final int INITIAL_CAPACITY = 2;
  /** Most slots an empty ring keeps when it is {@linkplain #release released}. */
  static final int RETAINED_CAPACITY = 1 << 10;
  /**
   * Slots swept at a time ahead of the head: enough cache misses in flight to hide most of their
   * latency, few enough for the processor to keep them all outstanding at once.
   */
  static final int SWEEP_SLOTS = 16;
  /** The ticket at which a ring is {@linkplain #rebase rebased} instead of appending. */
  static final int TICKET_LIMIT = Integer.MAX_VALUE;

  /**
   * {@code slots[t & (slots.length - 1)]} holds the timer with ticket {@code t}, or is stale: it
   * refers to a timer that left, or is {@code null} once swept, and is {@code null} outside {@code
   * [head, tail)}.
   */
  LawnTimer<T>[] slots;
  /** The ticket of the first timer; equal to {@link #tail} when the ring is empty. */
  int head;
  /** The ticket the next timer to join gets. */
  int tail;
  /** How many timers the ring holds: its slots that are not stale. */
  int size;
  /** The slots of the tickets from {@link #head} up to this one have been swept. */
  private int sweptTo;
  /**
   * Whether passing the head sweeps ahead: worth it in a TTL queue, whose timers are read long
   * after they joined, not in the short-lived ring of timers a handler arms due.
   */
  final boolean sweepsAhead;
  /**
   * The queue whose ring this is: through it a timer knows its owner, even after it left the ring
   * ({@link LawnTimer#ring}). {@code null} only for a ring tested alone.
   */
  final LawnTimerQueue<T> owner;

  /**
   * Creates an empty ring of a queue, which {@linkplain #sweepsAhead sweeps ahead} of its head or
   * not.
   */
  @SuppressWarnings("unchecked")
  TimerRing(LawnTimerQueue<T> owner, boolean sweepsAhead) {
    this.owner = owner;
    this.sweepsAhead = sweepsAhead;
    slots = (LawnTimer<T>[]) new LawnTimer<?>[INITIAL_CAPACITY];
  }

  final boolean isEmpty() {
    return size == 0;
  }

  /** The first timer. The ring must not be empty. */
  final LawnTimer<T> first() {
    return slots[head & (slots.length - 1)];
  }

  /** The last timer. The ring must not be empty. */
  final LawnTimer<T> last() {
    return slots[(tail - 1) & (slots.length - 1)];
  }

  /** Adds a timer that is in no ring at the tail. */
  final void append(LawnTimer<T> timer) {
    if (tail - head == slots.length || tail == TICKET_LIMIT) {
      makeRoom();
    }
    slots[tail & (slots.length - 1)] = timer;
    if (timer.ring != this) {
      // Re-armed in the ring it was in, as with a single TTL, it skips the store and the garbage
      // collector's write barrier that comes with it.
      timer.ring = this;
    }
    timer.ticket = tail++;
    size++;
  }

  /**
   * Takes a timer of this ring out of it; afterwards it is in no ring, so it is not pending.
   *
   * @return whether it was the first timer
   */
  final boolean remove(LawnTimer<T> timer) {
    int ticket = timer.ticket;
    timer.ticket = LawnTimer.NOT_PENDING;
    if (--size == 0) {
      clearSlots();
      return true;
    }
    if (ticket == head) {
      passStaleHead();
      return true;
    }
    if (ticket == tail - 1) {
      passStaleTail();
    }
    return false;
  }

  /** Whether the slot of {@code ticket} holds the timer with that ticket. */
  private boolean holds(int ticket) {
    LawnTimer<T> timer = slots[ticket & (slots.length - 1)];
    return timer != null && timer.ring == this && timer.ticket == ticket;
  }

  /**
   * Empties the stale slots at the head, the first of them the slot of the timer that just left;
   * the ring holds a timer, so a slot before the tail holds it.
   */
  private void passStaleHead() {
    int mask = slots.length - 1;
    boolean swept = false;
    do {
      slots[head++ & mask] = null;
      if (sweepsAhead && head - sweptTo >= 0) {
        sweepAhead();
        swept = true;
      }
    } while (!holds(head));
    if (swept) {
      shrinkIfSparse();
    }
  }

  /**
   * Empties the stale slots at the tail, the first of them the slot of the timer that just left;
   * the ring holds a timer, so a slot after the head holds it.
   */
  private void passStaleTail() {
    int mask = slots.length - 1;
    do {
      slots[--tail & mask] = null;
    } while (!holds(tail - 1));
  }

  /**
   * Sweeps the slots of the next {@link #SWEEP_SLOTS} tickets from the head: reads their timers,
   * whose loads do not wait for one another, and empties the stale slots among them.
   */
  private void sweepAhead() {
    int mask = slots.length - 1;
    int end = head + Math.min(tail - head, SWEEP_SLOTS);
    for (int ticket = head; ticket != end; ticket++) {
      if (!holds(ticket)) {
        slots[ticket & mask] = null;
      }
    }
    sweptTo = end;
  }

  /** Empties every slot of a ring that holds no timer, and starts its tickets again at 0. */
  private void clearSlots() {
    int mask = slots.length - 1;
    for (int ticket = head; ticket != tail; ticket++) {
      slots[ticket & mask] = null;
    }
    head = 0;
    tail = 0;
    sweptTo = 0;
  }

  /** Takes the first timer out and returns it. The ring must not be empty. */
  final LawnTimer<T> removeFirst() {
    LawnTimer<T> first = first();
    remove(first);
    return first;
  }

  /** Takes every timer out of this ring without handing any out. */
  final void removeAll() {
    for (int ticket = head; ticket != tail; ticket++) {
      if (holds(ticket)) {
        slots[ticket & (slots.length - 1)].ticket = LawnTimer.NOT_PENDING;
      }
    }
    clearSlots();
    size = 0;
  }

  /** Hands each timer of the ring, first to last, to {@code action}. */
  final void forEach(Consumer<? super LawnTimer<T>> action) {
    for (int ticket = head; ticket != tail; ticket++) {
      if (holds(ticket)) {
        action.accept(slots[ticket & (slots.length - 1)]);
      }
    }
  }

  /**
   * Lets go of the slots of an empty ring that grew beyond {@link #RETAINED_CAPACITY}, so that a
   * ring kept for reuse does not hold on to the memory of a burst long gone. The allocation this
   * makes is paid for by the appends that grew the ring.
   */
  @SuppressWarnings("unchecked")
  final void release() {
    if (slots.length > RETAINED_CAPACITY) {
      slots = (LawnTimer<T>[]) new LawnTimer<?>[INITIAL_CAPACITY];
    }
  }

  /**
   * Lets go of the slots of an empty ring that its queue drops: a timer that was in it may outlive
   * it, and refers to it ({@link LawnTimer#ring}), but only for its {@link #owner}.
   */
  @SuppressWarnings("unchecked")
  final void discard() {
    slots = (LawnTimer<T>[]) new LawnTimer<?>[INITIAL_CAPACITY];
  }

  /**
   * Makes an append possible: {@linkplain #rebase rebases} at {@link #TICKET_LIMIT}; then, if every
   * slot is taken, stale ones included, compacts if at least three quarters of the slots would be
   * free afterwards, else doubles the slots.
   */
  private void makeRoom() {
    if (tail == TICKET_LIMIT) {
      rebase();
    }
    if (tail - head != slots.length) {
      return;
    }
    if (size <= slots.length >>> 2) {
      compact();
    } else {
      grow();
    }
  }

  /**
   * Drops the stale slots: the timers keep their order and get the tickets from {@code head} up. A
   * timer's new ticket is never that of a slot still to be visited, so a stale slot of the same
   * timer further on is still recognized as stale.
   */
  private void compact() {
    LawnTimer<T>[] slots = this.slots;
    int mask = slots.length - 1;
    int next = head;
    for (int ticket = head; ticket != tail; ticket++) {
      if (holds(ticket)) {
        if (ticket != next) {
          LawnTimer<T> timer = slots[ticket & mask];
          slots[next & mask] = timer;
          timer.ticket = next;
        }
        next++;
      }
    }
    for (int ticket = next; ticket != tail; ticket++) {
      slots[ticket & mask] = null;
    }
    tail = next;
    // The tickets from the head on are new: what was swept is to be swept again.
    sweptTo = head;
    shrinkIfSparse();
  }

  /** Doubles the slots. */
  private void grow() {
    resize(slots.length << 1);
  }

  /**
   * Gives back the memory of a ring that grew large and now uses fewer than an eighth of its
   * slots, as after a burst that has mostly expired: the slots in use move to an array with four
   * slots for each, at least. The copy is paid for by the removals that emptied the slots. Checked
   * where its cost is spread already, once per sweep of the head and after a compaction.
   */
  private void shrinkIfSparse() {
    int inUse = tail - head;
    if (slots.length > RETAINED_CAPACITY && inUse < slots.length >>> 3) {
      resize(Math.max(INITIAL_CAPACITY, Integer.highestOneBit(Math.max(inUse, 1)) << 3));
    }
  }

  /**
   * Moves the slots in use to a new array of {@code capacity} slots, a power of two that holds
   * them; a ticket keeps its number, so no timer is touched.
   */
  @SuppressWarnings("unchecked")
  private void resize(int capacity) {
    LawnTimer<T>[] old = slots;
    int oldMask = old.length - 1;
    LawnTimer<T>[] resized = (LawnTimer<T>[]) new LawnTimer<?>[capacity];
    int mask = capacity - 1;
    for (int ticket = head; ticket != tail; ticket++) {
      resized[ticket & mask] = old[ticket & oldMask];
    }
    slots = resized;
  }

  /**
   * Lowers every ticket by the multiple of the capacity that brings the head below the capacity:
   * each timer stays in its slot, and only the tickets of the timers the ring holds change. A stale
   * slot stays stale, because its timer's ticket, if it is in this ring, is lowered by as much.
   */
  private void rebase() {
    int base = head & -slots.length;
    for (int ticket = head; ticket != tail; ticket++) {
      if (holds(ticket)) {
        slots[ticket & (slots.length - 1)].ticket = ticket - base;
      }
    }
    head -= base;
    tail -= base;
    // What was swept is swept again, which is harmless; it keeps sweptTo within the tickets.
    sweptTo = head;
  }

  /** Starts the tickets of an empty ring at {@code ticket}: for tests of the rebase. */
  final void startTicketsAt(int ticket) {
    if (size != 0) {
      throw new IllegalStateException("the ring holds timers");
    }
    clearSlots();
    head = ticket;
    tail = ticket;
    sweptTo = ticket;
  }
}
