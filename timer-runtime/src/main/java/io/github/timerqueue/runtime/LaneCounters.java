package io.github.timerqueue.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A few event counters, striped by lane like the {@link RequestQueue} (a thread counts in the lane
 * its id picks), for the counts that every timeout changes: how many were armed, fired and
 * cancelled. Each lane is claimed by the first thread that counts in it, its <em>owner</em>, which
 * from then on is the only thread writing the lane's owner counts: it bumps them with a plain read
 * and a release store, no atomic instruction. Any other thread that picks the lane (a thread id
 * equal modulo the lanes) adds to the lane's shared counts atomically. A count is the sum of both
 * over every lane.
 *
 * <p>So a thread that schedules and cancels pays no atomic instruction to count, where a {@link
 * java.util.concurrent.atomic.LongAdder} costs one per event even uncontended; on one thread that
 * was two of the five atomic operations of a schedule and cancel. The lane's owner is identified
 * by its thread id, which OpenJDK never reuses (a new thread takes the next of a counter); a lane
 * whose owner ended stays its own, and the threads that pick it later count atomically, which is
 * only slower. Nothing is allocated.
 */
final class LaneCounters {
  /** Longs per lane: 128 bytes, two cache lines, as adjacent-line prefetch pairs them. */
  private static final int STRIDE = 16;
  private static final int MAX_COUNTERS = (STRIDE - 1) / 2;
  private static final long NO_OWNER = 0; // thread ids are positive
  private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(long[].class);

  /**
   * Per lane, at {@code lane * STRIDE + STRIDE}: the owner's thread id, then the owner counts, then
   * the shared counts. The first and last {@code STRIDE} longs are padding.
   */
  private final long[] slots;
  private final int laneMask;
  private final int counters;

  /**
   * Creates {@code counters} counters, each 0, over {@code lanes} lanes, a power of two.
   *
   * @throws IllegalArgumentException if {@code lanes} is not a positive power of two or {@code
   *     counters} is not between 1 and 7
   */
  LaneCounters(int lanes, int counters) {
    if (lanes < 1 || Integer.bitCount(lanes) != 1) {
      throw new IllegalArgumentException("lanes must be a positive power of two, but was " + lanes);
    }
    if (counters < 1 || counters > MAX_COUNTERS) {
      throw new IllegalArgumentException(
          "counters must be from 1 to " + MAX_COUNTERS + ", but was " + counters);
    }
    this.slots = new long[(lanes + 2) * STRIDE];
    this.laneMask = lanes - 1;
    this.counters = counters;
  }

  /** Adds one to {@code counter}, in the calling thread's lane; any thread. */
  void increment(int counter) {
    long id = Thread.currentThread().getId();
    int at = ((int) id & laneMask) * STRIDE + STRIDE;
    long owner = (long) SLOTS.getOpaque(slots, at);
    if (owner == id || (owner == NO_OWNER && SLOTS.compareAndSet(slots, at, NO_OWNER, id))) {
      int own = at + 1 + counter;
      // The owner is this count's only writer: no read-modify-write can interleave. Release, so
      // that a thread that learns of the event through this thread's later writes sees it counted.
      SLOTS.setRelease(slots, own, (long) SLOTS.getOpaque(slots, own) + 1);
    } else {
      SLOTS.getAndAdd(slots, at + 1 + counters + counter, 1L);
    }
  }

  /**
   * The sum of {@code counter} over the lanes: exact when no thread counts meanwhile, and never
   * less than the events that happen-before the call. Reads two longs per lane.
   */
  long sum(int counter) {
    long sum = 0;
    for (int at = STRIDE; at < slots.length - STRIDE; at += STRIDE) {
      sum += (long) SLOTS.getAcquire(slots, at + 1 + counter)
          + (long) SLOTS.getVolatile(slots, at + 1 + counters + counter);
    }
    return sum;
  }
}
