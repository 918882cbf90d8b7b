package io.github.timerqueue.hitime;

/**
 * A node of a circular, doubly-linked {@link TimerList}: either a timer or a list's sentinel.
 *
 * <p>A linked node can be unlinked without knowing which list holds it. That is what lets a bulk
 * expiry move a whole bin to the expired list in constant time, without touching (or re-tagging)
 * the timers in it, while {@code cancel} and {@code reschedule} still work on every one of them.
 */
class TimerLink {
  /** Neighbours in the list, both {@code null} while the node is in no list. */
  TimerLink previous;
  TimerLink next;

  /** Whether this node is in a list. */
  final boolean isLinked() {
    return next != null;
  }

  /** Takes this linked node out of its list, whichever that is. */
  final void unlink() {
    previous.next = next;
    next.previous = previous;
    previous = null;
    next = null;
  }
}
