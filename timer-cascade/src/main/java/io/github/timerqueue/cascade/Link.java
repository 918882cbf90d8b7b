package io.github.timerqueue.cascade;

/**
 * A link of a circular, doubly-linked, intrusive list: either a timer, or the sentinel that heads a
 * list (a bucket, the far list, the due list).
 *
 * <p>Because every list is circular around its sentinel, taking a timer out never needs to know
 * which list it is in: deleting is unlinking, as the design asks, with no other bookkeeping.
 */
class Link {
  Link previous;
  Link next;

  /** Returns a new, empty list: a sentinel linked to itself. */
  static Link newList() {
    Link sentinel = new Link();
    sentinel.previous = sentinel;
    sentinel.next = sentinel;
    return sentinel;
  }

  /** Whether the list this sentinel heads is empty. */
  final boolean isEmptyList() {
    return next == this;
  }

  /** Links this (unlinked) link at the tail of the list headed by {@code sentinel}. */
  final void linkLast(Link sentinel) {
    Link last = sentinel.previous;
    previous = last;
    next = sentinel;
    last.next = this;
    sentinel.previous = this;
  }

  /** Takes this link out of its list; the dropped references let unreachable timers be collected. */
  final void unlink() {
    previous.next = next;
    next.previous = previous;
    previous = null;
    next = null;
  }

  /** Moves every link of the list headed by {@code from} to the tail of this sentinel's list. */
  final void takeAllLast(Link from) {
    if (from.isEmptyList()) {
      return;
    }
    Link first = from.next;
    Link last = from.previous;
    Link oldLast = previous;
    oldLast.next = first;
    first.previous = oldLast;
    last.next = this;
    previous = last;
    from.next = from;
    from.previous = from;
  }

  /** Moves every link of the list headed by {@code from} to the head of this sentinel's list. */
  final void takeAllFirst(Link from) {
    if (from.isEmptyList()) {
      return;
    }
    Link first = from.next;
    Link last = from.previous;
    Link oldFirst = next;
    next = first;
    first.previous = this;
    last.next = oldFirst;
    oldFirst.previous = last;
    from.next = from;
    from.previous = from;
  }

  /**
   * Empties the list this sentinel heads in constant time and returns its first link. The links
   * keep their own pointers, so the caller walks them with {@code next} until it comes back to this
   * sentinel; it must read a link's {@code next} before moving that link to another list.
   */
  final Link detachAll() {
    Link first = next;
    next = this;
    previous = this;
    return first;
  }
}
