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
  private static final VarHandle COUNTED;

  static {
    try {
      COUNTED = MethodHandles.lookup().findVarHandle(ScheduledTask.class, "counted", boolean.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final TimerScheduledExecutorService executor;
  /** Nanoseconds: 0 runs once, more than 0 at a fixed rate, less than 0 with a fixed delay. */
  private final long period;
  final TimerEntry timeout;
  /**
   * Whether the executor counts this task as outstanding: from when it is scheduled until it is
   * done or handed back. A task that was made by {@code newTaskFor} but never scheduled (an
   * ExecutorCompletionService wraps such tasks in its own) is never counted.
   */
  @SuppressWarnings("unused") // accessed through COUNTED
  private volatile boolean counted;

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
    if (!executor.canRun(this)) {
      cancel(false);
    } else if (period == 0) {
      super.run();
    } else if (super.runAndReset()) {
      long next = period > 0 ? timeout.deadline() + period : executor.timer.ticker.read() - period;
      executor.rearm(this, next);
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

  /** The task enters the executor's outstanding count. */
  void count() {
    COUNTED.setVolatile(this, true);
  }

  /** Returns {@code true} if the task was counted and now leaves the count; once. */
  boolean release() {
    return COUNTED.compareAndSet(this, true, false);
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
