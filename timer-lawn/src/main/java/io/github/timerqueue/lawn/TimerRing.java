package io.github.timerqueue.lawn;

import java.util.function.Consumer;

/**
 * A first-in, first-out sequence of timers in a ring of slots, from which any timer can be removed
 * in {@code O(1)} by writing to that timer alone. A timer is in at most one ring; its {@link
 * LawnTimer#ticket} names the ring and the slot, through the lawn's {@link TicketTable}.
 *
 * <p>Timers are numbered by <em>tickets</em>, counted up as they join. The tickets in use lie in
 * {@code [head, tail)}, in consecutive slots from {@link #headSlot}, wrapping at the end of the
 * array: ticket {@code t} lives in slot {@code (headSlot + t - head) mod capacity}. The capacity is
 * any length, not a power of two, so that a ring can fit its timers closely. A slot whose timer
 * has left the ring, or has left and joined again under a newer ticket, is <em>stale</em>:
 * removing a timer only marks the timer itself as out of the ring, and its slot is recognized as
 * stale by the timer's ticket no longer naming it. Stale slots at either end are passed
 * (and emptied) at once, so the slots at {@code head} and {@code tail - 1} always hold timers of
 * the ring unless it is empty; those in the middle stay until the ring runs out of slots, or
 * until a removal leaves fewer timers than a quarter of the tickets in use (then the ring is
 * compacted as below, and moves to an array of the goal's size if that halves it): a queue whose
 * timers are cancelled and that nothing joins, or its head, does not keep its slots for good.
 *
 * <p>When it does, the ring's <em>goal</em> is seven slots for every four timers it holds. If the
 * goal fits in its slots (at least three sevenths of them are stale), it is compacted in place,
 * renumbering the timers that remain in their order; otherwise it moves to an array of the goal's
 * size, dropping the stale slots on the way. Either way at least three sevenths of the slots are
 * free afterwards, so the next time the ring runs out of slots follows at least that many
 * appends, and appending costs {@code O(1)} amortized (at most seven thirds of a slot visited per
 * append). A ring therefore never has more than seven slots for every four timers it held at its
 * fullest, however many of its timers are cancelled and armed again: stale slots cannot make it
 * grow without bound. It also shrinks: a ring of more than {@value #RETAINED_CAPACITY} slots that
 * uses fewer than an eighth of them, once its head has passed most of its timers, moves them to an
 * array of two slots each. A resize that drops no stale slot touches no timer: a ticket keeps its
 * number, only the slots move.
 *
 * <p><em>Turning in place.</em> A ring whose slots are all in use and whose head leaves, to be
 * armed again at the tail (a periodic timer, or every timer of a lawn with one TTL), has its tail
 * on the very slot the head left. That slot is not emptied when the head passes it (it is the one
 * slot outside {@code [head, tail)} that may refer to a timer), and an append stores a timer only
 * if its slot does not hold it already, so a full ring that turns moves two numbers and stores no
 * reference, which spares the garbage collector's write barrier on the path of every expiry. A
 * ring gets there by being <em>trimmed</em>: once it has taken a whole capacity of appends since
 * it last ran out of slots, while the number of slots it used stayed within one of the same
 * value at every {@linkplain #sweepsAhead sweep} (a steady flow, not a drift), it moves to an
 * array that holds exactly the most it used. A drifting ring is left alone, so trimming does not
 * alternate with growing.
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
 * <p>A timer does not record its ticket itself but its {@linkplain #numberOf number}: the ticket
 * within the ring's window of the lawn's {@link TicketTable}, from which the lawn finds the ring.
 * So joining another ring writes an {@code int} to the timer and no reference: a long-running
 * program's timers are old objects, in which a reference store pays G1's post-write barrier, a
 * fence and, for a card not yet dirty, a trip to the refinement queue. Only a ring that grows past
 * its window takes a larger one and renumbers its timers ({@link #widenWindow}).
 *
 * <p>Tickets are {@code int}s, to keep a {@link LawnTimer} small, and never negative, so that a
 * negative ticket can mean "not pending". A ring that has taken {@value #TICKET_LIMIT} tickets
 * without emptying, which restarts them at 0, is <em>rebased</em>: its tickets are lowered by its
 * head's rounded down to a multiple of its window's size, which leaves every timer in its slot
 * and with its number, so it touches no timer, once per billion appends.
 *
 * <p>A stale slot still refers to its timer, so a cancelled timer that the user drops stays
 * reachable until a sweep or the head passes its slot or a compaction clears it; the last head of
 * a full ring stays reachable until the next append overwrites its slot.
 */
