package io.github.timerqueue.lawn;

/**
 * The timers that share one TTL (time to live, in units of the resolution), in the order they were
 * armed: the paper's TTL bucket, a blade of the lawn.
 *
 * <p>Timers join at the tail. Every timer of the queue expires its TTL after the tick in which it
 * joined, and the clock never goes back, so arrival order is expiry order: the head is always the
 * first to expire, and expiring is taking heads. A queue is in the lawn's map and in its {@link
 * HeadIndex} exactly while it is not empty; an empty one is kept as a spare for the next new TTL.
 *
 * <p>Two queues are not of a TTL in that sense. The queue of TTL 0 holds the timers armed with a
 * deadline already due, in the order they were armed; each expires at its deadline, so there
 * arrival order need not be expiry order, but all of them are due. The queue
 * marked {@link #SATURATED}, not in the map, holds the timers of any TTL whose expiry lies past the
 * end of the clock's range, where it saturates: all of them expire at the clock's last instant.
 * And the queues marked {@link #SHARED}, not in the map either, hold timers of TTLs that have no
 * queue of their own once the lawn has many ({@link SharedQueues}), in order of expiry.
 */
final class TtlQueue<T> extends TimerRing<T> {
  /** {@link #position} of a queue that is not in the index. */
  static final int NOT_INDEXED = -1;
  /** The {@link #ttl} of the queue of timers whose expiry saturates. */
  static final long SATURATED = -1;
  /** The {@link #ttl} of a queue that timers of several TTLs share ({@link SharedQueues}). */
  static final long SHARED = -2;

  /** The TTL in units of the resolution; 0 for timers armed with a deadline already due. */
  long ttl;
  /**
   * {@code ttl} times the resolution, or {@code 2^64 - 1} if that does not fit in 64 unsigned bits:
   * what a timer armed in a tick adds to the tick's start for its expiry, so that joining the queue
   * needs no multiplication. Either way an unsigned overflow of the sum means "saturate".
   */
  long span;
  /** Where the queue is in the {@link HeadIndex}, or {@link #NOT_INDEXED}. */
  int position = NOT_INDEXED;
  /**
   * Of the queues whose heads expire together, those of lower rank are handed out first: a shared
   * queue's rank counts the shared queues started before it, a TTL queue's is {@code
   * Long.MAX_VALUE} (why: {@link SharedQueues}).
   */
  long rank;

  /** Creates an empty queue of a lawn, to be {@linkplain #assign assigned} a TTL. */
  TtlQueue(LawnTimerQueue<T> owner) {
    super(owner, true);
  }

  /** Gives this empty queue the TTL of the timers that will join it, or {@link #SATURATED}. */
  void assign(long ttl, long resolution) {
    this.ttl = ttl;
    this.span = ttl == SATURATED ? -1L : spanOf(ttl, resolution);
    this.rank = Long.MAX_VALUE;
  }

  /** Makes this empty queue a {@link #SHARED} one of the given {@link #rank}. */
  void assignShared(long rank) {
    this.ttl = SHARED;
    // Unused: timers join a shared queue through SharedQueues, never by the span.
    this.span = -1L;
    this.rank = rank;
  }

  /** {@code ttl} times the resolution, or {@code 2^64 - 1} if that does not fit: see {@link #span}. */
  static long spanOf(long ttl, long resolution) {
    return Math.multiplyHigh(ttl, resolution) != 0 ? -1L : ttl * resolution;
  }

  /** When the first timer expires, as {@link #expiryOf}. The queue must not be empty. */
  long firstExpiry() {
    return expiryOf(first());
  }

  /**
   * When a timer of this queue expires, as an unsigned distance from the start time: its deadline
   * rounded up to the resolution (in a {@link #SHARED} queue too), its deadline itself in the queue
   * of TTL 0, the end of the clock's range in the {@link #SATURATED} queue.
   */
  long expiryOf(LawnTimer<T> timer) {
    return owner.expiryOf(timer.deadline(), ttl);
  }

  @Override
  public String toString() {
    String kind = ttl == SATURATED ? "saturated" : ttl == SHARED ? "shared" : Long.toString(ttl);
    return "TtlQueue{ttl=" + kind + ", size=" + size + "}";
  }
}
