package io.github.timerqueue.lawn;

/**
 * A first-in, first-out list of timers, linked through the timers themselves so that appending and
 * removing any timer is {@code O(1)} and allocates nothing. The list object is its own sentinel:
 * its {@code next} is the first timer and its {@code previous} the last, or itself when empty. A
 * timer is in at most one list, and its {@link LawnTimer#list} names it.
 */
class TimerList<T> extends TimerLink<T> {

  TimerList() {
    previous = this;
    next = this;
  }

  final boolean isEmpty() {
    return next == this;
  }

  /** The first timer. The list must not be empty. */
  @SuppressWarnings("unchecked")
  final LawnTimer<T> first() {
    return (LawnTimer<T>) next;
  }

  /** The last timer. The list must not be empty. */
  @SuppressWarnings("unchecked")
  final LawnTimer<T> last() {
    return (LawnTimer<T>) previous;
  }

  /** Adds a timer that is in no list (or whose links are stale) at the tail. */
  final void append(LawnTimer<T> timer) {
    TimerLink<T> last = previous;
    timer.list = this;
    timer.previous = last;
    timer.next = this;
    last.next = timer;
    previous = timer;
  }

  /**
   * Closes the gap a timer of this list leaves, without touching the timer: for a timer that is
   * appended to a list right after, which rewrites all three of its list fields.
   */
  final void unlink(LawnTimer<T> timer) {
    TimerLink<T> previous = timer.previous;
    TimerLink<T> next = timer.next;
    previous.next = next;
    next.previous = previous;
  }

  /** Takes a timer out of this list; afterwards it is in no list, so it is not pending. */
  final void remove(LawnTimer<T> timer) {
    unlink(timer);
    timer.list = null;
    timer.previous = null;
    timer.next = null;
  }

  /**
   * Moves the timers from the first up to and including {@code last} to the tail of {@code
   * target}, in their order: one splice of the links, and one write per timer to name its new list.
   */
  final void moveFirstTo(TimerList<T> target, LawnTimer<T> last) {
    LawnTimer<T> first = first();
    for (LawnTimer<T> timer = first; timer != last; timer = (LawnTimer<T>) timer.next) {
      timer.list = target;
    }
    last.list = target;
    TimerLink<T> rest = last.next;
    next = rest;
    rest.previous = this;
    TimerLink<T> targetLast = target.previous;
    first.previous = targetLast;
    targetLast.next = first;
    last.next = target;
    target.previous = last;
  }

  /** Counts the timers, stopping at {@code limit}: {@code O(min(size, limit))}. */
  final int countUpTo(int limit) {
    int count = 0;
    for (TimerLink<T> link = next; link != this && count < limit; link = link.next) {
      count++;
    }
    return count;
  }

  /** Takes every timer out of this list without handing any out. */
  final void removeAll() {
    TimerLink<T> link = next;
    while (link != this) {
      LawnTimer<T> timer = (LawnTimer<T>) link;
      link = timer.next;
      timer.list = null;
      timer.previous = null;
      timer.next = null;
    }
    previous = this;
    next = this;
  }
}