class TimerRing<T> {
  /** Slots of a new ring. */
  static final int INITIAL_CAPACITY = 2;
  /** Most slots an empty ring keeps when it is {@linkplain #release released}. */
  static final int RETAINED_CAPACITY = 1 << 10;
  /**
   * Slots swept at a time ahead of the head: enough cache misses in flight to hide most of their
   * latency, few enough for the processor to keep them all outstanding at once.
   */
  static final int SWEEP_SLOTS = 32;
  /** The ticket at which a ring is {@linkplain #rebase rebased} instead of appending. */
  static final int TICKET_LIMIT = Integer.MAX_VALUE;

  /**
   * {@code slots[slotOf(t)]} holds the timer with ticket {@code t}, or is stale: it refers to a
   * timer that left, or is {@code null} once swept. Outside {@code [head, tail)} every slot is
   * {@code null} except, while the ring is not full, the slot of {@code tail}, which may still
   * refer to the last head of a full ring (see "turning in place" above).
   */
  LawnTimer<T>[] slots;
  /** The ticket of the first timer; equal to {@link #tail} when the ring is empty. */
  int head;
  /** The ticket the next timer to join gets. */
  int tail;
  /** The slot of the ticket {@link #head}, in {@code [0, slots.length)}. */
  int headSlot;
  /** How many timers the ring holds: its slots that are not stale. */
  int size;
  /** The slots of the tickets from {@link #head} up to this one have been swept. */
  private int sweptTo;
  /**
   * The {@link #tail} when the ring last ran out of slots or was resized: a turn, which may end in
   * a trim, is complete once the ring has taken a capacity of appends since.
   */
  private int turnStart;
  /** The fewest and most slots in use the sweeps of the current turn saw. */
  private int turnLeastUsed;
  private int turnMostUsed;
  /**
   * Whether passing the head sweeps ahead: worth it in a TTL queue, whose timers are read long
   * after they joined, not in the short-lived ring of timers a handler arms due.
   */
  final boolean sweepsAhead;
  /** The queue whose ring this is. */
  final LawnTimerQueue<T> owner;
  /** The lawn's table of ticket numbers, in which this ring holds a window. */
  private final TicketTable<T> tickets;
  /** The first number of the ring's window of {@link #tickets}. */
  int windowStart;
  /** The size of the window, a power of two larger than the slots, less one. */
  int windowMask;

  /**
   * Creates an empty ring of a queue, which {@linkplain #sweepsAhead sweeps ahead} of its head or
   * not.
   */
  @SuppressWarnings("unchecked")
  TimerRing(LawnTimerQueue<T> owner, boolean sweepsAhead) {
    this.owner = owner;
    this.tickets = owner.tickets;
    this.sweepsAhead = sweepsAhead;
    slots = (LawnTimer<T>[]) new LawnTimer<?>[INITIAL_CAPACITY];
    takeWindow(0);
  }

  /**
   * The number a timer with {@code ticket} records ({@link LawnTimer#ticket}): the ticket within
   * this ring's window. The tickets in use span at most the slots, fewer than the window's
   * numbers, so they have distinct numbers, which no other ring's timers have.
   */
  final int numberOf(int ticket) {
    return windowStart + (ticket & windowMask);
  }

  final boolean isEmpty() {
    return size == 0;
  }

  /** The first timer. The ring must not be empty. */
  final LawnTimer<T> first() {
    return slots[headSlot];
  }

  /** The last timer. The ring must not be empty. */
  final LawnTimer<T> last() {
    return slots[slotOf(tail - 1)];
  }

  /** Adds a timer that is in no ring at the tail. */
  final void append(LawnTimer<T> timer) {
    if (tail - head == slots.length || tail == TICKET_LIMIT) {
      makeRoom();
    }
    LawnTimer<T>[] slots = this.slots;
    int slot = slotOf(tail);
    // A full ring that turns finds the timer that its head just passed in the slot already: it
    // skips the store, and the garbage collector's write barrier that comes with it.
    if (slots[slot] != timer) {
      slots[slot] = timer;
    }
    timer.ticket = numberOf(tail++);
    size++;
  }

