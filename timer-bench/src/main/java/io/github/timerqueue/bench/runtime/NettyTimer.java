package io.github.timerqueue.bench.runtime;

import io.netty.util.HashedWheelTimer;
import io.netty.util.Timeout;
import java.util.concurrent.TimeUnit;

/**
 * Netty's {@link HashedWheelTimer} as servers configure it for timeouts: 1 ms tick, 512 slots.
 * Its worker ticks every millisecond whether or not anything is scheduled.
 */
final class NettyTimer implements RuntimeTimer {
  private final HashedWheelTimer timer;
  private final String threadName;

  NettyTimer(String threadName) {
    this.threadName = threadName;
    this.timer = new HashedWheelTimer(
        runnable -> daemon(runnable, threadName), 1, TimeUnit.MILLISECONDS, 512);
    // The worker starts lazily at the first timeout; start it now so an idle timer has a thread.
    timer.start();
  }

  @Override
  public Object schedule(long delayNanos, Action action) {
    return timer.newTimeout(action, delayNanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public boolean cancel(Object handle) {
    return ((Timeout) handle).cancel();
  }

  @Override
  public boolean reschedule(Object handle, long delayNanos) {
    throw new UnsupportedOperationException("HashedWheelTimer has no reschedule");
  }

  @Override
  public String threadName() {
    return threadName;
  }

  @Override
  public void close() {
    timer.stop();
  }

  static Thread daemon(Runnable runnable, String name) {
    Thread thread = new Thread(runnable, name);
    thread.setDaemon(true);
    return thread;
  }
}
