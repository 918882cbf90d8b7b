package com.example.sortedlist;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerHandle;
import io.github.timerqueue.spi.AbstractTimerQueue;
import io.github.timerqueue.spi.TimerQueueChecks;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A third party's strategy, as small as the contract allows: the pending timers in one list sorted
 * by deadline, then by arming order. Exact; {@code schedule}, {@code cancel} and {@code reschedule}
 * cost {@code O(n)}. It exists to show, in timer-conformance's own tests, that a strategy written
 * outside this project is certified by README's "Certify your own strategy" alone. {@link
 * AbstractTimerQueue} writes {@code schedule}, {@code cancel} and {@code reschedule} from its
 * {@code newTimer}, {@code ownedOrNull}, {@code arm} and {@code remove}.
 */
final class SortedListTimerQueue<T>
    extends AbstractTimerQueue<T, SortedListTimerQueue.Timer<T>> {
  /*
   * A timer's key is the unsigned distance of its deadline from the start time (a deadline in the
   * past counts as now), as the contract measures time. Keys order the list; ties go to the older
   * arming. An advance hands out only timers armed before it began: those a handler arms wait for
   * the next advance, as the contract requires.
   */
  private static final Comparator<Timer<?>> ORDER = Comparator
      .<Timer<?>>comparingLong(timer -> timer.key ^ Long.MIN_VALUE)
      .thenComparingLong(timer -> timer.sequence);

  private final List<Timer<T>> pending = new ArrayList<>();
  private long now;
  private long elapsed;
  private long nextSequence;
  private boolean advancing;

  SortedListTimerQueue(TimerConfig config) {
    this.now = config.startTime();
  }

  @Override
  public String strategy() {
    return SortedListProvider.NAME;
  }

  @Override
  public long now() {
    return now;
  }

  @Override
  public TimerHandle<T> scheduleWithin(long earliest, long latest, T payload) {
    TimerQueueChecks.checkRange(earliest, latest);
    return schedule(earliest, payload);
  }

  @Override
  public int advance(long now, Consumer<? super TimerHandle<T>> onExpired, int limit) {
    TimerQueueChecks.checkAdvance(onExpired, limit, advancing);
    if (now - this.now > 0) {
      this.elapsed += now - this.now;
      this.now = now;
    }
    long armedBefore = nextSequence;
    advancing = true;
    try {
      int fired = 0;
      while (fired < limit && !pending.isEmpty()
          && Long.compareUnsigned(pending.get(0).key, elapsed) <= 0
          && pending.get(0).sequence < armedBefore) {
        Timer<T> timer = pending.remove(0);
        timer.pending = false;
        fired++;
        onExpired.accept(timer);
      }
      return fired;
    } finally {
      advancing = false;
    }
  }

  @Override
  public long nextExpiryDelay() {
    if (pending.isEmpty()) {
      return Long.MAX_VALUE;
    }
    long earliest = pending.get(0).key;
    return Long.compareUnsigned(earliest, elapsed) <= 0
        ? 0 : Math.min(earliest - elapsed, Long.MAX_VALUE - 1);
  }

  @Override
  public int size() {
    return pending.size();
  }

  @Override
  public void clear() {
    for (Timer<T> timer : pending) {
      timer.pending = false;
    }
    pending.clear();
  }

  @Override
  public int drain(Consumer<? super TimerHandle<T>> sink) {
    Objects.requireNonNull(sink, "sink");
    TimerQueueChecks.checkNotInHandler(advancing, "drain");
    int drained = 0;
    while (!pending.isEmpty()) {
      Timer<T> timer = pending.remove(pending.size() - 1);
      timer.pending = false;
      drained++;
      sink.accept(timer);
    }
    return drained;
  }

  @Override
  public void forEach(Consumer<? super TimerHandle<T>> action) {
    Objects.requireNonNull(action, "action");
    for (Timer<T> timer : pending) {
      action.accept(timer);
    }
  }

  @Override
  protected Timer<T> newTimer(T payload) {
    return new Timer<>(this, payload);
  }

  @Override
  protected Timer<T> ownedOrNull(TimerHandle<T> timer) {
    return timer instanceof Timer<T> owned && owned.queue == this ? owned : null;
  }

  @Override
  protected void arm(Timer<T> timer, long deadline) {
    long key = elapsed + Math.max(0, deadline - now);
    timer.key = Long.compareUnsigned(key, elapsed) < 0 ? -1L : key; // past the end of the clock
    timer.deadline = deadline;
    timer.sequence = nextSequence++;
    timer.pending = true;
    pending.add(-1 - indexOf(timer), timer);
  }

  @Override
  protected void remove(Timer<T> timer) {
    pending.remove(indexOf(timer));
    timer.pending = false;
  }

  /** The timer's index if it is in the list, else {@code -1 - } the index where it belongs. */
  private int indexOf(Timer<T> timer) {
    return Collections.binarySearch(pending, timer, ORDER);
  }

  /** A timer of this queue: its handle and its list entry. */
  static final class Timer<T> implements TimerHandle<T> {
    final SortedListTimerQueue<T> queue;
    final T payload;
    long deadline;
    long key;
    long sequence;
    boolean pending;

    Timer(SortedListTimerQueue<T> queue, T payload) {
      this.queue = queue;
      this.payload = payload;
    }

    @Override
    public T payload() {
      return payload;
    }

    @Override
    public long deadline() {
      return deadline;
    }

    @Override
    public boolean isPending() {
      return pending;
    }
  }
}
