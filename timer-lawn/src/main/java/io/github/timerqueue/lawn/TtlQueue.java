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
final class TtlQueue<T> extends TimerList<T> {
  /** {@link #position} of a queue that is not in the index. */
  static final int NOT_INDEXED = -1;

  /** The TTL in units of the resolution; 0 for timers armed with a deadline already due. */
  long ttl;
  /** Where the queue is in the {@link HeadIndex}, or {@link #NOT_INDEXED}. */
  int position = NOT_INDEXED;

  @Override
  public String toString() {
    return "TtlQueue{ttl=" + ttl + ", size=" + size + "}";
  }
}
