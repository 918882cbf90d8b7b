package io.github.timerqueue.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The tasks of a {@link TimerScheduledExecutorService} that are scheduled and not yet done or
 * handed back, so that {@code shutdown} can cancel those its policies drop on the calling thread.
 *
 * <p>An intrusive doubly-linked list (the links are fields of {@link ScheduledTask}, so adding
 * allocates nothing) split into lock stripes: a thread adds to the stripe its id selects, and a
 * task is removed from the stripe it was added to. Adding or removing takes one uncontended monitor
 * (an atomic operation to enter, a release store to leave) unless two threads with the same stripe
 * schedule at once; {@link #select} holds each stripe's monitor while it walks that stripe.
 */
final class OutstandingTasks {
  /** A list head; its monitor guards the links of the tasks in it. */
  static final class Stripe {
    ScheduledTask<?> head;
  }

  private final Stripe[] stripes;

  OutstandingTasks() {
    int wanted = Math.min(64, 2 * Runtime.getRuntime().availableProcessors());
    int count = Integer.highestOneBit(wanted - 1) << 1; // the power of two at or above it
    stripes = new Stripe[Math.max(1, count)];
    for (int i = 0; i < stripes.length; i++) {
      stripes[i] = new Stripe();
    }
  }

  /** Adds {@code task}, which is in no list; O(1). */
  void add(ScheduledTask<?> task) {
    Stripe stripe = stripes[(int) Thread.currentThread().getId() & (stripes.length - 1)];
    synchronized (stripe) {
      task.stripe = stripe;
      ScheduledTask<?> head = stripe.head;
      task.next = head;
      if (head != null) {
        head.previous = task;
      }
      stripe.head = task;
    }
  }

  /** Removes {@code task}, which {@link #add} added and this method has not removed; O(1). */
  void remove(ScheduledTask<?> task) {
    Stripe stripe = task.stripe;
    synchronized (stripe) {
      ScheduledTask<?> previous = task.previous;
      ScheduledTask<?> next = task.next;
      if (previous == null) {
        stripe.head = next;
      } else {
        previous.next = next;
      }
      if (next != null) {
        next.previous = previous;
      }
      task.previous = null;
      task.next = null;
    }
  }

  /**
   * Returns the tasks in the list that satisfy {@code filter}, which runs under a stripe's monitor
   * and must not add or remove tasks; O(tasks).
   */
  List<ScheduledTask<?>> select(Predicate<ScheduledTask<?>> filter) {
    List<ScheduledTask<?>> selected = new ArrayList<>();
    for (Stripe stripe : stripes) {
      synchronized (stripe) {
        for (ScheduledTask<?> task = stripe.head; task != null; task = task.next) {
          if (filter.test(task)) {
            selected.add(task);
          }
        }
      }
    }
    return selected;
  }
}
