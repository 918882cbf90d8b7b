package io.github.timerqueue.conformance;

import io.github.timerqueue.TimerHandle;
import io.github.timerqueue.TimerQueue;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * A seeded random mix of every operation of a {@link TimerQueue}, each checked against a model of
 * the contract: a sorted set of the pending timers by the time at which each must have fired.
 *
 * <p>Where the contract leaves the strategy a choice (when, within its resolution, a timer fires;
 * which deadline {@code scheduleWithin} picks; the order of timers firing together) the model
 * accepts every allowed answer. Handlers re-arm, schedule, cancel and throw at random, so the
 * re-entrancy rules are exercised too. A failure names the seed, the operation that diverged and the
 * operations before it.
 */
final class DifferentialRun {
  private static final int MAX_PENDING = 3_000;
  private static final int MAX_HANDLES = 6_000;
  private static final int TRACE_LENGTH = 12;
  /** Keeps every distance below 2^63 so that the model's unsigned arithmetic cannot overflow. */
  private static final long MAX_ELAPSED = 1L << 61;

  private final TimerQueue<Long> queue;
  private final Setup setup;
  private final long seed;
  private final String strategy;
  private final SplittableRandom random;

  private final Map<TimerHandle<Long>, Model> models = new IdentityHashMap<>();
  private final List<TimerHandle<Long>> handles = new ArrayList<>();
  private final TreeSet<Model> byMustFireBy = new TreeSet<>(
      Comparator.<Model>comparingLong(model -> model.mustFireBy ^ Long.MIN_VALUE)
          .thenComparingLong(model -> model.id));
  private final Deque<String> trace = new ArrayDeque<>();
  private long elapsed;
  private long nextId;
  private int advanceNumber;
  /** The operation under way, for the failure message. */
  private String operation;

  /** What the model knows of one timer. */
  private static final class Model {
    final TimerHandle<Long> handle;
    long id;
    boolean pending;
    /** The distance from the start time before which it must not fire. */
    long earliest;
    /** The distance from the start time by which it must have fired. */
    long mustFireBy;
    /** The advance during which a handler armed it, which must not fire it. */
    int armedInAdvance = -1;

    Model(TimerHandle<Long> handle) {
      this.handle = handle;
    }
  }

  DifferentialRun(TimerQueue<Long> queue, Setup setup, long seed, String strategy) {
    this.queue = queue;
    this.setup = setup;
    this.seed = seed;
    this.strategy = strategy;
    this.random = new SplittableRandom(seed);
  }

  void run(int operations) {
    for (int op = 0; op < operations; op++) {
      String description = null;
      operation = null;
      try {
        description = step();
        check(queue.size() == byMustFireBy.size(),
            "size() is " + queue.size() + ", the model has " + byMustFireBy.size() + " pending");
      } catch (Throwable failure) {
        throw new AssertionError(String.format(
            "strategy %s, %s, seed %d (replay with -Dtimerqueue.conformance.seed=%d): "
                + "operation #%d %s diverged: %s%n  operations before it, oldest first:%n    %s",
            strategy, setup, seed, seed, op, operation,
            failure.getMessage(), String.join("\n    ", trace)), failure);
      } finally {
        trace.addLast(String.valueOf(description));
        if (trace.size() > TRACE_LENGTH) {
          trace.removeFirst();
        }
      }
    }
  }

  private String step() {
    int pending = byMustFireBy.size();
    int roll = random.nextInt(1000);
    if (pending > MAX_PENDING) {
      roll = 500 + random.nextInt(500);
    }
    if (roll < 300) {
      return schedule();
    } else if (roll < 380) {
      return scheduleWithin();
    } else if (roll < 500) {
      return reschedule();
    } else if (roll < 640) {
      return cancel();
    } else if (roll < 900) {
      return advance();
    } else if (roll < 990) {
      return nextExpiryDelay();
    } else if (roll < 997) {
      return forEach();
    } else if (roll < 999) {
      return drain();
    }
    return clear();
  }

  // ------------------------------------------------------------------ operations

