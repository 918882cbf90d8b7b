package io.github.timerqueue.internal;

import io.github.timerqueue.TimerHandle;
import io.github.timerqueue.TimerQueue;

/**
 * What the handles of this project's strategies share: the payload, the deadline and the textual
 * form. Each strategy extends it with the fields that say where the timer sits in its queue, and
 * with {@link #isPending()}.
 *
 * <p>Not API. This package is exported only to the strategy modules of this project; its setter
 * would let anyone who casts a handle to this class move a timer without its queue knowing. Users
 * hold handles as {@link TimerHandle}, and a strategy of a third party implements that interface
 * directly.
 *
 * @param <T> the type of the payload
 */
public abstract class AbstractTimerHandle<T> implements TimerHandle<T> {
  /*
   * Two fields here, header and all 24 bytes with compressed references, so that a strategy that
   * adds a reference and an int, or one long, keeps its handle at 32 bytes: half a cache line.
   * HotSpot aligns objects to 8 bytes, not 32, so such a handle may still straddle two lines: after
   * filling a queue with 10^6 timers at random and a full collection, 13% of hitime's handles did,
   * 16% of the wheel's and 0.7% of cascade's (JOL's addressOf). With every object aligned to 32
   * bytes (-XX:ObjectAlignmentInBytes=32) none did, and hitime's schedule+cancel at 10^6 timers was
   * no faster (four alternated JVM pairs, OperationCpu). The fields stay private, and a strategy
   * writes the deadline through setDeadline, which the JIT inlines to a plain store.
   */

  private final T payload;
  private long deadline;

  /**
   * Creates a handle that is not pending.
   *
   * @param payload the payload, which the strategy's {@code schedule} has checked is not null
   */
  protected AbstractTimerHandle(T payload) {
    this.payload = payload;
  }

  @Override
  public final T payload() {
    return payload;
  }

  @Override
  public final long deadline() {
    return deadline;
  }

  /**
   * Records the deadline the timer is armed with; for the owning queue only, as it arms the timer.
   * Constant time.
   *
   * @param deadline the new deadline, in the queue's time units
   * @see TimerQueue#reschedule
   */
  public final void setDeadline(long deadline) {
    this.deadline = deadline;
  }

  /**
   * Returns the strategy's class name with the deadline, whether the timer is pending and the
   * payload, e.g. {@code HeapTimer{deadline=42, pending=true, payload=job-7}}.
   */
  @Override
  public final String toString() {
    return getClass().getSimpleName() + "{deadline=" + deadline + ", pending=" + isPending()
        + ", payload=" + payload + "}";
  }
}
