package io.github.timerqueue.cascade;

/**
 * A tick that no timer of a level, or of the far bucket, precedes, and the timer that set it.
 *
 * <p>The mark is lowered when a timer is filed and never raised when one leaves, so it is a lower
 * bound that is exact while its witness is still there with that tick; the queue tightens it when
 * it is not ({@link CascadeTimerQueue}).
 */
class LowWaterMark {
  /*
   * One class for the levels' marks and the far bucket's, so that filing lowers either through one
   * store of the witness: each such store compiles to G1's write barrier, and two of them made
   * the compiled arm outgrow the size up to which C2 inlines it into its callers.
   */

  /**
   * No timer here has an earlier tick (compared unsigned); {@link CascadeTimerQueue#NO_TICK} if
   * there is none.
   */
  long lowWater = CascadeTimerQueue.NO_TICK;
  /**
   * A timer that had tick {@link #lowWater} here when the mark was set: while it is still here with
   * that tick, the mark is exact. May be stale.
   */
  CascadeTimer<?> witness;

  /** Lowers the mark to {@code tick}, witnessed by {@code timer}, if that is not above it. */
  final void lower(long tick, CascadeTimer<?> timer) {
    long mark = lowWater;
    if (mark == CascadeTimerQueue.NO_TICK || Long.compareUnsigned(tick, mark) <= 0) {
      lowWater = tick;
      witness = timer;
    }
  }

  /** Forgets the mark: nothing is here. */
  final void reset() {
    lowWater = CascadeTimerQueue.NO_TICK;
    witness = null;
  }
}