  private String schedule() {
    long deadline = randomDeadline();
    TimerHandle<Long> handle = queue.schedule(deadline, nextId);
    String description = "schedule(now" + signed(deadline - queue.now()) + ")";
    operation = description;
    check(handle.isPending() && handle.deadline() == deadline && handle.payload() == nextId,
        "new handle " + handle + " is not pending with its deadline and payload");
    Model model = new Model(handle);
    models.put(handle, model);
    remember(handle);
    arm(model, keyOf(deadline), keyOf(deadline));
    return description;
  }

  private String scheduleWithin() {
    long earliest = randomDeadline();
    long width = randomDistance();
    if (earliest - queue.now() > Long.MAX_VALUE - width) {
      width = 0; // keeps latest ahead of the clock when earliest is
    }
    long latest = earliest + width;
    String description = "scheduleWithin(now" + signed(earliest - queue.now()) + ", now"
        + signed(latest - queue.now()) + ")";
    operation = description;
    TimerHandle<Long> handle = queue.scheduleWithin(earliest, latest, nextId);
    check(handle.isPending(), "new handle is not pending");
    check(handle.deadline() - earliest >= 0 && latest - handle.deadline() >= 0,
        "chose deadline " + handle.deadline() + " outside the range");
    Model model = new Model(handle);
    models.put(handle, model);
    remember(handle);
    arm(model, keyOf(earliest), keyOf(latest));
    return description;
  }

  private String reschedule() {
    if (handles.isEmpty()) {
      return schedule();
    }
    TimerHandle<Long> handle = handles.get(random.nextInt(handles.size()));
    Model model = models.get(handle);
    long deadline = randomDeadline();
    String description = "reschedule(#" + handle.payload() + " " + state(model) + ", now"
        + signed(deadline - queue.now()) + ")";
    operation = description;
    boolean wasPending = queue.reschedule(handle, deadline);
    check(wasPending == model.pending, "reschedule returned " + wasPending);
    check(handle.isPending() && handle.deadline() == deadline,
        "rescheduled handle is not pending with its new deadline");
    disarm(model);
    arm(model, keyOf(deadline), keyOf(deadline));
    return description;
  }

  private String cancel() {
    if (handles.isEmpty()) {
      return schedule();
    }
    TimerHandle<Long> handle = handles.get(random.nextInt(handles.size()));
    Model model = models.get(handle);
    String description = "cancel(#" + handle.payload() + " " + state(model) + ")";
    operation = description;
    boolean wasPending = queue.cancel(handle);
    check(wasPending == model.pending, "cancel returned " + wasPending);
    check(!handle.isPending(), "cancelled handle is still pending");
    disarm(model);
    return description;
  }

  private String advance() {
    long target;
    int kind = random.nextInt(100);
    if (kind < 5) {
      target = queue.now() - random.nextLong(1, 1_000);
    } else if (kind < 10) {
      target = queue.now();
    } else if (kind < 70) {
      target = queue.now() + random.nextLong(1, 4 * setup.resolution() + 2);
    } else if (kind < 95 || elapsed > MAX_ELAPSED / 2) {
      target = queue.now() + random.nextLong(1, 1L << 16);
    } else {
      target = queue.now() + random.nextLong(1, 1L << random.nextInt(17, 40));
    }
    int limit = random.nextInt(10) == 0 ? 1 + random.nextInt(5) : Integer.MAX_VALUE;
    return advanceTo(target, limit);
  }

