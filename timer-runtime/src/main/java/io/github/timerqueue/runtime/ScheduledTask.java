package io.github.timerqueue.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.Callable;
import java.util.concurrent.Delayed;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A task of a {@link TimerScheduledExecutorService}: the {@link java.util.concurrent.ScheduledFuture}
 * returned to the caller, and the {@link TimerTask} of its own {@link TimerEntry}. A periodic task
 * re-arms that same entry after each run, so periods allocate nothing.
 *
 * @param <V> the result type
 */
final class ScheduledTask<V> extends FutureTask<V> implements RunnableScheduledFuture<V>, TimerTask {
  /** Not counted as outstanding: never scheduled, or done or handed back since. */
  private static final int UNCOUNTED = 0;
  /** Counted, and not running. */
  private static final int WAITING = 1;
  /** Counted, and in {@link #run()}. */
  private static final int RUNNING = 2;
  /** In {@link #run()}, and done or handed back meanwhile: leaves the count when the run returns. */
  private static final int RUNNING_RELEASED = 3;

  private static final VarHandle PHASE;

  static {
    try {
      PHASE = MethodHandles.lookup().findVarHandle(ScheduledTask.class, "phase", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final TimerScheduledExecutorService executor;
  /** Nanoseconds: 0 runs once, more than 0 at a fixed rate, less than 0 with a fixed delay. */
  private final long period;
  final TimerEntry timeout;
  /**
   * Whether the executor counts this task as outstanding, and whether it runs: counted from when
   * it is scheduled until it is done or handed back and, if that happens while it runs, until the
   * run returns, so that the executor does not terminate while a cancelled task still runs. A task
   * that was made by {@code newTaskFor} but never scheduled (an ExecutorCompletionService wraps
   * such tasks in its own) is never counted.
   */
  @SuppressWarnings("unused") // accessed through PHASE
  private volatile int phase;
  /** The links of the executor's {@link OutstandingTasks}, guarded by {@link #stripe}'s monitor. */
  ScheduledTask<?> previous;
  ScheduledTask<?> next;
  /** The stripe of {@link OutstandingTasks} this task was added to. */
  OutstandingTasks.Stripe stripe;

  ScheduledTask(TimerScheduledExecutorService executor, Callable<V> callable) {
    super(callable);
    this.executor = executor;
    this.period = 0;
    this.timeout = executor.timer.newEntry(this);
  }

  ScheduledTask(
      TimerScheduledExecutorService executor, Runnable runnable, V result, long period) {
    super(runnable, result);
    this.executor = executor;
    this.period = period;
    this.timeout = executor.timer.newEntry(this);
  }

  /** The timer fired: run as the executor's state allows. */
  @Override
  public void run(Timeout expired) {
    run();
  }

  /**
   * Runs the task now: once, or for a periodic task one period, after which it is re-armed. Also
   * what a caller runs who took the task from {@link TimerScheduledExecutorService#shutdownNow()}.
   */
  @Override
  public void run() {
    // Untracked if not counted: a task handed back by shutdownNow, or one run twice at once.
    boolean tracked = PHASE.compareAndSet(this, WAITING, RUNNING);
    try {
      if (!executor.canRun(this)) {
        cancel(false);
      } else if (period == 0) {
        super.run();
      } else if (super.runAndReset()) {
        long nextRun =
            period > 0 ? timeout.deadline() + period : executor.timer.ticker.read() - period;
        executor.rearm(this, nextRun);
      }
    } finally {
      if (tracked) {
        runReturned();
      }
    }
  }

  /**
   * The run is over: the task leaves the count if it was released meanwhile. Otherwise it is
   * waiting again, re-armed; a {@code shutdown} that found it running skipped it, so it looks at
   * the state itself after saying it waits. One of the two sees the other (each writes before it
   * reads), and a task the shutdown policies drop is cancelled either way.
   */
  private void runReturned() {
    if (PHASE.compareAndSet(this, RUNNING, WAITING)) {
      if (!executor.canRun(this)) {
        cancelWaiting();
      }
    } else {
      PHASE.setVolatile(this, UNCOUNTED); // RUNNING_RELEASED: only this thread moves it on
      executor.taskLeft(this);
    }
  }

  /**
   * Cancels the task and, if it was waiting for its time, removes its timer at once rather than
   * at its deadline.
   */
  @Override
  public boolean cancel(boolean mayInterruptIfRunning) {
    boolean cancelled = super.cancel(mayInterruptIfRunning);
    if (cancelled) {
      timeout.cancel();
    }
    return cancelled;
  }

  /**
   * Cancels the task only if its timeout is still pending, removing it first: a task that has
   * fired, or that {@code shutdownNow} took back, is left alone. Returns whether it cancelled.
   */
  boolean cancelWaiting() {
    return timeout.cancel() && super.cancel(false);
  }

  /**
   * Completes the task with {@code failure}: a periodic task that could not be re-armed, or a task
   * the task executor rejected.
   */
  void fail(Throwable failure) {
    setException(failure);
  }

  @Override
  protected void done() {
    executor.taskDone(this);
  }

  /**
   * Cancels the task for {@code shutdown}'s policies unless it runs or was handed back: removes
   * its timer if pending, or, if the timer fired and the task has not started (handed to the task
   * executor and waiting there), cancels the future, so that it never starts. Returns whether it
   * cancelled.
   */
  boolean drop() {
    if ((int) PHASE.getVolatile(this) != WAITING) {
      return false; // running: re-armed only if the state allows it, see runReturned
    }
    if (timeout.cancel()) {
      return super.cancel(false);
    }
    return timeout.isExpired() && super.cancel(false);
  }

  /** Whether the task is counted and not running: what {@link #drop()} considers. */
  boolean isWaiting() {
    return (int) PHASE.getVolatile(this) == WAITING;
  }

  /** The task enters the executor's outstanding count. */
  void count() {
    PHASE.setVolatile(this, WAITING);
  }

  /**
   * Takes the task out of the count, once: returns {@code true} if it leaves it now; if it is
   * running, it leaves when the run returns ({@link TimerScheduledExecutorService#taskLeft}).
   */
  boolean release() {
    while (true) {
      int current = (int) PHASE.getVolatile(this);
      if (current == WAITING) {
        if (PHASE.compareAndSet(this, WAITING, UNCOUNTED)) {
          return true;
        }
      } else if (current == RUNNING) {
        if (PHASE.compareAndSet(this, RUNNING, RUNNING_RELEASED)) {
          return false;
        }
      } else {
        return false;
      }
    }
  }

  @Override
  public boolean isPeriodic() {
    return period != 0;
  }

  /** The deadline of the next run, in ticker nanoseconds. */
  long deadline() {
    return timeout.deadline();
  }

  @Override
  public long getDelay(TimeUnit unit) {
    return unit.convert(timeout.deadline() - executor.timer.ticker.read(), TimeUnit.NANOSECONDS);
  }

  /** Orders by deadline; equal deadlines compare equal. */
  @Override
  public int compareTo(Delayed other) {
    if (other == this) {
      return 0;
    }
    long difference = other instanceof ScheduledTask
        ? timeout.deadline() - ((ScheduledTask<?>) other).timeout.deadline()
        : getDelay(TimeUnit.NANOSECONDS) - other.getDelay(TimeUnit.NANOSECONDS);
    return Long.signum(difference);
  }
}
