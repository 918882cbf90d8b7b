package io.github.timerqueue.hitime;

/**
 * A first-in, first-out list of timers: the sentinel of a circular, doubly-linked list of {@link
 * TimerLink}s. Appending, unlinking any member, and moving every member to another list are all
 * constant time; nothing is allocated.
 */
final class TimerList extends TimerLink {

  TimerList() {
    previous = this;
    next = this;
  }

  boolean isEmpty() {
    return next == this;
  }

  /** The oldest member; the list itself (the sentinel) when empty. */
  TimerLink first() {
    return next;
  }

  /** Adds an unlinked node at the end. */
  void append(TimerLink link) {
    TimerLink last = previous;
    link.previous = last;
    link.next = this;
    last.next = link;
    previous = link;
  }

  /** Moves every member, in order, to the end of {@code target}; this list is left empty. */
  void moveAllTo(TimerList target) {
    if (isEmpty()) {
      return;
    }
    TimerLink first = next;
    TimerLink last = previous;
    TimerLink targetLast = target.previous;
    targetLast.next = first;
    first.previous = targetLast;
    last.next = target;
    target.previous = last;
    previous = this;
    next = this;
  }

  /** Moves every member, in order, to the front of {@code target}; this list is left empty. */
  void moveAllToFrontOf(TimerList target) {
    if (isEmpty()) {
      return;
    }
    TimerLink first = next;
    TimerLink last = previous;
    TimerLink targetFirst = target.next;
    target.next = first;
    first.previous = target;
    last.next = targetFirst;
    targetFirst.previous = last;
    previous = this;
    next = this;
  }

  /** Unlinks every member, leaving each one in no list; {@code O(members)}. */
  void unlinkAll() {
    TimerLink link = next;
    while (link != this) {
      TimerLink following = link.next;
      link.previous = null;
      link.next = null;
      link = following;
    }
    previous = this;
    next = this;
  }
}