  private String advanceTo(long target, int limit) {
    String description = "advance(now" + signed(target - queue.now())
        + (limit == Integer.MAX_VALUE ? "" : ", limit " + limit) + ")";
    operation = operation == null ? description : operation + "; " + description;
    long step = target - queue.now();
    long newElapsed = step > 0 ? elapsed + step : elapsed;
    long newNow = step > 0 ? target : queue.now();
    int thisAdvance = ++advanceNumber;
    boolean throwing = random.nextInt(50) == 0;
    int throwAt = 1 + random.nextInt(3);
    int[] handedOver = {0};
    RuntimeException failure = new RuntimeException("handler failed on purpose");

    Consumer<TimerHandle<Long>> handler = timer -> {
      handedOver[0]++;
      Model model = models.get(timer);
      check(model != null, "handed over a timer the queue never created: " + timer);
      check(model.pending, "handed over #" + timer.payload() + ", which was not pending");
      check(model.armedInAdvance != thisAdvance,
          "handed over #" + timer.payload() + ", armed during this same advance");
      check(Long.compareUnsigned(model.earliest, newElapsed) <= 0,
          "#" + timer.payload() + " fired early: due at +" + Long.toUnsignedString(model.earliest)
              + " from the start, the clock is at +" + Long.toUnsignedString(newElapsed));
      check(!timer.isPending(), "handed-over timer is still pending");
      check(queue.now() == newNow, "now() in the handler is " + queue.now());
      disarm(model);
      reactInHandler(timer, model, thisAdvance);
      if (throwing && handedOver[0] == throwAt) {
        throw failure;
      }
    };

    elapsed = newElapsed;
    int fired;
    try {
      fired = queue.advance(target, handler, limit);
    } catch (RuntimeException thrown) {
      check(thrown == failure, "advance threw " + thrown);
      return description + " threw after " + handedOver[0];
    }
    check(queue.now() == newNow, "now() is " + queue.now() + " after the advance");
    check(fired == handedOver[0], "returned " + fired + " but handed over " + handedOver[0]);
    check(fired <= limit, "fired " + fired + " above the limit");
    // Timers a handler cancels or re-arms do not use up the quota: short of the limit, nothing that
    // this advance was to fire may be left.
    if (fired < limit) {
      for (Model model : byMustFireBy) {
        if (Long.compareUnsigned(model.mustFireBy, elapsed) > 0) {
          break;
        }
        check(model.armedInAdvance == thisAdvance, "#" + model.handle.payload()
            + " should have fired by +" + Long.toUnsignedString(model.mustFireBy)
            + " from the start, the clock is at +" + Long.toUnsignedString(elapsed));
      }
    }
    return description + " fired " + fired;
  }

  /**
   * What a handler does at random: re-arm its timer, schedule another, cancel another, or cancel or
   * re-arm the timer that is most overdue, which a strategy may already hold in the batch it is
   * handing out.
   */
  private void reactInHandler(TimerHandle<Long> timer, Model model, int thisAdvance) {
    int roll = random.nextInt(20);
    if (roll == 0) {
      long deadline = queue.now() + random.nextLong(-2, 3 * setup.resolution());
      queue.reschedule(timer, deadline);
      arm(model, keyOf(deadline), keyOf(deadline));
      model.armedInAdvance = thisAdvance;
    } else if (roll == 1) {
      long deadline = queue.now() + random.nextLong(-2, 3 * setup.resolution());
      TimerHandle<Long> scheduled = queue.schedule(deadline, nextId);
      Model created = new Model(scheduled);
      models.put(scheduled, created);
      remember(scheduled);
      arm(created, keyOf(deadline), keyOf(deadline));
      created.armedInAdvance = thisAdvance;
    } else if (roll == 2 && !handles.isEmpty()) {
      TimerHandle<Long> other = handles.get(random.nextInt(handles.size()));
      Model otherModel = models.get(other);
      check(queue.cancel(other) == otherModel.pending, "cancel in a handler disagreed");
      disarm(otherModel);
    } else if (roll == 3 && !byMustFireBy.isEmpty()) {
      Model overdue = byMustFireBy.first();
      check(queue.cancel(overdue.handle), "cancel of a pending timer in a handler returned false");
      disarm(overdue);
    } else if (roll == 4 && !byMustFireBy.isEmpty()) {
      Model overdue = byMustFireBy.first();
      long deadline = queue.now() + random.nextLong(-2, 3 * setup.resolution());
      check(queue.reschedule(overdue.handle, deadline),
          "reschedule of a pending timer in a handler returned false");
      disarm(overdue);
      arm(overdue, keyOf(deadline), keyOf(deadline));
      overdue.armedInAdvance = thisAdvance;
    }
  }

