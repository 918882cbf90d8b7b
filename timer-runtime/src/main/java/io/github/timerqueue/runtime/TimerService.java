package io.github.timerqueue.runtime;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerQueue;
import io.github.timerqueue.TimerQueues;
import io.github.timerqueue.trace.RecordingTimerQueue;
import io.github.timerqueue.trace.TraceRecorder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * A thread-safe timer on a real clock: any thread schedules, cancels and re-arms timeouts, and one
 * timer thread runs their tasks when they are due. The data structure that orders the timeouts is
 * any {@link TimerQueue} strategy, chosen by name ({@link TimerQueues#strategies()}).
 *
 * <pre>{@code
 * TimerService timers = TimerService.builder()
 *     .strategy("wheel")
 *     .resolution(Duration.ofMillis(1))
 *     .build();
 * Timeout idle = timers.newTimeout(t -> connection.close(), 30, TimeUnit.SECONDS);
 * ...
 * idle.reschedule(30, TimeUnit.SECONDS);   // on activity: same handle, nothing allocated
 * ...
 * idle.cancel();
 * timers.stop();
 * }</pre>
 *
 * <h2>Design</h2>
 * The timer thread alone owns the {@link TimerQueue}, which is single-threaded by contract. Other
 * threads never touch it: {@code newTimeout}, {@link Timeout#cancel() cancel} and {@link
 * Timeout#reschedule reschedule} change the state of the timeout handle and put the handle itself
 * on a lock-free multi-producer, single-consumer queue of requests, so a request allocates nothing
 * beyond the handle, and a handle changed many times before the thread looks is queued once. The
 * queue has lanes, several per processor, and a thread sends to the lane of its id, so threads
 * sending at the same time on different cores do not contend for one end of one queue. The
 * thread applies the requests, advances the queue to the {@linkplain Builder#ticker ticker}'s time,
 * runs what is due, and then sleeps exactly until {@link TimerQueue#nextExpiryDelay()} says the
 * next timer may be due, or indefinitely when there is none. A request wakes it early only if its
 * deadline, rounded up to the resolution, comes before that; an idle service does not wake at
 * all. A cancelled or re-armed timeout whose old deadline is being reached at the same moment
 * either expires first or not at all: its task never runs for a deadline it no longer has.
 *
 * <h2>Costs</h2>
 * Scheduling, cancelling and re-arming cost the calling thread a few atomic operations on the
 * handle and one atomic exchange on the request queue (none for a cancel or re-arm of a timeout
 * the timer thread has not yet taken), scheduling and re-arming one atomic increment of its lane's
 * backlog count (see "Back-pressure"), plus an unpark when the thread must wake early; none takes
 * a lock shared with other timeouts. The timer thread pays the strategy's cost
 * of each operation ({@code O(1)} for the timing wheels, {@code O(log n)} for {@code heap}).
 *
 * <h2>Back-pressure</h2>
 * One thread applies every other thread's requests and fires every timer. Threads that schedule
 * faster than it can do both would otherwise grow its backlog without bound (the queued requests,
 * and the timers due and not yet fired), and a timeout behind that backlog would run late by all of
 * it. So the backlog is bounded ({@link Builder#maxBacklog}, default {@value #DEFAULT_MAX_BACKLOG}
 * requests and due timers): while it is full, {@code newTimeout} and {@code reschedule} on other
 * threads wait, sleeping in pauses that grow from 50 microseconds to a millisecond, until the timer
 * thread has worked some of it off. Nothing is dropped, and a timer due behind a full backlog runs
 * late by the time the timer thread takes to work through it. The timer thread applies at most
 * {@value TimerLoop#REQUEST_BATCH} requests and fires at most {@value TimerLoop#FIRE_BATCH}
 * timers between two looks at the clock, so neither starves the other. A caller that is not
 * scheduling faster than the thread works never waits; taking its place in the backlog costs it one
 * atomic increment on a counter its lane of threads shares and one read of a count the timer
 * thread updates once per turn. The timer thread, and tasks on it, never wait (so a task that
 * blocks on the timer thread holds up every caller once the backlog is full); nor does a
 * cancellation. {@link TimerStats#throttled()} counts the calls that waited.
 * An interrupt does not end the wait (none of these methods throws {@link InterruptedException}):
 * as {@link java.util.concurrent.Semaphore#acquireUninterruptibly()} does, the caller goes on
 * waiting and returns with its interrupt status set.
 *
 * <h2>Where tasks run</h2>
 * By default tasks run on the timer thread itself. That costs nothing extra per task, but while a
 * task runs no other timeout fires and no request is applied: a task that blocks or takes long
 * makes every other timeout late by as much. Give the builder an {@linkplain Builder#taskExecutor
 * executor} for such tasks; each expiry then costs a hand-off to that executor, and its tasks may
 * run concurrently with each other.
 *
 * <h2>Tests</h2>
 * Built with a {@link ManualTicker} (see {@link Builder#ticker}), the service has no timer thread:
 * the test moves the time itself and what is due runs on its own thread, without sleeping.
 *
 * <h2>Failures and stopping</h2>
 * A task that throws does not stop the timer thread and no other timeout is lost; the exception
 * goes to the {@linkplain #setUncaughtExceptionHandler uncaught-exception handler}, or, if none is
 * set, is logged as a warning through {@link System.Logger} {@value #LOGGER_NAME}. {@link #stop()}
 * ends the thread and returns the timeouts that never ran; afterwards every request to schedule or
 * re-arm is rejected. If the timer thread itself fails (the ticker throws, or an error such as
 * {@link OutOfMemoryError} is thrown outside a task), the service stops as if {@code stop} had
 * been called: the failure goes to the handler, {@link #isStopped()} is {@code true}, requests
 * are rejected, and the timeouts that never ran are marked cancelled (a later {@code stop} returns
 * them). A {@link TimerScheduledExecutorService} on the service then shuts down and completes each
 * of their futures with a {@link RejectedExecutionException} whose cause is the failure.
 */
public final class TimerService implements AutoCloseable {
  /** Delays are capped here (146 years) so that deadlines compare correctly by subtraction. */
  static final long MAX_DELAY_NANOS = Long.MAX_VALUE >>> 1;
  /**
   * The name of the {@link System.Logger} that failures go to when no uncaught-exception handler is
   * set (see {@link #setUncaughtExceptionHandler}).
   */
  public static final String LOGGER_NAME = "io.github.timerqueue.runtime.TimerService";
  /** The default of {@link Builder#lateTimerThreshold}: 100 milliseconds. */
  public static final Duration DEFAULT_LATE_TIMER_THRESHOLD = Duration.ofMillis(100);
  /** The default of {@link Builder#maxBacklog}. */
  public static final long DEFAULT_MAX_BACKLOG = 1 << 14;
  private static final AtomicInteger SERVICE_NUMBERS = new AtomicInteger();
  /** The counters in {@link #counts}. */
  private static final int ARMED = 0;
  private static final int FIRED = 1;
  private static final int CANCELLED = 2;

  final Ticker ticker;
  /** The ticker, if it is a manual one that drives the loop; {@code null} otherwise. */
  private final ManualTicker manualTicker;
  final TimerLoop loop;
  private final String strategy;
  private final Duration resolution;
  private final long maxPendingTimeouts;
  /** Whether the queue is wrapped in a {@link RecordingTimerQueue}; see {@link Builder#record}. */
  private final boolean recording;
  /** See {@link Builder#lateTimerThreshold}, in nanoseconds. */
  private final long lateTimerThreshold;
  /** Pending timeouts counted against the limit; {@code null} when there is no limit. */
  private final AtomicLong reserved;
  private volatile Thread.UncaughtExceptionHandler exceptionHandler;
  /** Where failures go without a handler; replaced by tests, which cannot read java.logging. */
  volatile System.Logger logger = System.getLogger(LOGGER_NAME);

  /** Set once by {@link #stop()} (or a failure of the loop); read on every request. */
  volatile boolean stopping;
  private final AtomicBoolean stopRequested = new AtomicBoolean();
  /** Set by the timer thread as it ends; see {@link #onLoopEnd}. */
  private volatile boolean ended;
  private volatile Runnable endAction;
  /** Set before {@link #stopping} when the loop fails; see {@link #failed}. */
  private volatile Throwable failure;
  private final AtomicBoolean endActionRan = new AtomicBoolean();

  /** Armed (from not pending), fired and cancelled, counted as every timeout changes. */
  private final LaneCounters counts =
      new LaneCounters(RequestQueue.lanesFor(Runtime.getRuntime().availableProcessors()), 3);
  private final LongAdder rejected = new LongAdder();
  private final LongAdder unrun = new LongAdder();
  private final LatenessHistogram lateness = new LatenessHistogram();

  private TimerService(Builder builder) {
    this.ticker = builder.ticker;
    this.manualTicker = ticker instanceof ManualTicker ? (ManualTicker) ticker : null;
    this.strategy = builder.strategy;
    this.resolution = builder.resolution;
    this.maxPendingTimeouts = builder.maxPendingTimeouts;
    this.lateTimerThreshold = builder.lateTimerThreshold.toNanos();
    this.reserved = builder.maxPendingTimeouts == 0 ? null : new AtomicLong();
    this.exceptionHandler = builder.exceptionHandler;
    TimerConfig.Builder config = TimerConfig.builder()
        .startTime(ticker.read())
        .resolution(builder.resolution.toNanos());
    builder.options.forEach(config::option);
    TimerQueue<TimerEntry> queue = TimerQueues.create(strategy, config.build());
    this.recording = builder.recorder.isEnabled();
    if (recording) {
      queue = RecordingTimerQueue.wrap(queue, builder.recorder);
    }
    this.loop = new TimerLoop(this, ticker, queue, builder.resolution.toNanos(),
        builder.taskExecutor, builder.maxBacklog);
    if (manualTicker != null) {
      manualTicker.attach(this); // last: the ticker may turn the loop from now on
      return;
    }
    if (builder.manualLoop) {
      return;
    }
    String name = builder.threadName != null ? builder.threadName
        : "timerqueue-" + strategy + "-" + SERVICE_NUMBERS.incrementAndGet();
    Thread thread = builder.threadFactory != null
        ? builder.threadFactory.newThread(loop::run)
        : new Thread(loop::run);
    if (thread == null) {
      throw new IllegalStateException("threadFactory returned null");
    }
    if (builder.threadFactory == null) {
      thread.setDaemon(true);
    }
    if (builder.threadFactory == null || builder.threadName != null) {
      thread.setName(name);
    }
    loop.bind(thread);
    thread.start();
  }

  /**
   * Returns a new builder with the defaults: strategy {@code "heap"}, resolution 1 ms, the system
   * ticker, a daemon timer thread, tasks run on the timer thread, no limit on pending timeouts, a
   * backlog of at most {@value #DEFAULT_MAX_BACKLOG} requests and due timers.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Schedules {@code task} to run once, after {@code delay}: never earlier, and as soon after as
   * the resolution and the timer thread allow. A delay of zero or less runs it as soon as possible;
   * delays beyond 146 years are cut to that.
   *
   * <p>While the timer thread's backlog is full, this first waits until it is not (see
   * "Back-pressure" above); on the timer thread it never waits.
   *
   * @param task what to run
   * @param delay how long from now to run it
   * @param unit the unit of {@code delay}
   * @return the pending timeout, with which the task can be cancelled or re-armed
   * @throws RejectedExecutionException if the service is stopped, or already holds its maximum
   *     number of pending timeouts
   * @throws NullPointerException if {@code task} or {@code unit} is {@code null}
   */
  public Timeout newTimeout(TimerTask task, long delay, TimeUnit unit) {
    Objects.requireNonNull(task, "task");
    Objects.requireNonNull(unit, "unit");
    TimerEntry entry = new TimerEntry(this, task);
    long deadline = deadlineAfter(delay, unit);
    entry.armFirst(deadline, loop.permitFor(unit.toNanos(delay)));
    return entry;
  }

  /**
   * Stops the timer thread and returns the timeouts that never ran; they are marked cancelled,
   * but their tasks' {@link TimerTask#cancelled cancelled} callbacks are not called. With a
   * {@linkplain Builder#taskExecutor task executor}, they include the expired timeouts whose tasks
   * were handed to it but had not started: those tasks never run (the executor finds them taken
   * back when it gets to them). No task starts once the timer thread has seen the stop; a task
   * already running goes on, and this method waits for it: it returns when the timer thread has
   * ended. After it, every request to schedule or re-arm is rejected with {@link
   * RejectedExecutionException}.
   *
   * <p>A timeout scheduled or re-armed while {@code stop} runs either is in the returned list or
   * its {@code newTimeout} or {@code reschedule} call throws {@link RejectedExecutionException};
   * never both, and once {@code stop} has returned no timeout is pending. (So a {@code reschedule}
   * of a pending timeout that loses this race leaves it not pending, without it being in the list:
   * the exception tells its caller instead.)
   *
   * <p>A task running on the timer thread may call this method too; the thread then ends when the
   * task returns. Only the first call returns the timeouts; later calls wait for the thread to end
   * and return an empty list.
   *
   * @return the timeouts that were pending, in no particular order
   */
  public List<Timeout> stop() {
    if (!stopRequested.compareAndSet(false, true)) {
      awaitLoopEnd();
      return List.of();
    }
    List<Timeout> unrun = stopAndSweep();
    awaitLoopEnd();
    return unrun;
  }

  /**
   * Stops the service as {@link #stop()} does and waits for its timer thread to end, for
   * try-with-resources; the timeouts that never ran are cancelled and dropped. As with {@code
   * ExecutorService.close()} (Java 19), an interrupt does not cut the wait short; the thread's
   * interrupt status is kept and set again on return. Called from a task on
   * the timer thread, it stops the service and returns at once: the thread ends when the task
   * returns (waiting for that from the task itself could never end). Calling it again, or after
   * {@code stop}, waits for the thread to end if it has not, and does nothing more.
   */
  @Override
  public void close() {
    stop();
  }

  /**
   * Returns how many timeouts are pending: scheduled or re-armed, and not yet expired, cancelled
   * or returned by {@link #stop()}; as {@code HashedWheelTimer.pendingTimeouts()} in Netty. It
   * sums a few striped counters that other threads keep updating, so it is exact once the service
   * is quiet. Costs a few reads per lane (four lanes per processor, at most 64), whatever the
   * number of timeouts; allocates nothing.
   *
   * @return the number of pending timeouts
   */
  public long pendingTimeouts() {
    long gone = counts.sum(FIRED) + counts.sum(CANCELLED) + unrun.sum();
    return Math.max(0, counts.sum(ARMED) - gone);
  }

  /**
   * Returns whether {@link #stop()} was called (or the timer thread failed), so that requests are
   * rejected.
   *
   * @return {@code true} once the service is stopping or stopped
   */
  public boolean isStopped() {
    return stopping;
  }

  /**
   * Returns a snapshot of the counters and of the lateness of the tasks that ran.
   *
   * @return the current statistics
   */
  public TimerStats stats() {
    return new TimerStats(pendingTimeouts(), counts.sum(FIRED), counts.sum(CANCELLED),
        rejected.sum(), loop.wakeups(), loop.throttled(), lateness.snapshot());
  }

  /**
   * Returns the name of the strategy the service's queue was created with.
   *
   * @return the strategy name, one of {@link TimerQueues#strategies()}
   */
  public String strategy() {
    return strategy;
  }

  /**
   * Returns the resolution: how far after its deadline a timeout may expire, on top of the time the
   * timer thread takes to wake up.
   *
   * @return the resolution
   */
  public Duration resolution() {
    return resolution;
  }

  /**
   * Sets the handler that receives exceptions thrown by tasks and cancellation callbacks, and
   * rejections by the task executor. It is called on the thread where the exception was caught;
   * an exception it throws itself is ignored. {@code null} restores the default: the uncaught
   * exception handler of that thread if one was set on it (or {@link
   * Thread#setDefaultUncaughtExceptionHandler a default one} for every thread), or else a {@link
   * System.Logger} named {@value #LOGGER_NAME}, at level {@code WARNING}.
   *
   * @param handler the handler, or {@code null} for the default
   */
  public void setUncaughtExceptionHandler(Thread.UncaughtExceptionHandler handler) {
    this.exceptionHandler = handler;
  }

  @Override
  public String toString() {
    return "TimerService{strategy=" + strategy + ", resolution=" + resolution
        + (stopping ? ", stopped" : "") + ", " + stats() + "}";
  }

  // ---- package-private: for the executor, the entries, the loop and the tests ----

  TimerEntry newEntry(TimerTask task) {
    return new TimerEntry(this, task);
  }

  /**
   * The deadline of a timeout armed now to expire after {@code delay}, for every arming a caller
   * asks for: first takes a backlog permit, waiting for one while the backlog is full ({@link
   * TimerLoop#acquirePermit}), so that the deadline is read after the wait and the wait cannot be
   * forgotten on any path. The caller arms with the permit ({@link TimerLoop#permitFor}) or gives
   * it back.
   */
  long deadlineAfter(long delay, TimeUnit unit) {
    loop.acquirePermit();
    long nanos = Math.min(Math.max(unit.toNanos(delay), 0), MAX_DELAY_NANOS);
    try {
      return ticker.read() + nanos;
    } catch (RuntimeException | Error e) {
      loop.unusedPermit(loop.permitFor(0));
      throw e;
    }
  }

  /**
   * Checks that one more timeout may become pending ({@code wasPending} false) or that a pending
   * one may move; reserves a place under the limit for the former.
   */
  void admit(boolean wasPending) {
    if (stopping) {
      rejected.increment();
      throw new RejectedExecutionException("timer service " + strategy + " is stopped");
    }
    if (!wasPending && reserved != null) {
      long current;
      do {
        current = reserved.get();
        if (current >= maxPendingTimeouts) {
          rejected.increment();
          throw new RejectedExecutionException(
              "timer service holds its maximum of " + maxPendingTimeouts + " pending timeouts");
        }
      } while (!reserved.compareAndSet(current, current + 1));
    }
  }

  /**
   * Called after an entry was armed and queued: wakes the timer thread if needed, and withdraws
   * the arming if the service began stopping meanwhile (see {@link TimerLoop#sweep()}).
   */
  void armed(TimerEntry entry, long arming, long deadline, boolean wasPending) {
    if (!wasPending) {
      counts.increment(ARMED);
    }
    loop.wakeIfBefore(deadline);
    if (stopping && entry.revoke(arming)) {
      unrun.increment();
      release();
      rejected.increment();
      throw new RejectedExecutionException("timer service " + strategy + " is stopped");
    }
  }

  void cancelled(TimerEntry entry) {
    counts.increment(CANCELLED);
    release();
    loop.requestSweep();
    try {
      entry.task.cancelled(entry);
    } catch (Throwable failure) {
      report(failure);
    }
  }

  void fired() {
    counts.increment(FIRED);
    release();
  }

  void unrun() {
    unrun.increment();
    release();
  }

  private void release() {
    if (reserved != null) {
      reserved.decrementAndGet();
    }
  }

  void runTask(TimerEntry entry) {
    long late = ticker.read() - entry.deadline();
    lateness.record(late);
    if (late > lateTimerThreshold && LateTimerEvent.TYPE.isEnabled()) {
      LateTimerEvent event = new LateTimerEvent();
      event.strategy = strategy;
      event.lateness = late;
      event.threshold = lateTimerThreshold;
      event.task = entry.task.getClass().getName();
      event.commit();
    }
    try {
      entry.task.run(entry);
    } catch (Throwable failure) {
      report(failure);
    }
  }

  /**
   * The task executor refused {@code entry}'s task (or failed taking it): the task will not run.
   * An executor's task completes exceptionally with the rejection, so that its future is never
   * left hanging and the executor can terminate; any other task's rejection goes to the handler.
   */
  void handOffFailed(TimerEntry entry, Throwable failure) {
    RejectedExecutionException rejection = failure instanceof RejectedExecutionException
        ? (RejectedExecutionException) failure
        : new RejectedExecutionException("the task executor failed to take " + entry, failure);
    if (entry.task instanceof ScheduledTask) {
      ((ScheduledTask<?>) entry.task).fail(rejection);
    } else {
      report(rejection);
    }
  }

  void report(Throwable failure) {
    Thread current = Thread.currentThread();
    Thread.UncaughtExceptionHandler handler = exceptionHandler;
    try {
      if (handler == null) {
        // A thread's handler is its thread group unless one was set on it; the group passes the
        // failure to the JVM's default handler if one was set, and else prints it to stderr.
        handler = current.getUncaughtExceptionHandler();
        if (handler == current.getThreadGroup()
            && Thread.getDefaultUncaughtExceptionHandler() == null) {
          logger.log(System.Logger.Level.WARNING,
              () -> "a task of timer service " + strategy + " failed on " + current.getName(),
              failure);
          return;
        }
      }
      handler.uncaughtException(current, failure);
    } catch (Throwable ignored) {
      // The handler failed as well; there is nobody left to tell, and the timer must go on.
    }
  }

  /**
   * Asks the timer thread to stop and returns at once, never waiting for it (nor for a task it
   * runs); {@link #onLoopEnd}'s action runs when it has ended. For the executor, which stops the
   * timer service when its last task is done, on whichever thread that happens. A test's manual
   * loop stops and ends here.
   */
  void stopAsync() {
    if (!stopRequested.compareAndSet(false, true)) {
      return;
    }
    stopping = true;
    if (loop.thread() == null) {
      endManualLoop();
    } else {
      LockSupport.unpark(loop.thread());
    }
  }

  /**
   * Stops as {@link #stop()} does, but returns once the timeouts that never ran are taken, without
   * waiting for a task that runs (on the timer thread or the task executor) nor for the timer
   * thread to end; {@link #onLoopEnd}'s action runs when it has. For the executor's {@code
   * shutdownNow}. Only the first call to stop returns the timeouts.
   */
  List<Timeout> stopNow() {
    if (!stopRequested.compareAndSet(false, true)) {
      return List.of();
    }
    return stopAndSweep();
  }

  private List<Timeout> stopAndSweep() {
    stopping = true;
    if (loop.thread() == null) {
      endManualLoop();
    } else if (loop.onLoopThread()) {
      loop.sweepHere(); // from a task: the thread ends when it returns
    } else {
      loop.awaitSweep();
    }
    return loop.takeUnrun();
  }

  /**
   * Sweeps and ends a loop without a thread, on the calling thread. With a {@link ManualTicker},
   * under its lock, so that it waits for an advance in progress on another thread (which turns the
   * loop) and runs in place from a task of the advancing thread.
   */
  private void endManualLoop() {
    if (manualTicker == null) {
      loop.sweepHere();
      loopEnded();
      return;
    }
    synchronized (manualTicker) {
      loop.sweepHere();
      loopEnded();
    }
  }

  /**
   * Whether the calling thread runs this service's loop (its timer thread, or the thread advancing
   * its {@link ManualTicker}) or one of its tasks on the task executor: waiting there for the tasks
   * to end would wait for itself. Linear in the tasks the task executor holds; for close.
   */
  boolean runsLoopOrTask() {
    boolean onLoop = manualTicker != null
        ? manualTicker.isAdvancing()
        : Thread.currentThread() == loop.thread();
    return onLoop || loop.runsHandedOffTask();
  }

  /** Whether the timer thread's queue is recorded; for tests. */
  boolean isRecording() {
    return recording;
  }

  /**
   * Whether the loop has no thread (a {@link ManualTicker}'s, or a test's): nothing runs by itself.
   */
  boolean isManual() {
    return loop.thread() == null;
  }

  /**
   * Sets what to run once the timer thread has ended, after it handed out the timeouts that never
   * ran (see {@link TimerLoop#takeUnrun()}); runs it at once if the thread has ended already. Set once,
   * by the executor that owns this service.
   */
  void onLoopEnd(Runnable action) {
    endAction = action;
    if (ended) {
      runEndAction();
    }
  }

  /** Whether the timer thread has ended (or, for a manual loop, the service has stopped). */
  boolean loopHasEnded() {
    return ended;
  }

  /** Called once, last, by the timer thread as it ends (or by {@code stop} for a manual loop). */
  void loopEnded() {
    ended = true;
    if (endAction != null) {
      runEndAction();
    }
  }

  private void runEndAction() {
    if (endActionRan.compareAndSet(false, true)) {
      try {
        endAction.run();
      } catch (Throwable failure) {
        report(failure);
      }
    }
  }

  /**
   * The loop itself failed; nothing scheduled from now on could run. The loop reports the failure
   * once it has swept, so that a handler that blocks cannot hold up a stopping thread.
   */
  void failed(Throwable failure) {
    this.failure = failure;
    stopping = true;
  }

  /** What ended the timer thread, if it failed; {@code null} otherwise. */
  Throwable failure() {
    return failure;
  }

  /** Interrupts the threads running tasks, for shutdownNow; see {@link TimerLoop}. */
  void interruptRunningTasks() {
    loop.interruptRunningTasks();
  }

  private void awaitLoopEnd() {
    Thread thread = loop.thread();
    if (thread == null || Thread.currentThread() == thread) {
      return;
    }
    boolean interrupted = false;
    while (thread.isAlive()) {
      try {
        thread.join();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Runs one turn of the loop on the calling thread, for a {@link ManualTicker} and for tests built
   * with {@link Builder#manualLoop()}: applies requests, fires what is due at the ticker's time,
   * and returns how long the thread would sleep (nanoseconds, {@link Long#MAX_VALUE} for until
   * woken, 0 for not at all), leaving the service in the state of a sleeping thread.
   */
  long runOnce() {
    if (loop.thread() != null) {
      throw new IllegalStateException("the loop runs on its own thread");
    }
    if (stopping) {
      throw new IllegalStateException("stopped");
    }
    return loop.turn();
  }

  /**
   * Builds a {@link TimerService} or a {@link TimerScheduledExecutorService}. Each setter
   * validates its argument at once. Not thread-safe; may be reused.
   */
  public static final class Builder {
    private String strategy = "heap";
    private Duration resolution = Duration.ofMillis(1);
    private Ticker ticker = Ticker.systemTicker();
    private ThreadFactory threadFactory;
    private String threadName;
    private Executor taskExecutor;
    private long maxPendingTimeouts;
    private long maxBacklog = DEFAULT_MAX_BACKLOG;
    private Duration lateTimerThreshold = DEFAULT_LATE_TIMER_THRESHOLD;
    private TraceRecorder recorder = TraceRecorder.disabled();
    private Thread.UncaughtExceptionHandler exceptionHandler;
    private final Map<String, String> options = new TreeMap<>();
    private boolean manualLoop;

    private Builder() {}

    /**
     * Sets the strategy of the timer queue (default {@code "heap"}). Whether the name is known is
     * checked by {@link #build()}.
     *
     * @param strategy a name from {@link TimerQueues#strategies()}
     * @return this builder
     * @throws NullPointerException if {@code strategy} is {@code null}
     */
    public Builder strategy(String strategy) {
      this.strategy = Objects.requireNonNull(strategy, "strategy");
      return this;
    }

    /**
     * Sets a strategy-specific option, passed on in the queue's {@link TimerConfig}; whether the
     * strategy accepts it is checked by {@link #build()}.
     *
     * @param key the option's name
     * @param value its value
     * @return this builder
     * @throws NullPointerException if {@code key} or {@code value} is {@code null}
     */
    public Builder option(String key, String value) {
      options.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
      return this;
    }

    /**
     * Sets the resolution (default 1 ms): timeouts may expire up to this much after their deadline
     * (on top of wake-up latency), which lets the timing-wheel strategies group them, and a new
     * timeout wakes a sleeping timer thread only if it is due a resolution or more before the
     * thread would wake anyway.
     *
     * @param resolution at least 1 ns, at most {@code Long.MAX_VALUE} ns
     * @return this builder
     * @throws IllegalArgumentException if {@code resolution} is zero, negative or too long
     * @throws NullPointerException if {@code resolution} is {@code null}
     */
    public Builder resolution(Duration resolution) {
      Durations.nanos(resolution, 1, "resolution");
      this.resolution = resolution;
      return this;
    }

    /**
     * Sets the clock (default {@link Ticker#systemTicker()}, that is {@link System#nanoTime()}).
     * The timer thread sleeps for the nanoseconds it computes from this ticker.
     *
     * <p>A {@link ManualTicker} makes a service for tests: it has no timer thread, and its tasks
     * run on the thread that {@linkplain ManualTicker#advance(java.time.Duration) advances} the
     * ticker, when the ticker reaches their time (see {@link ManualTicker}); {@link #threadFactory}
     * and {@link #threadName} are then not used, and the backlog is never full.
     *
     * @param ticker the clock
     * @return this builder
     * @throws NullPointerException if {@code ticker} is {@code null}
     */
    public Builder ticker(Ticker ticker) {
      this.ticker = Objects.requireNonNull(ticker, "ticker");
      return this;
    }

    /**
     * Sets the factory of the timer thread (default: a new daemon thread). The factory's thread is
     * used as it comes, and renamed only if a {@link #threadName} is set.
     *
     * @param threadFactory makes the one timer thread
     * @return this builder
     * @throws NullPointerException if {@code threadFactory} is {@code null}
     */
    public Builder threadFactory(ThreadFactory threadFactory) {
      this.threadFactory = Objects.requireNonNull(threadFactory, "threadFactory");
      return this;
    }

    /**
     * Sets the name of the timer thread (default {@code timerqueue-<strategy>-<n>}).
     *
     * @param threadName the name, not empty
     * @return this builder
     * @throws IllegalArgumentException if {@code threadName} is empty
     * @throws NullPointerException if {@code threadName} is {@code null}
     */
    public Builder threadName(String threadName) {
      Objects.requireNonNull(threadName, "threadName");
      if (threadName.isEmpty()) {
        throw new IllegalArgumentException("threadName must not be empty");
      }
      this.threadName = threadName;
      return this;
    }

    /**
     * Sets the executor that runs the tasks (default: none, they run on the timer thread; see
     * "Where tasks run" in {@link TimerService}). The timer thread hands each expired timeout to
     * it; if it rejects one (or throws anything else from {@code execute}), that task does not
     * run: for a {@link TimerScheduledExecutorService} its future completes exceptionally with a
     * {@link RejectedExecutionException} (the executor's own, or one whose cause is what it
     * threw), and for a timeout of {@link TimerService#newTimeout} that exception goes to the
     * uncaught-exception handler.
     *
     * @param taskExecutor runs the tasks
     * @return this builder
     * @throws NullPointerException if {@code taskExecutor} is {@code null}
     */
    public Builder taskExecutor(Executor taskExecutor) {
      this.taskExecutor = Objects.requireNonNull(taskExecutor, "taskExecutor");
      return this;
    }

    /**
     * Limits the number of pending timeouts (default: no limit). Scheduling or re-arming a timeout
     * that is not pending while the limit is reached throws {@link RejectedExecutionException}.
     *
     * @param maxPendingTimeouts at least 1
     * @return this builder
     * @throws IllegalArgumentException if {@code maxPendingTimeouts < 1}
     */
    public Builder maxPendingTimeouts(long maxPendingTimeouts) {
      if (maxPendingTimeouts < 1) {
        throw new IllegalArgumentException(
            "maxPendingTimeouts must be at least 1, but was " + maxPendingTimeouts);
      }
      this.maxPendingTimeouts = maxPendingTimeouts;
      return this;
    }

    /**
     * Bounds the backlog of the timer thread (default {@value TimerService#DEFAULT_MAX_BACKLOG}):
     * the requests to schedule or re-arm a timeout that other threads have made and the timer
     * thread has not yet applied, plus the timers they armed that were due when applied (deadline
     * at most one resolution, or one millisecond if longer, after the turn began) and have not yet
     * fired or been cancelled. When the backlog is full, {@code newTimeout}, {@code reschedule}
     * and the executor's {@code schedule} methods wait until it is not; nothing is dropped. So a
     * timer due behind the backlog runs late by at most the time the timer thread takes to work
     * through this many requests and timers, on top of the resolution.
     *
     * <p>The bound is split evenly among the lanes of the request queue, a few per processor (up
     * to 64), and a thread draws on the share of its own lane, so that threads on different cores
     * do not contend for one counter: one thread alone may wait at {@code maxBacklog / lanes}. The
     * timer thread, tasks running on it, and periodic tasks of a {@link
     * TimerScheduledExecutorService} re-arming themselves never wait and are not counted; nor are
     * cancellations, which only shrink the backlog, nor timers armed for later than the horizon
     * above, which are counted by {@link #maxPendingTimeouts} if at all.
     *
     * @param maxBacklog at least 64, the most lanes there are
     * @return this builder
     * @throws IllegalArgumentException if {@code maxBacklog < 64}
     */
    public Builder maxBacklog(long maxBacklog) {
      if (maxBacklog < RequestQueue.MAX_LANES) {
        throw new IllegalArgumentException("maxBacklog must be at least " + RequestQueue.MAX_LANES
            + ", but was " + maxBacklog);
      }
      this.maxBacklog = maxBacklog;
      return this;
    }

    /**
     * Sets how late a task may start after its deadline before it is reported to Java Flight
     * Recorder (default {@link TimerService#DEFAULT_LATE_TIMER_THRESHOLD}, 100 ms), as an event
     * {@code io.github.timerqueue.LateTimer} with the strategy, the lateness, this threshold and
     * the task's class. A recording that enables {@code io.github.timerqueue.Throttled} also sees
     * each call that waited for a full backlog (see {@link #maxBacklog}), with its wait as the
     * event's duration. With JFR off, or these events disabled, neither event is created: a task
     * costs one comparison with this threshold, and a wait one more check.
     *
     * @param threshold zero or more (zero reports every task that starts after its deadline), at
     *     most {@code Long.MAX_VALUE} ns
     * @return this builder
     * @throws IllegalArgumentException if {@code threshold} is negative or too long
     * @throws NullPointerException if {@code threshold} is {@code null}
     */
    public Builder lateTimerThreshold(Duration threshold) {
      Durations.nanos(threshold, 0, "threshold");
      this.lateTimerThreshold = threshold;
      return this;
    }

    /**
     * Records what the timer thread does with its queue into {@code recorder} (default {@link
     * TraceRecorder#disabled()}: nothing recorded): every schedule, re-arm, cancellation and
     * advance, as {@link RecordingTimerQueue} records them, so that the trace can be read back
     * ({@link io.github.timerqueue.trace.TraceReader}) and replayed on any strategy, for example
     * by timer-bench's trace replay. The queue is wrapped only when the recorder is enabled: a
     * service that does not record pays nothing for it. Recording costs the timer thread a few
     * stores per operation and one small object per timer scheduled, never a wait for I/O (see
     * {@link TraceRecorder}).
     *
     * <p>The recorder's header should give nanoseconds, this builder's resolution and the
     * ticker's reading when the service is built (for the system ticker, {@link
     * System#nanoTime()} read just before {@link #build()} is close enough). Only the service's
     * timer thread (or the thread advancing its {@link ManualTicker}) records; a recorder serves
     * one service. Close it after stopping the service, to finish the trace.
     *
     * @param recorder where to record; {@link TraceRecorder#disabled()} turns recording off
     * @return this builder
     * @throws NullPointerException if {@code recorder} is {@code null}
     */
    public Builder record(TraceRecorder recorder) {
      this.recorder = Objects.requireNonNull(recorder, "recorder");
      return this;
    }

    /**
     * Sets the handler of exceptions thrown by tasks (default: the uncaught exception handler set
     * on the thread the task ran on, if any, or else a warning through {@link System.Logger}
     * {@value TimerService#LOGGER_NAME}); see {@link TimerService#setUncaughtExceptionHandler}.
     *
     * @param handler the handler
     * @return this builder
     * @throws NullPointerException if {@code handler} is {@code null}
     */
    public Builder uncaughtExceptionHandler(Thread.UncaughtExceptionHandler handler) {
      this.exceptionHandler = Objects.requireNonNull(handler, "handler");
      return this;
    }

    /** No timer thread: the test drives the loop with {@link TimerService#runOnce()}. */
    Builder manualLoop() {
      this.manualLoop = true;
      return this;
    }

    /**
     * Creates the timer queue and starts the timer thread.
     *
     * @return a new, running timer service
     * @throws IllegalArgumentException if the strategy is unknown, or an option is not accepted
     *     by it; the message lists what is allowed
     */
    public TimerService build() {
      return new TimerService(this);
    }

    /**
     * Builds a timer service as {@link #build()} does and returns a {@link
     * TimerScheduledExecutorService} that owns it.
     *
     * @return a new, running scheduled executor service
     * @throws IllegalArgumentException if the strategy is unknown, or an option is not accepted
     *     by it; the message lists what is allowed
     */
    public TimerScheduledExecutorService buildScheduledExecutorService() {
      return new TimerScheduledExecutorService(build());
    }
  }
}
