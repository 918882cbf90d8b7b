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
 * <h2>Lanes, and the shared part</h2>
 * Half the permits are split evenly among the lanes of the {@link RequestQueue}, and a thread
 * takes them from its own lane's part, so that threads on different lanes touch no common memory
 * to take one (one shared counter would be taken from core to core by every request, as one
 * shared queue end was). Each lane has a ticket counter that its producers increment ({@code
 * admitted}), a count the timer thread publishes of the permits it gave back ({@code retired},
 * written once per turn, not per request, so that producers rarely miss it in their caches) and a
 * count of permits that producers took but did not use ({@code unused}: the timeout was already
 * queued, or the request was rejected). Ticket {@code t} may go ahead once {@code t - retired -
 * unused < perLane}: so at most {@code perLane} permits of a lane are ever out, and they are
 * handed out in ticket order. Each counter lives alone on its cache line.
 *
 * <p>The other half is shared: a thread whose lane's part is all out takes one from it by
 * compare-and-set, and the timer thread gives those back in one addition per turn. So a thread
 * that sends alone, as one request loop does, may run ahead of the timer thread by more than half
 * the bound before it waits, where its lane's part alone would make it wait for the timer thread
 * after a few hundred microseconds of requests: the time a sleeping timer thread can take to be
 * scheduled after it is woken. Busy lanes draw on the shared half together, and only when their
 * own parts are out, so it is contended only where threads would otherwise wait. A thread never
 * takes a ticket it may not keep (a ticket given back before its turn would let a later one go
 * ahead while every permit of the lane is out): it looks whether its lane has a permit left, and
 * takes from the shared half if not; only if that is empty too, it takes a ticket and waits for
 * it. However threads race, at most {@code perLane} permits of each lane and all of the shared
 * half are out: never more than the bound.
 */
final class Backlog {
  /** In a permit: it was taken from the shared half; the bits below it are the lane. */
  static final int SHARED = 1 << 16;
  static final int LANE_MASK = SHARED - 1;
  /**
   * In a permit: its taker is to wake a sleeping timer thread once it has queued its request (see
   * {@link #takeShared}); the request itself is then in the queue for the thread to find.
   */
  static final int WAKE = SHARED << 1;
  /** Longs between two lanes' counters: 128 bytes, two cache lines, as adjacent-line prefetch pairs them. */
  private static final int STRIDE = 16;
  private static final long FIRST_PAUSE_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
  private static final long LONGEST_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
  private static final VarHandle COUNTS = MethodHandles.arrayElementVarHandle(long[].class);

  /** The permits of each lane's own part. */
  private final long perLane;
  /** The permits of the shared half. */
  private final long shared;
  private final int lanes;
  /** Producers' ticket counters at {@code lane * STRIDE + STRIDE}, and the unused counts next to them. */
  private final long[] admitted;
  /** What the timer thread published as given back, at {@code lane * STRIDE + STRIDE}. */
  private final long[] retired;
  /** The shared half's permits not out, at {@code STRIDE}, alone on its lines. */
  private final long[] available = new long[3 * STRIDE];
  /** Timer thread only: given back and not yet published, and published so far, per lane. */
  private final long[] retiring;
  private final long[] retiredSoFar;
  /** Timer thread only: permits of the shared half given back and not yet published. */
  private long retiringShared;
  private boolean anyRetiring;
  private final LongAdder throttled = new LongAdder();
  /** Wakes the timer thread if it sleeps, so that it works the backlog off. */
  private final Runnable wake;

  /**
   * A bound of {@code bound} permits over {@code lanes} lanes, a power of two of at most {@link
   * #LANE_MASK}{@code + 1}, with {@code bound >= lanes}: each lane's own part is {@code bound / (2
   * * lanes)}, at least one, and the rest is shared. {@code wake} wakes the timer thread if it
   * sleeps.
   */
  Backlog(long bound, int lanes, Runnable wake) {
    this.wake = wake;
    this.lanes = lanes;
    // At least one per lane: a thread that waits, waits for its lane's ticket.
    this.perLane = Math.max(1, bound / (2L * lanes));
    this.shared = bound - perLane * lanes;
    this.admitted = new long[(lanes + 2) * STRIDE];
    this.retired = new long[(lanes + 2) * STRIDE];
    this.retiring = new long[lanes];
    this.retiredSoFar = new long[lanes];
    COUNTS.setRelease(available, STRIDE, shared);
  }

