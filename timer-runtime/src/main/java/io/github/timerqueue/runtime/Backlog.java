package io.github.timerqueue.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * The bound on the timer thread's backlog: the arming requests other threads have queued and it
 * has not applied, plus the timers they armed that were due when applied and have not fired. A
 * thread takes a permit before it arms a timeout and waits while there is none; the timer thread
 * gives the permit back when it applies the request, or, if that leaves a due timer, when the timer
 * fires or leaves the queue. The timer thread itself never takes one (it is the one that catches
 * up), and cancelling never needs one.
 *
 * <h2>Lanes</h2>
 * The permits are split evenly among the lanes of the {@link RequestQueue}, and a thread takes
 * them from its own lane, so that threads on different lanes touch no common memory to take one
 * (one shared counter would be taken from core to core by every request, as one shared queue end
 * was). Each lane has a ticket counter that its producers increment ({@code admitted}), a count
 * the timer thread publishes of the permits it gave back ({@code retired}, written once per turn,
 * not per request, so that producers rarely miss it in their caches) and a count of permits that
 * producers took but did not use ({@code unused}: the timeout was already queued, or the request
 * was rejected). Ticket {@code t} may go ahead once {@code t - retired - unused < perLane}: so at
 * most {@code perLane} permits of a lane are ever out, and they are handed out in ticket order.
 * Each counter lives alone on its cache line.
 */
final class Backlog {
  /** Longs between two lanes' counters: 128 bytes, two cache lines, as adjacent-line prefetch pairs them. */
  private static final int STRIDE = 16;
  private static final long FIRST_PAUSE_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
  private static final long LONGEST_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
  private static final VarHandle COUNTS = MethodHandles.arrayElementVarHandle(long[].class);

  private final long perLane;
  private final int lanes;
  /** Producers' ticket counters at {@code lane * STRIDE + STRIDE}, and the unused counts next to them. */
  private final long[] admitted;
  /** What the timer thread published as given back, at {@code lane * STRIDE + STRIDE}. */
  private final long[] retired;
  /**
   * Timer thread only: given back and not yet published (at {@code STRIDE + lane}, padded, since
   * it is written per request: beside this object's fields, which producers read per request, it
   * would take their line away from them each time), and published so far, per lane.
   */
  private final long[] retiring;
  private final long[] retiredSoFar;
  private final LongAdder throttled = new LongAdder();
  /** Wakes the timer thread if it sleeps, so that it works the backlog off. */
  private final Runnable wake;

  /**
   * A bound of {@code bound} permits over {@code lanes} lanes; {@code bound >= lanes}. {@code
   * wake} wakes the timer thread if it sleeps.
   */
  Backlog(long bound, int lanes, Runnable wake) {
    this.wake = wake;
    this.lanes = lanes;
    this.perLane = bound / lanes;
    this.admitted = new long[(lanes + 2) * STRIDE];
    this.retired = new long[(lanes + 2) * STRIDE];
    this.retiring = new long[STRIDE + lanes + STRIDE];
    this.retiredSoFar = new long[lanes];
  }

  /** The most permits out at once: the bound rounded down to a multiple of the lanes. */
  long capacity() {
    return perLane * lanes;
  }

  /**
   * Takes a permit of {@code lane}, waiting while it has none out, until {@code stopping} says the
   * service stops (a request then goes ahead, to be rejected). Waits in pauses that grow from 50
   * microseconds to a millisecond, so that many waiting threads leave the processors to the timer
   * thread.
   *
   * <p>An interrupt does not end the wait: none of the methods that wait here throws {@link
   * InterruptedException}, so, as {@link java.util.concurrent.Semaphore#acquireUninterruptibly()}
   * does, the thread goes on waiting and returns with its interrupt status set. The status is
   * cleared while it waits, since a park returns at once while it is set: a thread interrupted
   * before or during the wait would otherwise spin through it.
   */
  void acquire(int lane, BooleanSupplier stopping) {
    int at = lane * STRIDE + STRIDE;
    long ticket = (long) COUNTS.getAndAdd(admitted, at, 1L);
    long out = ticket - given(lane, at);
    if (out < perLane) {
      if (out == perLane >> 1) {
        // Half the lane's share is out: a timer thread asleep (nothing due soon, cancellations
        // left for later) is woken to apply the requests before anyone has to wait for it.
        wake.run();
      }
      return;
    }
    throttled.increment();
    ThrottledEvent event = ThrottledEvent.TYPE.isEnabled() ? new ThrottledEvent() : null;
    if (event != null) {
      event.begin();
    }
    wake.run();
    boolean interrupted = false;
    long pause = FIRST_PAUSE_NANOS;
    while (ticket - given(lane, at) >= perLane && !stopping.getAsBoolean()) {
      LockSupport.parkNanos(this, pause);
      interrupted |= Thread.interrupted();
      pause = Math.min(pause * 2, LONGEST_PAUSE_NANOS);
    }
    if (event != null && event.shouldCommit()) {
      event.lane = lane;
      event.laneShare = perLane;
      event.commit();
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private long given(int lane, int at) {
    return (long) COUNTS.getAcquire(retired, at) + (long) COUNTS.getVolatile(admitted, at + 1);
  }

  /** Gives back an unused permit of {@code lane}; any thread. */
  void unused(int lane) {
    COUNTS.getAndAdd(admitted, lane * STRIDE + STRIDE + 1, 1L);
  }

  /** The timer thread gives back a permit of {@code lane}; published by {@link #publish()}. */
  void retire(int lane) {
    retiring[STRIDE + lane]++;
  }

  /** Publishes the permits the timer thread gave back since the last call; timer thread only. */
  void publish() {
    for (int lane = 0; lane < lanes; lane++) {
      if (retiring[STRIDE + lane] != 0) {
        retiredSoFar[lane] += retiring[STRIDE + lane];
        retiring[STRIDE + lane] = 0;
        COUNTS.setRelease(retired, lane * STRIDE + STRIDE, retiredSoFar[lane]);
      }
    }
  }

  /**
   * The permits out now: taken and neither used up nor given back (published); for tests. Exact
   * when producers and the timer thread are quiet.
   */
  long outstanding() {
    long out = 0;
    for (int lane = 0; lane < lanes; lane++) {
      int at = lane * STRIDE + STRIDE;
      out += (long) COUNTS.getVolatile(admitted, at) - given(lane, at);
    }
    return out;
  }

  /** How many permits were waited for. */
  long throttled() {
    return throttled.sum();
  }
}