  private String nextExpiryDelay() {
    long delay = queue.nextExpiryDelay();
    String description = "nextExpiryDelay() = " + delay;
    operation = description;
    if (byMustFireBy.isEmpty()) {
      check(delay == Long.MAX_VALUE, "the queue is empty but the delay is " + delay);
      return description;
    }
    check(delay >= 0 && delay < Long.MAX_VALUE, "the queue is not empty but the delay is " + delay);
    long mustFireBy = byMustFireBy.first().mustFireBy;
    if (Long.compareUnsigned(mustFireBy, elapsed) <= 0) {
      check(delay == 0, "a timer must fire at the next advance but the delay is " + delay);
    } else {
      check(Long.compareUnsigned(delay, mustFireBy - elapsed) <= 0, "the delay " + delay
          + " passes a timer that must fire within " + (mustFireBy - elapsed));
    }
    if (delay == 0) {
      int limit = Integer.MAX_VALUE;
      String advanced = advanceTo(queue.now(), limit);
      check(!advanced.endsWith("fired 0"), "the delay was 0 but advance(now()) fired nothing");
      return description + "; " + advanced;
    }
    if (delay > 1 && random.nextBoolean() && elapsed < MAX_ELAPSED) {
      long before = queue.now() + Math.min(delay - 1, 1L << 40);
      String advanced = advanceTo(before, Integer.MAX_VALUE);
      check(advanced.endsWith("fired 0"), "fired before the delay " + delay + " ran out");
      return description + "; " + advanced;
    }
    return description;
  }

  private String forEach() {
    List<TimerHandle<Long>> visited = new ArrayList<>();
    queue.forEach(visited::add);
    Map<TimerHandle<Long>, Boolean> seen = new IdentityHashMap<>();
    for (TimerHandle<Long> timer : visited) {
      check(seen.put(timer, true) == null, "forEach visited #" + timer.payload() + " twice");
      check(models.get(timer).pending, "forEach visited #" + timer.payload() + ", not pending");
    }
    check(visited.size() == byMustFireBy.size(), "forEach visited " + visited.size());
    return "forEach() visited " + visited.size();
  }

  private String drain() {
    int[] count = {0};
    int drained = queue.drain(timer -> {
      Model model = models.get(timer);
      check(model.pending, "drained #" + timer.payload() + ", which was not pending");
      check(!timer.isPending(), "drained timer is still pending");
      disarm(model);
      count[0]++;
    });
    check(drained == count[0], "drain returned " + drained + " but handed out " + count[0]);
    check(byMustFireBy.isEmpty(), byMustFireBy.size() + " pending timers were not drained");
    return "drain() = " + drained;
  }

  private String clear() {
    queue.clear();
    for (Model model : new ArrayList<>(byMustFireBy)) {
      check(!model.handle.isPending(), "#" + model.handle.payload() + " pending after clear");
      disarm(model);
    }
    return "clear()";
  }

  // ------------------------------------------------------------------ model

  private void arm(Model model, long earliestKey, long latestKey) {
    model.id = nextId++;
    model.pending = true;
    model.earliest = earliestKey;
    model.mustFireBy = setup.mustFireBy(elapsed, latestKey);
    model.armedInAdvance = -1;
    byMustFireBy.add(model);
  }

  private void disarm(Model model) {
    if (model.pending) {
      byMustFireBy.remove(model);
      model.pending = false;
    }
  }

  private void remember(TimerHandle<Long> handle) {
    handles.add(handle);
    if (handles.size() > MAX_HANDLES) {
      int victim = random.nextInt(handles.size());
      TimerHandle<Long> forgotten = handles.get(victim);
      if (!forgotten.isPending()) {
        handles.set(victim, handles.get(handles.size() - 1));
        handles.remove(handles.size() - 1);
        models.remove(forgotten);
      }
    }
  }

  private long keyOf(long deadline) {
    return Setup.deadlineKey(elapsed, queue.now(), deadline);
  }

  private long randomDeadline() {
    int kind = random.nextInt(100);
    long now = queue.now();
    if (kind < 5) {
      return now - random.nextLong(0, 1L << random.nextInt(1, 63));
    } else if (kind < 8) {
      return now;
    } else if (kind < 9) {
      return now + Long.MAX_VALUE;
    }
    return now + randomDistance();
  }

  private long randomDistance() {
    int kind = random.nextInt(100);
    if (kind < 50) {
      return random.nextLong(0, 8 * setup.resolution() + 8);
    } else if (kind < 80) {
      return random.nextLong(0, 1L << 16);
    } else if (kind < 95) {
      return random.nextLong(0, 1L << 32);
    }
    return random.nextLong(0, 1L << 60);
  }

  private static String state(Model model) {
    return model.pending ? "pending" : "stale";
  }

  private static String signed(long value) {
    return value >= 0 ? "+" + value : Long.toString(value);
  }

  private static void check(boolean condition, String message) {
    if (!condition) {
      throw new AssertionError(message);
    }
  }
}