  /**
   * Takes a timer of this ring out of it; afterwards it is in no ring, so it is not pending.
   *
   * @return whether it was the first timer
   */
  final boolean remove(LawnTimer<T> timer) {
    int number = timer.ticket;
    timer.ticket = LawnTimer.NOT_PENDING;
    if (--size == 0) {
      clearSlots();
      return true;
    }
    if (number == numberOf(head)) {
      passStaleHead();
      return true;
    }
    if (number == numberOf(tail - 1)) {
      passStaleTail();
    } else if (size < (tail - head) >>> 2 && tail - head > SWEEP_SLOTS) {
      dropStale();
    }
    return false;
  }

  /**
   * The slot of a ticket in {@code [head, head + capacity]}. Written so that the sum may overflow:
   * the slot is below the capacity, so the difference that decides is exact.
   */
  private int slotOf(int ticket) {
    int slot = headSlot + (ticket - head);
    return slot - slots.length >= 0 ? slot - slots.length : slot;
  }

  /** The slot after {@code slot}, wrapping at the end of the array. */
  private int next(int slot) {
    return slot + 1 == slots.length ? 0 : slot + 1;
  }

  /** Whether {@code slot} holds the timer with {@code ticket}. */
  private boolean holds(int slot, int ticket) {
    LawnTimer<T> timer = slots[slot];
    return timer != null && timer.ticket == numberOf(ticket);
  }

  /**
   * Passes the stale slots at the head, the first of them the slot of the timer that just left,
   * emptying them; the ring holds a timer, so a slot before the tail holds it. The first is left
   * as it is if the ring was full: it is the tail's next slot, where a ring that turns re-arms the
   * same timer.
   */
  private void passStaleHead() {
    LawnTimer<T>[] slots = this.slots;
    int slot = headSlot;
    if (tail - head != slots.length) {
      slots[slot] = null;
    }
    boolean swept = false;
    while (true) {
      head++;
      slot = next(slot);
      if (sweepsAhead && head - sweptTo >= 0) {
        sweepAhead(slot);
        swept = true;
      }
      // With no stale slot left in [head, tail), the slot of the head holds its timer: no need to
      // read the timer to tell.
      if (size == tail - head || holds(slot, head)) {
        break;
      }
      slots[slot] = null;
    }
    headSlot = slot;
    if (swept) {
      afterSweep();
    }
  }

  /**
   * Empties the stale slots at the tail, the first of them the slot of the timer that just left;
   * the ring holds a timer, so a slot after the head holds it. The slot of the tail, which may
   * still refer to the last head of a full ring, is emptied first, as it is about to fall outside
   * the slots that may.
   */
  private void passStaleTail() {
    LawnTimer<T>[] slots = this.slots;
    if (tail - head != slots.length) {
      slots[slotOf(tail)] = null;
    }
    do {
      slots[slotOf(--tail)] = null;
    } while (!holds(slotOf(tail - 1), tail - 1));
  }

  /**
   * Sweeps the slots of the next {@link #SWEEP_SLOTS} tickets from the head, the first of them in
   * {@code slot}: reads their timers, whose loads do not wait for one another, and empties the
   * stale slots among them.
   */
  private void sweepAhead(int slot) {
    int end = head + Math.min(tail - head, SWEEP_SLOTS);
    for (int ticket = head; ticket != end; ticket++) {
      if (!holds(slot, ticket)) {
        slots[slot] = null;
      }
      slot = next(slot);
    }
    sweptTo = end;
  }

  /**
   * The upkeep that a sweep pays for, once per {@link #SWEEP_SLOTS} heads: the slots in use are
   * sampled for the turn, and at the end of a turn a steady ring is trimmed; a ring that uses few
   * of its slots shrinks.
   */
  private void afterSweep() {
    int used = tail - head;
    turnLeastUsed = Math.min(turnLeastUsed, used);
    turnMostUsed = Math.max(turnMostUsed, used);
    if (tail - turnStart - slots.length >= 0) {
      if (turnMostUsed - turnLeastUsed <= 1 && turnMostUsed + 1 < slots.length) {
        // Steady, with slots to spare: fit the most it used, plus the head that was passed for
        // each sample, so that the ring is full when it turns.
        resize(turnMostUsed + 1);
      } else {
        startTurn();
      }
    } else {
      shrinkIfSparse();
    }
  }

  /** Starts a turn: the next trim is a capacity of appends away. */
  private void startTurn() {
    turnStart = tail;
    turnLeastUsed = tail - head;
    turnMostUsed = tail - head;
  }

