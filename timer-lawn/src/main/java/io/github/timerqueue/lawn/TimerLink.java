package io.github.timerqueue.lawn;

/**
 * A link of a circular, doubly linked, intrusive list: either a timer or the sentinel that heads a
 * list ({@link TimerList}).
 *
 * <p>Because every list closes on its sentinel, no link's neighbour is ever {@code null} while it is
 * in a list: appending and unlinking are a fixed handful of writes with no branch, which keeps the
 * schedule, cancel and reschedule paths short enough for the JIT to inline whole.
 */
abstract class TimerLink<T> {
  TimerLink<T> previous;
  TimerLink<T> next;
}
