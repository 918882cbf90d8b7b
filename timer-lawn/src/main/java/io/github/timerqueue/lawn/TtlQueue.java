package io.github.timerqueue.lawn;

/**
 * The timers that share one TTL (time to live, in units of the resolution), in the order they were
 * armed: the paper's TTL bucket, a blade of the lawn.
 *
 * <p>Timers join at the tail. Every timer of the queue expires its TTL after the tick in which it
 * joined, and the clock never goes back, so arrival order is expiry order: the head is always the
 * first to expire, and expiring is taking heads. A queue is in the lawn's map and in its {@link
 * HeadIndex} exactly while it is not empty; an empty one is kept as a spare for the next new TTL.
 */
final class TtlQueue<T> extends TimerRing<T> {
  /** {@link #position} of a queue that is not in the index. */
  static final int NOT_INDEXED = -1;

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

  /** Creates an empty queue, to be {@linkplain #assign assigned} a TTL. */
  TtlQueue() {
    super(true);
  }

  /** Gives this empty queue the TTL of the timers that will join it. */
  void assign(long ttl, long resolution) {
    this.ttl = ttl;
    this.span = spanOf(ttl, resolution);
  }

  /** {@code ttl} times the resolution, or {@code 2^64 - 1} if that does not fit: see {@link #span}. */
  static long spanOf(long ttl, long resolution) {
    return Math.multiplyHigh(ttl, resolution) != 0 ? -1L : ttl * resolution;
  }

  @Override
  public String toString() {
    return "TtlQueue{ttl=" + ttl + ", size=" + size + "}";
  }
}