  /** The most permits out at once: the bound. */
  long capacity() {
    return perLane * lanes + shared;
  }

  /**
   * Takes a permit for a thread of {@code lane} and returns it (the lane, {@link #SHARED} if it
   * came from the shared half, and {@link #WAKE} if the caller is to wake the timer thread once it
   * has queued its request): from the lane's own part if it has one left, else from the
   * shared half, else it takes the lane's next ticket and waits for it, until {@code stopping}
   * says the service stops (a request then goes ahead, to be rejected). Waits in pauses that grow
   * from 50 microseconds to a millisecond, so that many waiting threads leave the processors to the
   * timer thread.
   *
   * <p>An interrupt does not end the wait: none of the methods that wait here throws {@link
   * InterruptedException}, so, as {@link java.util.concurrent.Semaphore#acquireUninterruptibly()}
   * does, the thread goes on waiting and returns with its interrupt status set. The status is
   * cleared while it waits, since a park returns at once while it is set: a thread interrupted
   * before or during the wait would otherwise spin through it.
   */
  int acquire(int lane, BooleanSupplier stopping) {
    int at = lane * STRIDE + STRIDE;
    // Only a look: a ticket once taken must be waited for, so the shared half is tried first.
    if ((long) COUNTS.getOpaque(admitted, at) - given(lane, at) >= perLane) {
      long left = takeShared();
      if (left >= 0) {
        return left == shared >> 1 ? lane | SHARED | WAKE : lane | SHARED;
      }
    }
    long ticket = (long) COUNTS.getAndAdd(admitted, at, 1L);
    long out = ticket - given(lane, at);
    if (out < perLane) {
      return lane;
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
      event.sharedPart = shared;
      event.commit();
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return lane;
  }

  /**
   * Takes a permit of the shared half if it has one, and returns how many that leaves, or -1. The
   * one that leaves half of it out comes with {@link #WAKE}: a timer thread asleep (nothing due
   * soon, cancellations left for later) is woken to apply the requests before anyone has to wait
   * for it, the other half, at least a few hundred microseconds of requests, being left for it to
   * be scheduled in; waking it no earlier lets it apply thousands of requests per wake-up. It is
   * woken once that request is queued, not before, or it might look, find the queue empty and
   * sleep again with the request unseen.
   */
  private long takeShared() {
    long left;
    while ((left = (long) COUNTS.getVolatile(available, STRIDE)) > 0) {
      if (COUNTS.compareAndSet(available, STRIDE, left, left - 1)) {
        return left - 1;
      }
    }
    return -1;
  }

  private long given(int lane, int at) {
    return (long) COUNTS.getAcquire(retired, at) + (long) COUNTS.getVolatile(admitted, at + 1);
  }

  /** Gives back a permit that was taken but not used; any thread. */
  void unused(int permit) {
    if ((permit & SHARED) != 0) {
      COUNTS.getAndAdd(available, STRIDE, 1L);
    } else {
      COUNTS.getAndAdd(admitted, (permit & LANE_MASK) * STRIDE + STRIDE + 1, 1L);
    }
  }

  /** The timer thread gives back {@code permit}; published by {@link #publish()}. */
  void retire(int permit) {
    if ((permit & SHARED) != 0) {
      retiringShared++;
    } else {
      retiring[permit & LANE_MASK]++;
    }
    anyRetiring = true;
  }

  /** Publishes the permits the timer thread gave back since the last call; timer thread only. */
  void publish() {
    if (!anyRetiring) {
      return;
    }
    anyRetiring = false;
    for (int lane = 0; lane < lanes; lane++) {
      if (retiring[lane] != 0) {
        retiredSoFar[lane] += retiring[lane];
        retiring[lane] = 0;
        COUNTS.setRelease(retired, lane * STRIDE + STRIDE, retiredSoFar[lane]);
      }
    }
    if (retiringShared != 0) {
      COUNTS.getAndAdd(available, STRIDE, retiringShared);
      retiringShared = 0;
    }
  }

  /**
   * The permits out now: taken and neither used up nor given back (published); for tests. Exact
   * when producers and the timer thread are quiet.
   */
  long outstanding() {
    long out = shared - (long) COUNTS.getVolatile(available, STRIDE);
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
