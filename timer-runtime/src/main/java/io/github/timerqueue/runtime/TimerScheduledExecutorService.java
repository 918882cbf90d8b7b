package io.github.timerqueue.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link ScheduledExecutorService} on a {@link TimerService}, whose timer data structure is any
 * registered strategy. It keeps the contract of {@link ScheduledThreadPoolExecutor} with one
 * thread, or with the timer service's task executor:
 *
 * <pre>{@code
 * ScheduledExecutorService scheduler = TimerService.builder()
 *     .strategy("hitime")
 *     .buildScheduledExecutorService();
 * ScheduledFuture<?> heartbeat =
 *     scheduler.scheduleAtFixedRate(this::sendHeartbeat, 0, 5, TimeUnit.SECONDS);
 * }</pre>
 *
 * <ul>
 *   <li>A task never runs before its delay has passed. Tasks due at the same time run in an order
 *       the strategy decides, not necessarily first in, first out.
 *   <li>{@code scheduleAtFixedRate} runs at {@code initialDelay + n * period}; a run that takes
 *       longer than the period delays the next, and runs never overlap. {@code
 *       scheduleWithFixedDelay} waits {@code delay} from the end of one run to the start of the
 *       next. A periodic task re-arms its own timer after each run: no allocation per period. If a
 *       run throws, the task stops and its future completes with that exception.
 *   <li>{@link ScheduledFuture#cancel cancel} removes the timer right away (as {@link
 *       ScheduledThreadPoolExecutor#setRemoveOnCancelPolicy} does), so cancelled tasks do not
 *       occupy memory until their deadlines.
 *   <li>After {@link #shutdown()}, by default, delayed tasks still run at their time and periodic
 *       tasks stop; {@link #setExecuteExistingDelayedTasksAfterShutdownPolicy} and {@link
 *       #setContinueExistingPeriodicTasksAfterShutdownPolicy} change that, as in {@link
 *       ScheduledThreadPoolExecutor}. The service terminates when no task is left; the timer
 *       service stops then.
 *   <li>{@link #shutdownNow()} returns the tasks that had not started, those handed to the task
 *       executor and still waiting there included (they never run), and interrupts the running
 *       ones, on the timer thread or the task executor. It waits for none of them: {@link
 *       #awaitTermination} does. No call waits for a running task: {@code Future.cancel}, {@code
 *       shutdown} and {@code shutdownNow} return while it runs, and the executor terminates
 *       asynchronously, when the last task is done and the timer thread has ended. As with {@link
 *       ScheduledThreadPoolExecutor}, a task counts until its run returns, even if its future was
 *       cancelled meanwhile: the executor does not terminate while a cancelled task still runs.
 *   <li>{@link #shutdown()} cancels the tasks its policies drop before it returns, on the calling
 *       thread (a running one is not interrupted, but cancelled when its run returns).
 * </ul>
 *
 * <p>Cost: scheduling a task allocates its future and the future's timer entry, nothing per
 * period; the future also links itself into a lock-striped list of the outstanding tasks, which
 * {@code shutdown} walks. Scheduling and completion each update a shared counter and take the
 * monitor of one stripe (chosen by thread, so uncontended unless threads collide); each run makes
 * two compare-and-sets on the task's own state.
 *
 * <p>Tasks that throw complete their futures exceptionally, as with any {@code ExecutorService};
 * they do not reach the timer service's uncaught-exception handler. A task that the timer service's
 * {@linkplain TimerService.Builder#taskExecutor task executor} rejects never runs: its future
 * completes exceptionally with a {@link RejectedExecutionException} and it counts as done, so
 * termination does not wait for it.
 */
public final class TimerScheduledExecutorService extends AbstractExecutorService
    implements ScheduledExecutorService, AutoCloseable {
  private static final int RUNNING = 0;
  private static final int SHUTDOWN = 1;
  private static final int STOP = 2;
  /** No task is left; the timer service is stopping and will terminate the executor as it ends. */
  private static final int TIDYING = 3;
  private static final int TERMINATED = 4;

  final TimerService timer;
  private final AtomicInteger state = new AtomicInteger(RUNNING);
  /**
   * Tasks scheduled and not yet done, cancelled, or handed back by shutdownNow, or whose run has
   * not returned yet.
   */
  private final AtomicLong outstanding = new AtomicLong();
  /** The same tasks, for shutdown to cancel those its policies drop. */
  private final OutstandingTasks tasks = new OutstandingTasks();
  private final CountDownLatch terminated = new CountDownLatch(1);
  private final Object lifecycle = new Object();
  /** The ticker's time when shutdown began: delayed tasks due by then may run after it. */
  private volatile long shutdownTime;
  private volatile boolean continueExistingPeriodicTasksAfterShutdown;
  private volatile boolean executeExistingDelayedTasksAfterShutdown = true;

  TimerScheduledExecutorService(TimerService timer) {
    this.timer = timer;
    timer.onLoopEnd(this::timerEnded);
  }

  @Override
  public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
    Objects.requireNonNull(command, "command");
    Objects.requireNonNull(unit, "unit");
    return delayedExecute(new ScheduledTask<Void>(this, command, null, 0), delay, unit);
  }

  @Override
  public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
    Objects.requireNonNull(callable, "callable");
    Objects.requireNonNull(unit, "unit");
    return delayedExecute(new ScheduledTask<>(this, callable), delay, unit);
  }

  /**
   * {@inheritDoc}
   *
   * @throws IllegalArgumentException if {@code period} is zero or negative
   */
  @Override
  public ScheduledFuture<?> scheduleAtFixedRate(
      Runnable command, long initialDelay, long period, TimeUnit unit) {
    Objects.requireNonNull(command, "command");
    Objects.requireNonNull(unit, "unit");
    if (period <= 0) {
      throw new IllegalArgumentException("period must be positive, but was " + period);
    }
    return delayedExecute(
        new ScheduledTask<Void>(this, command, null, periodNanos(period, unit)), initialDelay, unit);
  }

  /**
   * {@inheritDoc}
   *
   * @throws IllegalArgumentException if {@code delay} is zero or negative
   */
  @Override
  public ScheduledFuture<?> scheduleWithFixedDelay(
      Runnable command, long initialDelay, long delay, TimeUnit unit) {
    Objects.requireNonNull(command, "command");
    Objects.requireNonNull(unit, "unit");
    if (delay <= 0) {
      throw new IllegalArgumentException("delay must be positive, but was " + delay);
    }
    return delayedExecute(
        new ScheduledTask<Void>(this, command, null, -periodNanos(delay, unit)), initialDelay, unit);
  }

  /**
   * Runs {@code command} as soon as possible, as {@code schedule(command, 0, NANOSECONDS)} does;
   * an exception it throws is kept in a future nobody sees, as with {@link
   * ScheduledThreadPoolExecutor#execute}.
   */
  @Override
  public void execute(Runnable command) {
    Objects.requireNonNull(command, "command");
    if (command instanceof ScheduledTask && ((ScheduledTask<?>) command).timeout.neverArmed()
        && ((ScheduledTask<?>) command).timeout.service == timer) {
      // Made by newTaskFor for submit, invokeAll or invokeAny: arm it rather than wrap it.
      delayedExecute((ScheduledTask<?>) command, 0, TimeUnit.NANOSECONDS);
    } else {
      schedule(command, 0, TimeUnit.NANOSECONDS);
    }
  }

  @Override
  protected <T> RunnableFuture<T> newTaskFor(Runnable runnable, T value) {
    return new ScheduledTask<>(this, runnable, value, 0);
  }

  @Override
  protected <T> RunnableFuture<T> newTaskFor(Callable<T> callable) {
    return new ScheduledTask<>(this, callable);
  }

  /**
   * Starts an orderly shutdown: no new task is accepted; periodic tasks are cancelled and delayed
   * ones still run at their time, unless the policies say otherwise. The tasks the policies drop
   * are cancelled by the time this method returns, as with {@link ScheduledThreadPoolExecutor},
   * except one that is running: it is not interrupted, and is cancelled instead of re-armed when
   * its run returns. Does not wait for anything: O(tasks outstanding) on the calling thread.
   */
  @Override
  public void shutdown() {
    moveTo(SHUTDOWN);
    applyShutdownPolicies();
    tryTerminate();
  }

  /**
   * Stops at once: no new task is accepted, no waiting task starts, the running tasks (on the
   * timer thread or the task executor) are interrupted, and the tasks that had not started are
   * returned, whatever {@code shutdown}, cancellations or schedulings race with this call: those
   * waiting for their time, and those handed to the task executor that it had not started. They
   * are not cancelled: each is the {@link ScheduledFuture} that {@code schedule} returned (or, for
   * {@code execute}, one with no delay), and, as with {@link ScheduledThreadPoolExecutor}, running
   * it now cancels it. A task that was cancelled is not returned.
   *
   * <p>Does not wait for running tasks to end, even one that ignores interrupts: while the timer
   * thread runs a task, the calling thread takes the waiting tasks from the timer queue itself
   * (the timer thread waits for it when the task returns). Only the first call returns tasks.
   *
   * @return the tasks that had not started, in no particular order
   */
  @Override
  public List<Runnable> shutdownNow() {
    moveTo(STOP);
    List<Timeout> unrun = timer.stopNow();
    // After the tasks waiting in the task executor are taken back: interrupted earlier, its
    // threads would have started some of them.
    timer.interruptRunningTasks();
    List<Runnable> tasks = new ArrayList<>(unrun.size());
    for (Timeout timeout : unrun) {
      ScheduledTask<?> task = (ScheduledTask<?>) timeout.task();
      if (!task.isDone()) { // not a periodic task cancelled while it re-armed
        tasks.add(task);
      }
      taskDone(task);
    }
    tryTerminate();
    return tasks;
  }

  /**
   * {@inheritDoc}
   *
   * <p>Also {@code true} once the timer thread has failed (see "Failures and stopping" in {@link
   * TimerService}).
   */
  @Override
  public boolean isShutdown() {
    return state.get() != RUNNING;
  }

  @Override
  public boolean isTerminated() {
    return state.get() == TERMINATED;
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
    return terminated.await(timeout, unit);
  }

  /**
   * Shuts down and waits for termination, as {@code ExecutorService.close()} does from Java 19
   * (which this overrides there): {@link #shutdown()}, then {@link #awaitTermination} until the
   * executor has terminated, so delayed tasks still run at their time by default (see the
   * shutdown policies). If the calling thread is interrupted while it waits, it calls {@link
   * #shutdownNow()} once and goes on waiting, then returns with its interrupt status set. Does
   * nothing if the executor has terminated.
   *
   * <p>Two cases do not wait, because the wait could never end. Called from a task of this
   * executor (on the timer thread, on the task executor, or on the thread advancing a {@link
   * ManualTicker}), it shuts down and returns: the executor terminates once that task and the
   * others are done. With a {@link ManualTicker}, only advancing the ticker runs tasks, so from
   * any other thread it shuts down and then, if tasks are left, calls {@link #shutdownNow()}
   * before it waits (for tasks already running elsewhere).
   */
  @Override
  public void close() {
    if (isTerminated()) {
      return;
    }
    shutdown();
    if (timer.runsLoopOrTask()) {
      return;
    }
    if (timer.isManual() && !isTerminated()) {
      shutdownNow();
    }
    boolean interrupted = false;
    while (!isTerminated()) {
      try {
        awaitTermination(1, TimeUnit.DAYS);
      } catch (InterruptedException e) {
        if (!interrupted) {
          shutdownNow();
          interrupted = true;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Sets whether periodic tasks keep running after {@link #shutdown()} (default {@code false}).
   * Setting it to {@code false} after shutdown cancels them.
   *
   * @param value {@code true} to keep running them
   */
  public void setContinueExistingPeriodicTasksAfterShutdownPolicy(boolean value) {
    continueExistingPeriodicTasksAfterShutdown = value;
    if (!value && isShutdown()) {
      applyShutdownPolicies();
    }
  }

  /**
   * Returns whether periodic tasks keep running after {@link #shutdown()}.
   *
   * @return {@code true} if they keep running
   */
  public boolean getContinueExistingPeriodicTasksAfterShutdownPolicy() {
    return continueExistingPeriodicTasksAfterShutdown;
  }

  /**
   * Sets whether delayed tasks still run after {@link #shutdown()} (default {@code true}).
   * Setting it to {@code false} after shutdown cancels those not yet due when shutdown began.
   *
   * @param value {@code true} to run them
   */
  public void setExecuteExistingDelayedTasksAfterShutdownPolicy(boolean value) {
    executeExistingDelayedTasksAfterShutdown = value;
    if (!value && isShutdown()) {
      applyShutdownPolicies();
    }
  }

  /**
   * Returns whether delayed tasks still run after {@link #shutdown()}.
   *
   * @return {@code true} if they run
   */
  public boolean getExecuteExistingDelayedTasksAfterShutdownPolicy() {
    return executeExistingDelayedTasksAfterShutdown;
  }

  /**
   * Returns how many of the timer service's timeouts are pending: the tasks waiting for their time,
   * periodic ones included; see {@link TimerService#pendingTimeouts()}. Allocates nothing.
   *
   * @return the number of pending timeouts
   */
  public long pendingTimeouts() {
    return timer.pendingTimeouts();
  }

  /**
   * Returns the statistics of the underlying timer service.
   *
   * @return the current statistics
   */
  public TimerStats stats() {
    return timer.stats();
  }

  /**
   * Returns the name of the timer strategy.
   *
   * @return the strategy name
   */
  public String strategy() {
    return timer.strategy();
  }

  @Override
  public String toString() {
    String[] names = {"running", "shutdown", "stop", "tidying", "terminated"};
    return "TimerScheduledExecutorService{" + names[state.get()] + ", outstanding="
        + outstanding.get() + ", " + timer + "}";
  }

  // ---- package-private: for the tasks and the tests ----

  /** Whether {@code task} may run (or be re-armed) in the current state; as in ScheduledThreadPoolExecutor. */
  boolean canRun(ScheduledTask<?> task) {
    int current = state.get();
    if (current == RUNNING) {
      return true;
    }
    return current == SHUTDOWN
        && runsAfterShutdown(task, continueExistingPeriodicTasksAfterShutdown,
            executeExistingDelayedTasksAfterShutdown, shutdownTime);
  }

  /** Whether {@code task} may still run after {@code shutdown} under the given policies. */
  private static boolean runsAfterShutdown(
      ScheduledTask<?> task, boolean keepPeriodic, boolean keepDelayed, long shutdownTime) {
    return task.isPeriodic()
        ? keepPeriodic
        : keepDelayed || task.deadline() - shutdownTime <= 0;
  }

  void rearm(ScheduledTask<?> task, long deadline) {
    if (!canRun(task)) {
      task.cancel(false);
      return;
    }
    try {
      task.timeout.rearmAt(deadline, -1); // no backlog permit: one arming per periodic task
    } catch (RejectedExecutionException e) {
      if (timer.isStopped()) {
        task.cancel(false);
      } else {
        task.fail(e); // the timer service's limit on pending timeouts
      }
      return;
    }
    if (task.isDone()) {
      // Cancelled while we re-armed: its cancel found the timeout expired, not pending, and left
      // it. Both sides write (the future's state, the timeout's) before reading the other's, so
      // either that cancel removed the new arming or we see the future done and remove it now.
      task.timeout.cancel();
      return;
    }
    if (!canRun(task)) {
      // Shut down while we re-armed: cancel unless shutdownNow took the task back meanwhile.
      task.cancelWaiting();
    }
  }

  /** The task is done or handed back: it leaves the count now, or when its run returns. */
  void taskDone(ScheduledTask<?> task) {
    if (task.release()) {
      taskLeft(task);
    }
  }

  /** The task has left the count ({@link ScheduledTask#release}); once per scheduling. */
  void taskLeft(ScheduledTask<?> task) {
    tasks.remove(task);
    if (outstanding.decrementAndGet() == 0) {
      tryTerminate();
    }
  }

  private <T extends ScheduledTask<?>> T delayedExecute(T task, long delay, TimeUnit unit) {
    task.count();
    outstanding.incrementAndGet();
    // Before the state is read: either shutdown finds the task here, or this thread sees the
    // shutdown (each writes, under a lock or by an atomic, before it reads the other's).
    tasks.add(task);
    if (isShutdown()) {
      taskDone(task);
      throw new RejectedExecutionException("executor is shut down");
    }
    try {
      long deadline = timer.deadlineAfter(delay, unit);
      task.timeout.armFirst(deadline, timer.loop.permitFor(unit.toNanos(delay)));
    } catch (RejectedExecutionException e) {
      task.cancel(false);
      throw e;
    }
    if (!canRun(task)) {
      // Shut down while we armed it: cancel it unless shutdownNow took it back meanwhile, as
      // ScheduledThreadPoolExecutor cancels only what it can still remove from its queue.
      task.cancelWaiting();
    }
    return task;
  }

  private long periodNanos(long period, TimeUnit unit) {
    return Math.min(unit.toNanos(period), TimerService.MAX_DELAY_NANOS);
  }

  /**
   * Cancels, on the calling thread, the outstanding tasks that the shutdown policies do not let
   * run, unless they run now (see {@link ScheduledTask#drop()}). The policies are read once, here:
   * a {@code shutdownNow} racing with this must find the delayed tasks that this shutdown lets run,
   * and hand them back, rather than have them cancelled because the state has moved on to STOP;
   * a task whose timer it took back is left alone. Tasks are cancelled outside the list's locks,
   * as cancelling one removes it from the list.
   */
  private void applyShutdownPolicies() {
    boolean keepPeriodic = continueExistingPeriodicTasksAfterShutdown;
    boolean keepDelayed = executeExistingDelayedTasksAfterShutdown;
    long shutdownAt = shutdownTime;
    List<ScheduledTask<?>> dropped = tasks.select(task -> task.isWaiting()
        && !runsAfterShutdown(task, keepPeriodic, keepDelayed, shutdownAt));
    for (ScheduledTask<?> task : dropped) {
      task.drop();
    }
  }

  /** Moves the state forward to {@code target} unless it is there or beyond already. */
  private void moveTo(int target) {
    synchronized (lifecycle) {
      int current = state.get();
      if (current == RUNNING && target == SHUTDOWN) {
        // Before the state, which publishes it; only the SHUTDOWN policies use it, and STOP comes
        // without reading the ticker, which may be what failed.
        shutdownTime = timer.ticker.read();
      }
      while (current < target && !state.compareAndSet(current, target)) {
        current = state.get(); // tryTerminate, which does not lock, moved it
      }
    }
  }

  /**
   * Terminates once shut down with no task left, without waiting for anything: whoever finds the
   * last task gone moves to TIDYING and asks the timer service to stop; the timer thread, as it
   * ends, calls {@link #timerEnded()}, which comes back here and completes the termination. Both
   * sides write (the state, the timer's ended flag) before they read the other's, so one of them
   * always sees both done. Waiting for the timer thread here instead would make {@code
   * Future.cancel} or a task's completion wait for a task that waits for them.
   */
  private void tryTerminate() {
    while (true) {
      int current = state.get();
      if (current == RUNNING || current == TERMINATED) {
        return;
      }
      if (current != TIDYING) {
        if (outstanding.get() != 0) {
          return;
        }
        if (!state.compareAndSet(current, TIDYING)) {
          continue; // shutdownNow moved the state on meanwhile
        }
        timer.stopAsync();
      }
      if (timer.loopHasEnded() && state.compareAndSet(TIDYING, TERMINATED)) {
        terminated.countDown();
      }
      return;
    }
  }

  /**
   * The timer thread has ended: the executor terminates if it was waiting for that. If the thread
   * failed, the executor shuts down at once and completes the future of every task that never ran
   * with the failure, so that none is left hanging.
   */
  private void timerEnded() {
    Throwable failure = timer.failure();
    if (failure != null) {
      moveTo(STOP);
      for (Timeout timeout : timer.loop.takeUnrun()) {
        ((ScheduledTask<?>) timeout.task()).fail(new RejectedExecutionException(
            "the timer thread failed before the task ran: " + failure, failure));
      }
    }
    // Tasks the timer met after shutdownNow had taken the others (see TimerLoop.stray): too late
    // to return them, and they never run.
    for (Timeout timeout : timer.loop.takeLeftovers()) {
      ((ScheduledTask<?>) timeout.task()).cancel(false);
    }
    tryTerminate();
  }
}
