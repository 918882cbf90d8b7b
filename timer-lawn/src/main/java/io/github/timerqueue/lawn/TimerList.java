package io.github.timerqueue.lawn;

/**
 * A first-in, first-out list of timers, linked through the timers themselves so that appending and
 * removing any timer is {@code O(1)} and allocates nothing. A timer is in at most one list, and its
 * {@link LawnTimer#list} names it.
 */
class TimerList<T> {
  LawnTimer<T> head;
  LawnTimer<T> tail;
  int size;

  final boolean isEmpty() {
    return head == null;
  }

  /** Adds a timer that is in no list at the tail. */
  final void append(LawnTimer<T> timer) {
    timer.list = this;
    timer.previous = tail;
    timer.next = null;
    if (tail == null) {
      head = timer;
    } else {
      tail.next = timer;
    }
    tail = timer;
    size++;
  }

  /** Takes a timer out of this list; afterwards it is in no list, so it is not pending. */
  final void remove(LawnTimer<T> timer) {
    LawnTimer<T> previous = timer.previous;
    LawnTimer<T> next = timer.next;
    if (previous == null) {
      head = next;
    } else {
      previous.next = next;
    }
    if (next == null) {
      tail = previous;
    } else {
      next.previous = previous;
    }
    timer.list = null;
    timer.previous = null;
    timer.next = null;
    size--;
  }

  /**
   * Moves the first {@code count} timers, up to and including {@code last}, to the tail of {@code
   * target} in their order: one splice of the links, and one write per timer to name its new list.
   */
  final void moveFirstTo(TimerList<T> target, LawnTimer<T> last, int count) {
    LawnTimer<T> first = head;
    for (LawnTimer<T> timer = first; timer != last; timer = timer.next) {
      timer.list = target;
    }
    last.list = target;
    head = last.next;
    if (head == null) {
      tail = null;
    } else {
      head.previous = null;
    }
    size -= count;
    last.next = null;
    first.previous = target.tail;
    if (target.tail == null) {
      target.head = first;
    } else {
      target.tail.next = first;
    }
    target.tail = last;
    target.size += count;
  }

  /** Takes every timer out of this list without handing any out. */
  final void removeAll() {
    LawnTimer<T> timer = head;
    while (timer != null) {
      LawnTimer<T> next = timer.next;
      timer.list = null;
      timer.previous = null;
      timer.next = null;
      timer = next;
    }
    head = null;
    tail = null;
    size = 0;
  }
}
