package io.github.timerqueue.bench.runtime;

import io.github.timerqueue.runtime.Timeout;
import io.github.timerqueue.runtime.TimerService;
import io.github.timerqueue.runtime.TimerStats;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** A {@link TimerService} over a registered strategy, with a 1 ms resolution like the peers. */
final class ServiceTimer implements RuntimeTimer {
  private final TimerService service;
  private final String threadName;

  ServiceTimer(String strategy, String threadName) {
    this.threadName = threadName;
    this.service = TimerService.builder()
        .strategy(strategy)
        .resolution(Duration.ofMillis(1))
        .threadName(threadName)
        .build();
  }

  @Override
  public Object schedule(long delayNanos, Action action) {
    return service.newTimeout(action, delayNanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public boolean cancel(Object handle) {
    return ((Timeout) handle).cancel();
  }

  @Override
  public boolean reschedule(Object handle, long delayNanos) {
    return ((Timeout) handle).reschedule(delayNanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public String threadName() {
    return threadName;
  }

  /** The service's own counters, wake-ups among them. */
  TimerStats stats() {
    return service.stats();
  }

  @Override
  public void close() {
    service.stop();
  }
}