  /**
   * Empties every slot of a ring that holds no timer, the slot of the tail included, and starts
   * its tickets again at 0.
   */
  private void clearSlots() {
    LawnTimer<T>[] slots = this.slots;
    int slot = headSlot;
    int last = tail - head == slots.length ? tail - 1 : tail;
    for (int ticket = head; ticket - last <= 0; ticket++) {
      slots[slot] = null;
      slot = next(slot);
    }
    head = 0;
    tail = 0;
    headSlot = 0;
    sweptTo = 0;
    startTurn();
  }

  /**
   * Takes the first timer out and returns it, as {@link #remove} would without comparing tickets.
   * The ring must not be empty.
   */
  final LawnTimer<T> removeFirst() {
    LawnTimer<T> first = slots[headSlot];
    first.ticket = LawnTimer.NOT_PENDING;
    if (--size == 0) {
      clearSlots();
    } else {
      passStaleHead();
    }
    return first;
  }

  /** Takes every timer out of this ring without handing any out. */
  final void removeAll() {
    int slot = headSlot;
    for (int ticket = head; ticket != tail; ticket++) {
      if (holds(slot, ticket)) {
        slots[slot].ticket = LawnTimer.NOT_PENDING;
      }
      slot = next(slot);
    }
    clearSlots();
    size = 0;
  }

  /** Hands each timer of the ring, first to last, to {@code action}. */
  final void forEach(Consumer<? super LawnTimer<T>> action) {
    int slot = headSlot;
    for (int ticket = head; ticket != tail; ticket++) {
      if (holds(slot, ticket)) {
        action.accept(slots[slot]);
      }
      slot = next(slot);
    }
  }

  /**
   * Lets go of the slots of an empty ring that grew beyond {@link #RETAINED_CAPACITY}, so that a
   * ring kept for reuse does not hold on to the memory of a burst long gone, nor to a window of
   * numbers that a ring of its slots does not need. The allocation this makes is paid for by the
   * appends that grew the ring.
   */
  @SuppressWarnings("unchecked")
  final void release() {
    if (slots.length > RETAINED_CAPACITY) {
      slots = (LawnTimer<T>[]) new LawnTimer<?>[INITIAL_CAPACITY];
    }
    int order = TicketTable.orderFor(slots.length);
    if (windowMask >= TicketTable.BLOCK << order) {
      // Empty: no timer records a number of the window.
      tickets.give(windowStart, windowMask + 1);
      takeWindow(order);
    }
  }

  /**
   * Lets go of the slots and the window of an empty ring that its queue drops, for good: a timer
   * that was in it may outlive it, but no longer names it.
   */
  final void discard() {
    slots = newSlots(INITIAL_CAPACITY);
    tickets.give(windowStart, windowMask + 1);
    windowMask = -1;
  }

  /** Takes a window of {@code 2^order} blocks of {@link #tickets} for this ring. */
  private void takeWindow(int order) {
    windowStart = tickets.take(order, this);
    windowMask = (TicketTable.BLOCK << order) - 1;
  }

  /**
   * Moves the ring to a window with more numbers than {@code capacity}, if its own has not, before
   * it grows to that many slots: renumbers its timers, stale slots staying stale, and gives the
   * old window back.
   */
  private void widenWindow(int capacity) {
    if (capacity <= windowMask) {
      return;
    }
    int oldStart = windowStart;
    int oldMask = windowMask;
    takeWindow(TicketTable.orderFor(capacity));
    int slot = headSlot;
    for (int ticket = head; ticket != tail; ticket++) {
      LawnTimer<T> timer = slots[slot];
      if (timer != null && timer.ticket == oldStart + (ticket & oldMask)) {
        timer.ticket = numberOf(ticket);
      }
      slot = next(slot);
    }
    tickets.give(oldStart, oldMask + 1);
  }

  /**
   * Makes an append possible: {@linkplain #rebase rebases} at {@link #TICKET_LIMIT}; then, if every
   * slot is taken, stale ones included, compacts in place if the {@linkplain #goal goal} for the
   * timers it holds fits in the slots, else moves them to an array of the goal's size.
   */
  private void makeRoom() {
    if (tail == TICKET_LIMIT) {
      rebase();
    }
    if (tail - head == slots.length) {
      int goal = goal(size);
      if (goal <= slots.length) {
        compactInto(slots);
      } else {
        widenWindow(goal);
        if (size == tail - head) {
          resize(goal);
        } else {
          compactInto(newSlots(goal));
        }
      }
    }
    startTurn();
  }

