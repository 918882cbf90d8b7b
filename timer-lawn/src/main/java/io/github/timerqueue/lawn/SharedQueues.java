package io.github.timerqueue.lawn;

import java.util.Arrays;

/**
 * The queues that timers of rare TTLs share once the lawn has {@value LawnTimerQueue#TTL_QUEUES}
 * TTL queues: what keeps one TTL per timer from costing a queue per timer.
 *
 * <p>A queue only needs its timers in the order of their expiries, not one TTL. So a timer whose
 * TTL has no queue joins the shared queue whose <em>latest</em> expiry (the latest of any timer
 * that ever joined it) is the latest at or before its own, and becomes that queue's latest; if
 * every shared queue's latest is later, it starts a new one. This is patience sorting: timers in
 * random order of expiry need about {@code 2 sqrt(n)} queues for {@code n} timers, timers of
 * {@code k} TTLs armed as the clock runs at most {@code k}, and each queue holds its timers in
 * order of expiry, as a TTL queue does.
 *
 * <p>The shared queues are kept in an array by latest expiry, latest first; no two share one. A
 * timer joining a queue keeps it in place: the queue's latest was the latest at or before the
 * timer's expiry, so its new latest, the timer's expiry, is still before the latest of the queue
 * ahead of it. A new queue, whose latest is earlier than every other, goes at the end. The array
 * is therefore also in the order the queues were started, which is what keeps timers of one TTL
 * armed in one tick (which expire together) first-in, first-out though they may be in different
 * queues: a timer joins, of the queues that held such a timer, the one whose latest is still its
 * expiry, or one started after the rest (the others' latests have moved past it). Hence each queue's
 * {@link TtlQueue#rank}, which the {@link HeadIndex} compares when heads expire together, counts
 * the queues started; a TTL queue's rank is higher than all of them, since a TTL whose timers are
 * in shared queues may get a queue of its own later in the same tick.
 *
 * <p>A queue that empties stays in the array, so that no removal shifts the queues behind it; a
 * timer that joins it fills it again. Once half the queues are empty they are all dropped in one
 * pass, which the emptyings pay for, and handed to the lawn as spares.
 *
 * <p>With {@code S} shared queues: {@link #queueFor} {@code O(log S)}; {@link #emptied} {@code
 * O(1)} amortized; {@link #clear} {@code O(S)}.
 */
final class SharedQueues<T> {
  private static final int INITIAL_CAPACITY = 8;

  private final LawnTimerQueue<T> lawn;
  /** {@code queues[0..count)}, by latest expiry, latest first. */
  private TtlQueue<T>[] queues;
  /** {@code latest[i]} is the sign-flipped latest expiry of {@code queues[i]}, descending. */
  private long[] latest;
  private int count;
  /** How many of the queues are empty. */
  private int empty;
  /** The {@link TtlQueue#rank} of the next queue started. */
  private long nextRank;

  @SuppressWarnings("unchecked")
  SharedQueues(LawnTimerQueue<T> lawn) {
    this.lawn = lawn;
    queues = (TtlQueue<T>[]) new TtlQueue<?>[INITIAL_CAPACITY];
    latest = new long[INITIAL_CAPACITY];
  }

  /** How many shared queues there are, empty ones included. */
  int count() {
    return count;
  }

  /** The shared queue at {@code position < count()}, latest first: for the tests. */
  TtlQueue<T> get(int position) {
    return queues[position];
  }

  /** The latest expiry (unsigned) of the shared queue at {@code position}: for the tests. */
  long latestAt(int position) {
    return latest[position] ^ Long.MIN_VALUE;
  }

  /**
   * The queue a timer expiring at {@code expiry} (unsigned) is to join, whose latest expiry it
   * becomes, or {@code null} if it is to start a queue ({@link #start}). The queue may be empty.
   */
  TtlQueue<T> queueFor(long expiry) {
    long key = expiry ^ Long.MIN_VALUE;
    // The first position whose latest is at or before the expiry.
    int low = 0;
    int high = count;
    while (low < high) {
      int middle = (low + high) >>> 1;
      if (latest[middle] > key) {
        low = middle + 1;
      } else {
        high = middle;
      }
    }
    if (low == count) {
      return null;
    }
    latest[low] = key;
    TtlQueue<T> queue = queues[low];
    if (queue.isEmpty()) {
      empty--;
    }
    return queue;
  }

  /**
   * Adds an empty queue as a new shared queue for a timer expiring at {@code expiry}, before every
   * latest ({@link #queueFor} returned {@code null}).
   */
  void start(TtlQueue<T> queue, long expiry) {
    if (count == queues.length) {
      queues = Arrays.copyOf(queues, count << 1);
      latest = Arrays.copyOf(latest, count << 1);
    }
    queue.assignShared(nextRank++);
    queues[count] = queue;
    latest[count++] = expiry ^ Long.MIN_VALUE;
  }

  /**
   * Notes that a shared queue emptied; drops the empty queues once they are half of them, keeping
   * the others in their order.
   */
  void emptied(TtlQueue<T> queue) {
    queue.release();
    if (++empty > count >>> 1) {
      int kept = 0;
      for (int position = 0; position < count; position++) {
        TtlQueue<T> shared = queues[position];
        if (shared.isEmpty()) {
          lawn.keepSpare(shared);
        } else {
          queues[kept] = shared;
          latest[kept++] = latest[position];
        }
      }
      Arrays.fill(queues, kept, count, null);
      count = kept;
      empty = 0;
    }
  }

  /** Drops every shared queue, which must all be empty, handing them to the lawn as spares. */
  void clear() {
    for (int position = 0; position < count; position++) {
      lawn.keepSpare(queues[position]);
      queues[position] = null;
    }
    count = 0;
    empty = 0;
  }
}
