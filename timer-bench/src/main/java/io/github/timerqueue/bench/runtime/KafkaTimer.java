package io.github.timerqueue.bench.runtime;

import org.apache.kafka.server.util.timer.SystemTimer;
import org.apache.kafka.server.util.timer.SystemTimerReaper;
import org.apache.kafka.server.util.timer.TimerTask;

/**
 * Kafka's {@link SystemTimer} as its request purgatory runs it: wrapped in a {@link
 * SystemTimerReaper}, whose thread calls {@code advanceClock(200)} in a loop (a {@code DelayQueue}
 * poll of up to 200 ms). Expired tasks run on the timer's own single-thread executor. Its clock
 * is in milliseconds, so delays are rounded up to whole milliseconds.
 */
final class KafkaTimer implements RuntimeTimer {
  private final SystemTimerReaper timer;
  private final String threadName;

  KafkaTimer(String threadName) {
    this.threadName = threadName;
    this.timer = new SystemTimerReaper(threadName, new SystemTimer(threadName));
  }

  @Override
  public Object schedule(long delayNanos, Action action) {
    Task task = new Task((delayNanos + 999_999) / 1_000_000, action);
    timer.add(task);
    return task;
  }

  @Override
  public boolean cancel(Object handle) {
    Task task = (Task) handle;
    // Kafka's cancel returns nothing; report whether it was still to run, as the others do.
    boolean wasCancelled = task.isCancelled();
    task.cancel();
    return !wasCancelled;
  }

  @Override
  public boolean reschedule(Object handle, long delayNanos) {
    throw new UnsupportedOperationException("Kafka's SystemTimer has no reschedule");
  }

  @Override
  public String threadName() {
    return threadName;
  }

  @Override
  public void close() {
    try {
      timer.close();
    } catch (Exception e) {
      throw new IllegalStateException("closing Kafka's SystemTimer", e);
    }
  }

  /** Kafka's task type: its delay is fixed at construction, so one is made per timeout. */
  private static final class Task extends TimerTask {
    private final Action action;

    Task(long delayMs, Action action) {
      super(delayMs);
      this.action = action;
    }

    @Override
    public void run() {
      action.run();
    }
  }
}
