package io.github.timerqueue.runtime;

import io.github.timerqueue.TimerHandle;
import io.github.timerqueue.TimerQueue;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The timer thread's side of a {@link TimerService}: it alone touches the {@link TimerQueue}. Each
 * turn it applies the requests other threads queued, advances the queue to the ticker's time,
 * hands out the timers that are due, and works out how long it may sleep.
 *
 * <h2>Sleeping and waking</h2>
 * The thread sleeps ({@link LockSupport#parkNanos}) until the time {@link
 * TimerQueue#nextExpiryDelay()} gives, or indefinitely when the queue is empty. Before it sleeps
 * it publishes that time ({@code wakeAt}) and a {@code sleeping} flag, then marks the requests
 * queued by then and applies them ({@link RequestQueue#mark}). A producer queues its request, then
 * reads the flag: if the thread is asleep and the new deadline (rounded up to the resolution) is
 * before {@code wakeAt}, it lowers {@code wakeAt} by compare-and-set and unparks the thread; only
 * the producer whose compare-and-set succeeds unparks it. Both sides write before they read, with
 * volatile accesses, so either the thread marks the request or the producer sees the flag: no
 * wake-up is lost, and a request that does not make an earlier deadline never wakes the thread.
 *
 * <p>So the thread sleeps although requests may have come after its mark: those that need it
 * wake it (an earlier deadline, a full {@link Backlog} lane, the first cancellation below), and
 * the others wait for its next turn. It does not chase a producer that sends requests steadily,
 * taking each one just after it was sent, in a turn of its own, while both threads pass the
 * request's cache lines back and forth; it takes them in batches, each a turn's gathering.
 *
 * <h2>Cancellations</h2>
 * A cancellation makes no deadline earlier, but its entry stays referenced by the request queue
 * until the thread looks, so a stream of short-lived timeouts would pile up while the thread
 * sleeps. The first cancellation after a quiet period therefore wakes the thread at once, unless
 * it wakes within {@value #SWEEP_INTERVAL_MILLIS} milliseconds anyway; for that long after it
 * wakes, cancellations do not wake it, and at the end of that interval it wakes once to take them.
 * A service that cancels steadily wakes at most twice per interval for it; an idle one never.
 */
final class TimerLoop {
  static final long SWEEP_INTERVAL_MILLIS = 10;
  private static final long SWEEP_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(SWEEP_INTERVAL_MILLIS);
  /**
   * Most requests applied per turn, so that a flood of requests cannot hold back expiries; the same
   * as {@link #FIRE_BATCH}, so that while both are backed up, timers fire at least as fast as
   * requests are applied.
   */
  static final int REQUEST_BATCH = 1 << 12;
  /**
   * In a permit ({@link TimerEntry}'s, see {@link #permitFor}): the arming is due, or nearly, so
   * its timer keeps the permit until it fires. The low bits are the lane.
   */
  static final int DUE_PERMIT = 1 << 16;
  static final int LANE_MASK = DUE_PERMIT - 1;
  /** The least delay past which an arming does not count as due; see {@link #dueHorizon}. */
  static final long DUE_HORIZON_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
  /** In {@link #handedOff}: handed to the task executor, not started. */
  private static final Object WAITING = new Object();
  /** Most timers fired per turn, so that requests (cancellations) are applied in between. */
  static final int FIRE_BATCH = 1 << 12;
  /** How often a stopping thread looks again whether it can sweep; see {@link #awaitSweep}. */
  private static final long SWEEP_POLL_NANOS = TimeUnit.MICROSECONDS.toNanos(20);

  /**
   * How far ahead {@code wakeAt} may be: half the range of a {@code long}, like the longest delay
   * ({@link TimerService#MAX_DELAY_NANOS}), so that producers can compare any deadline (past ones
   * included) with it by subtraction without overflow. Sleeping indefinitely publishes this far.
   */
  private static final long HORIZON_NANOS = Long.MAX_VALUE >>> 1;

  private static final int WORKING = 0;
  private static final int IN_TASK = 1;
  private static final int LENT = 2;

  private static final VarHandle WAKE_AT;
  private static final VarHandle PHASE = MethodHandles.arrayElementVarHandle(int[].class);
  private static final int PHASE_INDEX = 16;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      WAKE_AT = lookup.findVarHandle(TimerLoop.class, "wakeAt", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final TimerService service;
  private final Ticker ticker;
  private final TimerQueue<TimerEntry> queue;
  private final long startTime;
  private final long resolution;
  private final Executor taskExecutor;
  private final RequestQueue requests =
      new RequestQueue(RequestQueue.lanesFor(Runtime.getRuntime().availableProcessors()));
  private final Consumer<TimerHandle<TimerEntry>> fire = this::fire;
  private final Backlog backlog;
  private final BooleanSupplier stopping;
  /**
   * The longest delay with which an arming counts as due: the resolution, and at least {@link
   * #DUE_HORIZON_NANOS}, since a strategy fires a timer up to a resolution after its deadline and
   * the timer thread applies the arming a little after it was asked for.
   */
  private final long dueHorizon;
  /**
   * With a task executor, the tasks handed to it that have not finished: {@link #WAITING} until
   * one starts, then the thread running it. {@link #sweep()} takes the waiting ones back, so that
   * {@code stop} returns them and they never run, and {@link #interruptRunningTasks()} reaches the
   * running ones. {@code null} without a task executor.
   */
  private final ConcurrentHashMap<TimerEntry, Object> handedOff;
  /**
   * The timer thread, or {@code null} when a test drives the loop with {@link #turn()}; set once,
   * before the thread starts, and volatile so that producers see it however the service was shared.
   */
  private volatile Thread thread;

  // Shared with producers.
  private volatile boolean sleeping;
  /** The time the thread will wake up by, while {@link #sleeping}; lowered by producers. */
  @SuppressWarnings("unused") // accessed through WAKE_AT
  private volatile long wakeAt;
  private volatile boolean sweepRequested;
  private final AtomicLong wakeSignals = new AtomicLong();
  private volatile long wakeups;

  // Timer thread only.
  private boolean coolingDown;
  private long cooldownEnd;
  /** Set by whichever thread sweeps; see {@link #sweep()}. */
  private volatile boolean swept;
  /**
   * Where the timer thread is, for {@link #awaitSweep()}: {@link #WORKING} on the queue, {@link
   * #IN_TASK} running a task or handing one over (the queue untouched), {@link #LENT} while a
   * stopping thread sweeps the queue during such a task. At {@link #PHASE_INDEX}, alone on its
   * cache line: the timer thread writes it twice per fired timer, and beside the fields producers
   * read on every request it would take their line away from them each time.
   */
  private final int[] phase = new int[2 * PHASE_INDEX];
  /** Due timers the loop met after {@code stop} began and before the sweep; timer thread only. */
  private final List<TimerEntry> strays = new ArrayList<>();
  /** Timers met after the sweep, taken out of service for {@link #takeLeftovers()}. */
  private final List<Timeout> leftovers = new ArrayList<>();
  /** What the sweep at the thread's end took, until someone takes it; see {@link #takeUnrun()}. */
  private final AtomicReference<List<Timeout>> unrun = new AtomicReference<>(List.of());

  TimerLoop(
      TimerService service, Ticker ticker, TimerQueue<TimerEntry> queue, long resolution,
      Executor taskExecutor, long maxBacklog) {
    this.service = service;
    this.ticker = ticker;
    this.queue = queue;
    this.startTime = queue.now();
    this.resolution = resolution;
    this.taskExecutor = taskExecutor;
    this.handedOff = taskExecutor == null ? null : new ConcurrentHashMap<>();
    this.backlog = new Backlog(maxBacklog, requests.lanes(), this::wakeNow);
    this.stopping = () -> service.stopping;
    this.dueHorizon = Math.max(resolution, DUE_HORIZON_NANOS);
  }

  void bind(Thread thread) {
    this.thread = thread;
  }

  Thread thread() {
    return thread;
  }

  boolean onLoopThread() {
    return thread == null || Thread.currentThread() == thread;
  }

  // ---- producers ----

  void offer(Request request) {
    requests.offer(request);
  }

  /**
   * Wakes the thread if it sleeps past the time by which a timer at {@code deadline} must fire:
   * the deadline rounded up to the resolution, as the queue's bounded lateness allows.
   */
  void wakeIfBefore(long deadline) {
    if (!sleeping) {
      return; // awake: it looks at the request queue before it sleeps again
    }
    if (deadline - (long) WAKE_AT.getVolatile(this) >= 0) {
      return; // rounding up only moves it later: spares the common case a division
    }
    long due = roundUp(deadline);
    long current;
    while (due - (current = (long) WAKE_AT.getVolatile(this)) < 0) {
      if (WAKE_AT.compareAndSet(this, current, due)) {
        signal();
        return;
      }
    }
  }

  /**
   * Takes a {@link Backlog} permit for an arming by the calling thread, waiting while its lane has
   * none; see {@link TimerService}'s "Back-pressure". Without this, threads that schedule faster
   * than one thread can apply their requests and fire their timers would grow the backlog without
   * bound, and every timeout behind it would run late by all of it. The timer thread itself, and a
   * task running on it, takes none and never waits: it is the one that catches up.
   */
  void acquirePermit() {
    if (!onLoopThread()) {
      backlog.acquire(requests.laneOf(Thread.currentThread()), stopping);
    }
  }

  /**
   * The permit {@link #acquirePermit()} took on this thread for an arming {@code delayNanos} ahead,
   * or -1 if it took none: the lane, and {@link #DUE_PERMIT} if the arming counts as due, which
   * the arming thread decides so that the timer thread needs no clock to tell.
   */
  int permitFor(long delayNanos) {
    if (onLoopThread()) {
      return -1;
    }
    int lane = requests.laneOf(Thread.currentThread());
    return delayNanos <= dueHorizon ? lane | DUE_PERMIT : lane;
  }

  /** Gives back a permit that was taken but not used: the arming was rejected or not queued. */
  void unusedPermit(int permit) {
    if (permit >= 0) {
      backlog.unused(permit & LANE_MASK);
    }
  }

  /** Asks for the cancelled entries in the request queue to be taken soon; see the class doc. */
  void requestSweep() {
    if (!sweepRequested) {
      sweepRequested = true;
      if (sleeping && (long) WAKE_AT.getVolatile(this) - ticker.read() > SWEEP_INTERVAL_NANOS) {
        signal();
      }
    }
  }

  /** Wakes the thread now if it sleeps, for a control request. */
  void wakeNow() {
    if (sleeping) {
      signal();
    }
  }

  private void signal() {
    wakeSignals.incrementAndGet();
    LockSupport.unpark(thread);
  }

  private long roundUp(long deadline) {
    if (resolution == 1) {
      return deadline;
    }
    long pastBoundary = Long.remainderUnsigned(deadline - startTime, resolution);
    return pastBoundary == 0 ? deadline : deadline + (resolution - pastBoundary);
  }

  /** How many times a producer unparked the thread; for tests. */
  long wakeSignals() {
    return wakeSignals.get();
  }

  long wakeups() {
    return wakeups;
  }

  long throttled() {
    return backlog.throttled();
  }

  /** The permits of the backlog out now; for tests. */
  long backlogPermits() {
    return backlog.outstanding();
  }

  // ---- the timer thread ----

  /** The timer thread's body. */
  void run() {
    try {
      while (!service.stopping) {
        long sleep = turn();
        // A task, or shutdownNow, may have interrupted this thread; that must not end its sleeps.
        Thread.interrupted();
        if (sleep == 0) {
          continue;
        }
        if (sleep == Long.MAX_VALUE) {
          LockSupport.park(this);
        } else {
          LockSupport.parkNanos(this, sleep);
        }
        wakeups++;
      }
    } catch (Throwable failure) {
      // A bug, a failing ticker or an exhausted heap in the loop itself, never a task's exception:
      // stop the service so that nothing more is accepted that could never run. The sweep below
      // hands out what never ran (the executor fails their futures); then the handler is told.
      service.failed(failure);
    } finally {
      sleeping = false;
      try {
        if (!swept) {
          sweep();
        }
      } catch (Throwable failure) {
        service.report(failure);
      } finally {
        Throwable failure = service.failure();
        if (failure != null) {
          service.report(failure);
        }
        service.loopEnded();
      }
    }
  }

  /**
   * Runs one turn: applies queued requests, fires what is due at the ticker's time, and publishes
   * how long the thread will sleep.
   *
   * @return nanoseconds to sleep, {@link Long#MAX_VALUE} to sleep until woken, or 0 to turn again
   */
  long turn() {
    sleeping = false;
    int applied = processRequests(REQUEST_BATCH);
    long now = ticker.read();
    if (sweepRequested) {
      if (!coolingDown) {
        coolingDown = true;
        cooldownEnd = now + SWEEP_INTERVAL_NANOS;
      } else if (now - cooldownEnd >= 0) {
        coolingDown = false;
        // Producers that saw the flag set did not wake us; the emptiness check before sleeping
        // finds their requests.
        sweepRequested = false;
      }
    }
    queue.advance(now, fire, FIRE_BATCH);
    backlog.publish();
    return prepareToSleep(REQUEST_BATCH - applied);
  }

  /**
   * Applies the requests queued now, at most {@code most} of them, but none sent while it runs
   * (see {@link RequestQueue#mark}); returns how many it applied.
   */
  private int processRequests(int most) {
    requests.mark();
    int applied = 0;
    while (applied < most) {
      Request request = requests.pollMarked();
      if (request == null) {
        break;
      }
      request.process(this);
      applied++;
    }
    backlog.publish();
    return applied;
  }

  /**
   * Brings the queue in line with the entry's latest state. The queued bit is cleared first, so
   * that a change made from then on queues the entry again.
   */
  void apply(TimerEntry entry) {
    entry.dequeued();
    // Before the stamp: a permit attached later comes with a change that queues the entry again.
    int permit = entry.takePermit();
    boolean pending = applyState(entry);
    int held = entry.heldPermit;
    if (pending && permit >= 0 && (permit & DUE_PERMIT) != 0) {
      // Armed due by another thread: one permit stays out until the timer fires or leaves.
      if (held < 0) {
        entry.heldPermit = permit & LANE_MASK;
      } else {
        backlog.retire(permit & LANE_MASK);
      }
      return;
    }
    if (held >= 0) {
      backlog.retire(held);
      entry.heldPermit = -1;
    }
    if (permit >= 0) {
      backlog.retire(permit & LANE_MASK);
    }
  }

  /** Brings the queue in line with the entry's latest state; returns whether it is pending. */
  private boolean applyState(TimerEntry entry) {
    while (true) {
      long stamp = entry.unlockedStamp() & TimerEntry.ARMING_MASK;
      TimerHandle<TimerEntry> slot = entry.slot;
      if (TimerEntry.state(stamp) != TimerEntry.PENDING) {
        if (slot != null && slot.isPending()) {
          queue.cancel(slot);
        }
        return false;
      }
      if (stamp == entry.armedStamp) {
        return true; // armed as it is already
      }
      long deadline = entry.deadline();
      if ((entry.stamp() & TimerEntry.ARMING_MASK) != stamp) {
        continue; // changed while we read the deadline, which may belong to the change
      }
      if (slot == null) {
        entry.slot = queue.schedule(deadline, entry);
      } else {
        queue.reschedule(slot, deadline);
      }
      entry.armedStamp = stamp;
      return true;
    }
  }

  private void fire(TimerHandle<TimerEntry> slot) {
    TimerEntry entry = slot.payload();
    int held = entry.heldPermit;
    if (held >= 0) {
      backlog.retire(held); // the timer leaves the queue, whatever happens to its task
      entry.heldPermit = -1;
    }
    if (service.stopping) {
      stray(entry);
      return;
    }
    if (!entry.tryExpire()) {
      return; // cancelled or re-armed since it was armed; that change is queued
    }
    service.fired();
    if (taskExecutor == null) {
      enterTask();
      try {
        service.runTask(entry);
      } finally {
        leaveTask();
      }
      if (thread != null) {
        Thread.interrupted(); // an interrupt meant for this task must not reach the next one
      }
    } else {
      handedOff.put(entry, WAITING);
      enterTask(); // execute may block, or run the task here (a caller-runs policy)
      try {
        taskExecutor.execute(entry);
      } catch (Throwable rejected) {
        if (handedOff.remove(entry, WAITING)) { // else stop took it back: it is in stop's list
          service.handOffFailed(entry, rejected);
        }
      } finally {
        leaveTask();
      }
    }
  }

  /**
   * A due timer met once stopping: it does not start, and the sweep returns it. One met after the
   * sweep (a strategy whose {@code forEach} did not show the timers of the advance running while
   * another thread swept) is taken out of service for {@link #takeLeftovers()}, so that no future
   * waits for it.
   */
  private void stray(TimerEntry entry) {
    if (!swept) {
      strays.add(entry);
    } else if (entry.takeUnrun()) {
      service.unrun();
      leftovers.add(entry);
    }
  }

  /** The timer thread starts running user code: the queue may be lent to a stopping thread. */
  private void enterTask() {
    PHASE.setRelease(phase, PHASE_INDEX, IN_TASK);
  }

  /** The timer thread is back from user code: takes the queue back, waiting if it is lent. */
  private void leaveTask() {
    while (!PHASE.compareAndSet(phase, PHASE_INDEX, IN_TASK, WORKING)) {
      LockSupport.park(this); // lent: the borrower gives it back and unparks this thread
    }
  }

  /**
   * Runs {@code action}, which touches the queue, on the timer thread: from a task, the queue is
   * taken back first (a stopping thread may be sweeping it) and lent again afterwards.
   */
  private void onQueue(Runnable action) {
    if ((int) PHASE.getVolatile(phase, PHASE_INDEX) == WORKING) {
      action.run();
      return;
    }
    leaveTask();
    try {
      action.run();
    } finally {
      enterTask();
    }
  }

  /**
   * Works out how long the thread may sleep and publishes it, applying first the requests queued
   * by then, at most {@code most} of them (what is left of the turn's {@link #REQUEST_BATCH}).
   */
  private long prepareToSleep(int most) {
    long delay = queue.nextExpiryDelay();
    if (delay == 0) {
      return 0;
    }
    boolean bounded = delay != Long.MAX_VALUE;
    long wake = nextExpiryAfter(delay);
    if (coolingDown && (!bounded || cooldownEnd - wake < 0)) {
      wake = cooldownEnd;
      bounded = true;
    }
    long now = ticker.read();
    long sleep;
    if (bounded) {
      sleep = wake - now;
      if (sleep <= 0) {
        return 0;
      }
    } else {
      wake = now + HORIZON_NANOS;
      sleep = Long.MAX_VALUE;
    }
    WAKE_AT.setVolatile(this, wake);
    sleeping = true;
    // The requests queued before the flag went up: their senders may have seen it down and so
    // left them to this thread without a wake-up. Those sent from now on wake it if they must.
    boolean applied = processRequests(most) != 0;
    if (requests.anyMarked() || service.stopping || applied && madeEarlier(bounded, wake)) {
      sleeping = false;
      return 0;
    }
    return sleep;
  }

  /**
   * Whether the queue's next timer is now due before {@code wake}, or at all if {@code bounded}
   * is false: requests applied after the thread worked out its sleep may have armed one.
   */
  private boolean madeEarlier(boolean bounded, long wake) {
    long delay = queue.nextExpiryDelay();
    return delay != Long.MAX_VALUE && (!bounded || nextExpiryAfter(delay) - wake < 0);
  }

  /** When the queue's next timer expires, {@code delay} from its time, at most the horizon. */
  private long nextExpiryAfter(long delay) {
    return queue.now() + Math.min(delay, HORIZON_NANOS);
  }

  /**
   * Takes every pending timeout out of service, and the tasks handed to the task executor that
   * have not started, for {@link #takeUnrun()}; called once, after {@link TimerService#stopping}
   * is set, by the timer thread or by a thread the queue is lent to ({@link #awaitSweep}).
   * Entries armed concurrently are either found here (their request was queued before the flag
   * was set) or withdrawn by their producer, which reads the flag after queueing: never both,
   * because both take the entry's lock.
   */
  private void sweep() {
    List<TimerEntry> candidates = new ArrayList<>(strays);
    strays.clear();
    queue.forEach(slot -> candidates.add(slot.payload()));
    requests.drain(request -> {
      if (request instanceof TimerEntry) {
        candidates.add((TimerEntry) request);
      }
    });
    List<Timeout> taken = new ArrayList<>();
    for (TimerEntry entry : candidates) {
      if (entry.takeUnrun()) {
        service.unrun();
        taken.add(entry);
      }
    }
    if (handedOff != null) {
      for (TimerEntry entry : handedOff.keySet()) {
        // Claimed here, it never starts (runHandedOff finds it gone); one re-armed since its
        // hand-off was taken above as pending, and is not listed twice.
        if (handedOff.remove(entry, WAITING) && entry.takeBack()) {
          taken.add(entry);
        }
      }
    }
    unrun.set(taken);
    swept = true;
  }

  /**
   * Runs a task the task executor took, unless {@link #sweep()} took it back first; the runner is
   * recorded meanwhile, so that {@link #interruptRunningTasks()} reaches it.
   */
  void runHandedOff(TimerEntry entry) {
    if (handedOff == null) {
      service.runTask(entry);
      return;
    }
    Thread runner = Thread.currentThread();
    // Once stopping, a task that has not started never does: stop takes it back (or has).
    if (service.stopping || !handedOff.replace(entry, WAITING, runner)) {
      return;
    }
    try {
      service.runTask(entry);
    } finally {
      // Unless the task re-armed itself and was handed over again meanwhile (WAITING again).
      handedOff.remove(entry, runner);
    }
  }

  /** Whether the calling thread runs one of this service's tasks for the task executor. */
  boolean runsHandedOffTask() {
    return handedOff != null && handedOff.containsValue(Thread.currentThread());
  }

  /**
   * Interrupts the threads running tasks: the timer thread (harmless if it runs none: it clears
   * the interrupt before it sleeps) and the task executor's threads running this service's tasks.
   */
  void interruptRunningTasks() {
    Thread timerThread = thread;
    if (timerThread != null) {
      timerThread.interrupt();
    }
    if (handedOff != null) {
      for (Object runner : handedOff.values()) {
        if (runner instanceof Thread) {
          ((Thread) runner).interrupt();
        }
      }
    }
  }

  /**
   * Sweeps now, on the timer thread (from a task, or for a manual loop), unless it was done; the
   * result is then in {@link #takeUnrun()}.
   */
  void sweepHere() {
    onQueue(() -> {
      if (!swept) {
        sweep();
      }
    });
  }

  /**
   * Waits, on a thread other than the timer thread, after {@link TimerService#stopping} is set,
   * until the sweep is made, but never for a task: while the timer thread runs one (and so leaves
   * the queue alone), this thread borrows the queue and sweeps it itself. Otherwise the timer
   * thread is on the loop's own code, which ends its turn, sees the flag and sweeps, or enters a
   * task, for which no more than that is waited.
   */
  void awaitSweep() {
    LockSupport.unpark(thread);
    for (int spins = 0; !swept; spins++) {
      if ((int) PHASE.getVolatile(phase, PHASE_INDEX) == IN_TASK
          && PHASE.compareAndSet(phase, PHASE_INDEX, IN_TASK, LENT)) {
        try {
          if (!swept) {
            sweep();
          }
        } finally {
          PHASE.setVolatile(phase, PHASE_INDEX, IN_TASK);
          LockSupport.unpark(thread);
        }
        return;
      }
      if (!thread.isAlive()) {
        return; // ended without a sweep: it failed in it, and the handler was told
      }
      if (spins < 100) {
        Thread.onSpinWait();
      } else {
        LockSupport.parkNanos(this, SWEEP_POLL_NANOS);
      }
    }
  }

  /**
   * Takes what the sweep took, once: the first caller gets the list, the others an empty one.
   */
  List<Timeout> takeUnrun() {
    return unrun.getAndSet(List.of());
  }

  /**
   * Takes the timers the loop met after the sweep (see {@link #stray}); read once the timer thread
   * has ended.
   */
  List<Timeout> takeLeftovers() {
    List<Timeout> taken = new ArrayList<>(leftovers);
    leftovers.clear();
    return taken;
  }

  /** How many timers the queue holds, cancelled ones not yet removed included; for tests. */
  int queuedTimers() {
    return queue.size();
  }
}
