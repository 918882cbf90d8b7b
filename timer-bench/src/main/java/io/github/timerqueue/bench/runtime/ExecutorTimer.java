package io.github.timerqueue.bench.runtime;

import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The JDK's {@link ScheduledThreadPoolExecutor} with one thread and {@code removeOnCancel}, so a
 * cancelled task leaves its heap at once instead of at its deadline.
 */
final class ExecutorTimer implements RuntimeTimer {
  private final ScheduledThreadPoolExecutor executor;
  private final String threadName;

  ExecutorTimer(String threadName) {
    this.threadName = threadName;
    this.executor = new ScheduledThreadPoolExecutor(
        1, runnable -> NettyTimer.daemon(runnable, threadName));
    executor.setRemoveOnCancelPolicy(true);
    // The thread starts lazily at the first task; start it now so an idle executor has a thread.
    executor.prestartAllCoreThreads();
  }

  @Override
  public Object schedule(long delayNanos, Action action) {
    return executor.schedule((Runnable) action, delayNanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public boolean cancel(Object handle) {
    return ((Future<?>) handle).cancel(false);
  }

  @Override
  public boolean reschedule(Object handle, long delayNanos) {
    throw new UnsupportedOperationException("ScheduledThreadPoolExecutor has no reschedule");
  }

  @Override
  public String threadName() {
    return threadName;
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }
}