  /**
   * How many slots a ring that runs out of them should have for the {@code timers} it holds:
   * seven for every four, at least one more than it holds.
   */
  static int goal(int timers) {
    return (int) Math.min(Integer.MAX_VALUE - 8, timers + Math.max(1, (timers * 3L) >>> 2));
  }

  /**
   * Drops the stale slots, moving the timers in their order to the start of {@code target} (the
   * slots themselves, or a larger array) and renumbering them from {@code head} on. In place, a
   * timer's new slot is never one still to be visited, and its new ticket never that of a slot
   * still to be visited, so a stale slot of the same timer further on is still recognized as
   * stale.
   */
  private void compactInto(LawnTimer<T>[] target) {
    LawnTimer<T>[] slots = this.slots;
    int slot = headSlot;
    int next = head;
    int into = target == slots ? headSlot : 0;
    for (int ticket = head; ticket != tail; ticket++) {
      if (holds(slot, ticket)) {
        LawnTimer<T> timer = slots[slot];
        if (target != slots || into != slot) {
          target[into] = timer;
          timer.ticket = numberOf(next);
        }
        next++;
        into = into + 1 == target.length ? 0 : into + 1;
      }
      slot = next(slot);
    }
    if (target == slots) {
      for (int ticket = next; ticket != tail; ticket++) {
        slots[into] = null;
        into = next(into);
      }
    } else {
      this.slots = target;
      headSlot = 0;
    }
    tail = next;
    // The tickets from the head on are new: what was swept is to be swept again.
    sweptTo = head;
    shrinkIfSparse();
  }

  /**
   * Drops the stale slots of a ring that holds fewer than a quarter of the tickets in use, as a
   * queue whose timers are cancelled from the middle and that nothing joins (a shared queue, say)
   * would otherwise keep them, and the slots, for good. In place, or, when the ring would use
   * under half its slots afterwards, in an array of the {@linkplain #goal goal}'s size. Paid for
   * by the three removals or more per ticket passed since the last time.
   */
  private void dropStale() {
    if (tail - head != slots.length) {
      // The tail's slot may still refer to the last head of a full ring: it is about to fall
      // outside the slots that may.
      slots[slotOf(tail)] = null;
    }
    int goal = goal(size);
    compactInto(goal < slots.length >>> 1 ? newSlots(Math.max(INITIAL_CAPACITY, goal)) : slots);
    startTurn();
  }

  /**
   * Gives back the memory of a ring that grew large and now uses fewer than an eighth of its
   * slots, as after a burst that has mostly expired: the slots in use move to an array with two
   * slots for each, at least. The copy is paid for by the removals that emptied the slots. Checked
   * where its cost is spread already, once per sweep of the head and after a compaction.
   */
  private void shrinkIfSparse() {
    int used = tail - head;
    if (slots.length > RETAINED_CAPACITY && used < slots.length >>> 3) {
      resize(Math.max(INITIAL_CAPACITY, used << 1));
    }
  }

  /**
   * Moves the slots in use to a new array of {@code capacity} slots, at least as many, the head's
   * first; a ticket keeps its number, so no timer is touched. Starts a turn.
   */
  private void resize(int capacity) {
    LawnTimer<T>[] resized = newSlots(capacity);
    int used = tail - head;
    int toEnd = Math.min(used, slots.length - headSlot);
    System.arraycopy(slots, headSlot, resized, 0, toEnd);
    System.arraycopy(slots, 0, resized, toEnd, used - toEnd);
    slots = resized;
    headSlot = 0;
    startTurn();
  }

  @SuppressWarnings("unchecked")
  private static <T> LawnTimer<T>[] newSlots(int capacity) {
    return (LawnTimer<T>[]) new LawnTimer<?>[capacity];
  }

  /**
   * Lowers every ticket by the head's rounded down to a multiple of the window's size, so that the
   * head's falls below that size: each timer stays in its slot and keeps its {@linkplain #numberOf
   * number}, so none is touched, and a stale slot stays stale.
   */
  private void rebase() {
    // Below the window's size, at most 2^29, so the tail, at most that many slots further, ends
    // up below 2^30.
    int base = head & ~windowMask;
    head -= base;
    tail -= base;
    sweptTo -= base;
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
    startTurn();
  }
}
