package io.github.timerqueue.runtime;

import io.github.timerqueue.TimerHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * A {@link Timeout}: the handle given to the user, the request node sent to the timer thread, and
 * the payload of the timer in the loop's {@link io.github.timerqueue.TimerQueue}, all one object.
 *
 * <p>Its state is one {@code long}, the <em>stamp</em>: the state (pending, expired, cancelled) in
 * the low bits, a {@link #LOCKED} bit that serializes the threads changing the timeout, a {@link
 * #QUEUED} bit that says the entry is in the request queue, and above them a version that every
 * arming increments. Users change the timeout under the lock (a cancel, which writes nothing but
 * the stamp, by one compare-and-set from an unlocked stamp) and then make sure it is queued;
 * however often they change it before the timer thread looks, it is queued once, and the timer
 * thread applies only its latest state. The timer thread never takes the lock, but waits while it
 * is held (a few stores), then fires a timer by a compare-and-set from exactly the stamp it armed:
 * a concurrent cancel or re-arm either happens before the fire (and the fire fails, the change
 * being queued) or after it.
 */
final class TimerEntry extends Request implements Timeout, Runnable {
  static final long PENDING = 0;
  static final long EXPIRED = 1;
  static final long CANCELLED = 2;
  static final long STATE_MASK = 3;
  /** Set while a user thread is changing the timeout. */
  static final long LOCKED = 4;
  /** Set while the entry is in the request queue, or about to be put there. */
  static final long QUEUED = 8;
  /**
   * Set from the exchange that queues the entry until it is in the request queue. The next user
   * thread to change the timeout waits for it, so that whoever relies on {@link #QUEUED} finds the
   * entry in the queue; the timer thread never waits for it.
   */
  static final long OFFERING = 16;
  static final long VERSION_UNIT = 32;
  /** The version and state: what an arming is identified by. */
  static final long ARMING_MASK = ~(LOCKED | QUEUED | OFFERING);

  private static final VarHandle STAMP;
  private static final VarHandle DEADLINE;
  private static final VarHandle PERMIT;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      STAMP = lookup.findVarHandle(TimerEntry.class, "stamp", long.class);
      DEADLINE = lookup.findVarHandle(TimerEntry.class, "deadline", long.class);
      PERMIT = lookup.findVarHandle(TimerEntry.class, "permit", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  final TimerService service;
  final TimerTask task;

  /** Version 0 and cancelled until first armed (set in the constructor). */
  @SuppressWarnings("unused") // accessed through STAMP
  private volatile long stamp;
  /**
   * The latest deadline, in ticker nanoseconds; written under the lock before the new stamp is
   * published, and read by the timer thread between two reads of the stamp.
   */
  @SuppressWarnings("unused") // accessed through DEADLINE
  private long deadline;

  /** The timer in the loop's queue, created when the entry is first armed there; timer thread only. */
  TimerHandle<TimerEntry> slot;
  /** The arming (version and pending state) that {@link #slot} holds; timer thread only. */
  long armedStamp = -1;
  /**
   * The lane of the {@link Backlog} permit that an arming queued since the timer thread last
   * applied the entry took, or -1: set by the thread that arms it, taken by the timer thread.
   */
  @SuppressWarnings("unused") // accessed through PERMIT
  private volatile int permit;
  /** The lane of the permit the entry's due timer holds until it fires, or -1; timer thread only. */
  int heldPermit = -1;

  TimerEntry(TimerService service, TimerTask task) {
    this.service = service;
    this.task = task;
    // Plain stores, where the fields' initializers would each cost a full fence per timeout: the
    // entry reaches other threads through the request queue's exchange, or through whatever the
    // caller publishes the returned handle with, and either orders these stores before it.
    STAMP.set(this, CANCELLED);
    PERMIT.set(this, -1);
  }

  @Override
  public TimerService timer() {
    return service;
  }

  @Override
  public TimerTask task() {
    return task;
  }

  @Override
  public boolean cancel() {
    // A cancel writes nothing but the stamp, so it needs no lock around other stores: one
    // compare-and-set from an unlocked stamp cancels. If the entry is still queued, the timer
    // thread has yet to take it and will see the cancellation when it does; nothing is offered.
    for (int spins = 0; ; spins++) {
      long current = (long) STAMP.getVolatile(this);
      if (state(current) != PENDING) {
        return false;
      }
      long cancelled = (current & ARMING_MASK & ~STATE_MASK) | CANCELLED;
      if ((current & (LOCKED | OFFERING)) != 0) {
        backOff(spins);
      } else if ((current & QUEUED) != 0) {
        if (STAMP.compareAndSet(this, current, cancelled | QUEUED)) {
          break;
        }
      } else if (STAMP.compareAndSet(this, current, cancelled | QUEUED | OFFERING)) {
        offerQueued();
        break;
      }
    }
    service.cancelled(this);
    return true;
  }

  @Override
  public boolean reschedule(long delay, TimeUnit unit) {
    Objects.requireNonNull(unit, "unit");
    long deadline = service.deadlineAfter(delay, unit);
    return rearmAt(deadline, service.loop.permitFor(unit.toNanos(delay)));
  }

  @Override
  public boolean isPending() {
    return state((long) STAMP.getVolatile(this)) == PENDING;
  }

  @Override
  public boolean isExpired() {
    return state((long) STAMP.getVolatile(this)) == EXPIRED;
  }

  @Override
  public boolean isCancelled() {
    return state((long) STAMP.getVolatile(this)) == CANCELLED;
  }

  /**
   * Runs the task, unless {@link TimerService#stop()} took it back first; the service hands the
   * entry to its task executor as a {@link Runnable}.
   */
  @Override
  public void run() {
    service.loop.runHandedOff(this);
  }

  @Override
  public String toString() {
    long current = (long) STAMP.getVolatile(this);
    String state = state(current) == PENDING ? "pending"
        : state(current) == EXPIRED ? "expired" : "cancelled";
    return "Timeout{" + state + ", deadline=" + deadline() + ", task=" + task + "}";
  }

  /** The latest deadline this timeout was armed with, in ticker nanoseconds. */
  long deadline() {
    return (long) DEADLINE.getAcquire(this);
  }

  /** Whether this entry was never armed. */
  boolean neverArmed() {
    return ((long) STAMP.getVolatile(this) & ~(VERSION_UNIT - 1)) == 0;
  }

  /**
   * Arms an entry that no other thread can see yet; the caller then returns it. {@code permit} is
   * the backlog permit the calling thread took for it ({@link TimerLoop#permitFor}), which goes
   * with the request, or -1.
   */
  void armFirst(long deadline, int permit) {
    try {
      service.admit(false);
    } catch (RejectedExecutionException e) {
      service.loop.unusedPermit(permit);
      throw e;
    }
    DEADLINE.set(this, deadline);
    PERMIT.set(this, permit);
    long arming = VERSION_UNIT | PENDING;
    // No other thread sees the entry before the offer, whose exchange publishes these stores and
    // orders the reads of the service's state that follow it: a release store is enough.
    STAMP.setRelease(this, arming | QUEUED);
    service.loop.offer(this);
    service.armed(this, arming, deadline, false);
  }

  /**
   * Arms this entry at {@code deadline}; returns whether it was pending before. {@code permit} is
   * the backlog permit the calling thread took for it ({@link TimerLoop#permitFor}), or -1 if it
   * took none (the timer thread, or a periodic task re-arming itself).
   */
  boolean rearmAt(long deadline, int permit) {
    long before = lock();
    boolean wasPending = state(before) == PENDING;
    try {
      service.admit(wasPending);
    } catch (RejectedExecutionException e) {
      unlockTo(before & ARMING_MASK);
      service.loop.unusedPermit(permit);
      throw e;
    }
    DEADLINE.setOpaque(this, deadline);
    long arming = ((before & ARMING_MASK & ~STATE_MASK) + VERSION_UNIT) | PENDING;
    if (permit >= 0) {
      attachPermit(permit);
    }
    publish(before, arming);
    service.armed(this, arming, deadline, wasPending);
    return wasPending;
  }

  /**
   * Takes a pending timeout out of service for good, for {@link TimerService#stop()}; returns
   * whether it was pending. The entry is not queued again.
   */
  boolean takeUnrun() {
    long before = lock();
    if (state(before) != PENDING) {
      unlockTo(before & ARMING_MASK);
      return false;
    }
    unlockTo((before & ARMING_MASK & ~STATE_MASK) | CANCELLED);
    return true;
  }

  /**
   * Marks an expired timeout whose task was handed to the task executor but never started as
   * cancelled, for {@link TimerService#stop()}; returns whether it was still expired (not re-armed
   * or taken since).
   */
  boolean takeBack() {
    long before = lock();
    if (state(before) != EXPIRED) {
      unlockTo(before & ARMING_MASK);
      return false;
    }
    unlockTo((before & ARMING_MASK & ~STATE_MASK) | CANCELLED);
    return true;
  }

  /**
   * Withdraws {@code arming} if it is still this entry's pending arming: used when the service
   * stopped while it was being armed. Returns whether it was withdrawn.
   */
  boolean revoke(long arming) {
    long before = lock();
    if ((before & ARMING_MASK) != arming) {
      unlockTo(before & ARMING_MASK);
      return false;
    }
    unlockTo((before & ARMING_MASK & ~STATE_MASK) | CANCELLED);
    return true;
  }

  // ---- timer thread ----

  @Override
  void process(TimerLoop loop) {
    loop.apply(this);
  }

  /**
   * Attaches a backlog permit to the arming being made (under the lock). If an arming not yet
   * applied holds one already, the entry is queued once and counted once: this thread's permit is
   * given back, and the held one takes this arming's due-ness, since the latest arming is the one
   * the timer thread applies.
   */
  private void attachPermit(int permit) {
    while (true) {
      int attached = (int) PERMIT.getVolatile(this);
      int next = attached < 0
          ? permit
          : (attached & TimerLoop.LANE_MASK) | (permit & TimerLoop.DUE_PERMIT);
      if (PERMIT.compareAndSet(this, attached, next)) {
        if (attached >= 0) {
          service.loop.unusedPermit(permit);
        }
        return;
      }
    }
  }

  /** Takes the permit of the armings queued since the last call, or -1; timer thread only. */
  int takePermit() {
    return (int) PERMIT.getAndSet(this, -1);
  }

  /**
   * Clears the queued bit and returns the stamp as it was; the timer thread calls this when it
   * takes the entry from the request queue, before it looks at the state, so that any later change
   * queues the entry again.
   */
  long dequeued() {
    return (long) STAMP.getAndBitwiseAnd(this, ~QUEUED);
  }

  /** Re-reads the stamp; the timer thread uses it to check that a deadline it read is current. */
  long stamp() {
    return (long) STAMP.getVolatile(this);
  }

  /**
   * Returns the stamp once no user thread holds the lock. The timer thread waits rather than
   * skipping the entry, so that an entry is never left between the queue and the request queue.
   */
  long unlockedStamp() {
    for (int spins = 0; ; spins++) {
      long current = (long) STAMP.getVolatile(this);
      if ((current & LOCKED) == 0) {
        return current;
      }
      backOff(spins);
    }
  }

  /**
   * Marks the entry expired if it is still armed as {@link #armedStamp}; returns whether it did, in
   * which case the caller runs the task.
   */
  boolean tryExpire() {
    while (true) {
      long current = unlockedStamp();
      if ((current & ARMING_MASK) != armedStamp) {
        return false;
      }
      if (STAMP.compareAndSet(this, current, (current & ~STATE_MASK) | EXPIRED)) {
        return true;
      }
    }
  }

  static long state(long stamp) {
    return stamp & STATE_MASK;
  }

  // ---- the per-entry lock, held only for a few stores ----

  private long lock() {
    for (int spins = 0; ; spins++) {
      long current = (long) STAMP.getVolatile(this);
      if ((current & (LOCKED | OFFERING)) == 0) {
        if (STAMP.compareAndSet(this, current, current | LOCKED)) {
          return current;
        }
      } else {
        backOff(spins);
      }
    }
  }

  private static void backOff(int spins) {
    if (spins < 100) {
      Thread.onSpinWait();
    } else {
      Thread.yield(); // the holder may have been descheduled
    }
  }

  /**
   * Unlocks with a new arming or state and makes sure the timer thread will look at it. Only the
   * lock holder sets bits other than {@link #QUEUED}, and the timer thread only clears that one, so
   * an exchange is enough: if the old value was still queued, the timer thread has yet to take the
   * entry and will see the new state when it does.
   *
   * <p>{@link #OFFERING} stays set until the entry is in the request queue. The next thread to
   * change the timeout sees it queued and relies on that; without the bit, it could do so while the
   * entry was still on its way, and a {@code stop} in between would sweep the queue without it and
   * leave the timeout pending, neither run nor returned.
   */
  private void publish(long locked, long next) {
    // Queued when this thread locked it: unless the timer thread has taken the entry since (it
    // only ever clears QUEUED), one compare-and-set from that very stamp unlocks it still queued,
    // and nothing need be offered: one atomic operation instead of two.
    if ((locked & QUEUED) != 0 && STAMP.compareAndSet(this, locked | LOCKED, next | QUEUED)) {
      return;
    }
    long previous = (long) STAMP.getAndSet(this, next | QUEUED | OFFERING);
    if ((previous & QUEUED) == 0) {
      offerQueued();
    } else {
      STAMP.getAndBitwiseAnd(this, ~OFFERING);
    }
  }

  /** Puts the entry, marked queued and offering, in the request queue, and ends the offering. */
  private void offerQueued() {
    service.loop.offer(this);
    STAMP.getAndBitwiseAnd(this, ~OFFERING);
  }

  /**
   * Unlocks with {@code next} without queueing the entry, keeping the queued bit as it is now: an
   * entry that is in the request queue must stay marked, or it could be queued twice.
   */
  private void unlockTo(long next) {
    while (true) {
      long current = (long) STAMP.getVolatile(this);
      if (STAMP.compareAndSet(this, current, next | (current & QUEUED))) {
        return;
      }
    }
  }
}
