package io.github.timerqueue.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.testing.FakeTicker;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A timer service on a fake ticker whose loop the test turns by hand, so that every step is
 * deterministic: {@link #at} moves the ticker and runs one turn of the loop.
 */
final class ManualTimer {
  static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

  final FakeTicker ticker = new FakeTicker();
  final List<Throwable> failures = new CopyOnWriteArrayList<>();
  final long start;
  final TimerService service;

  ManualTimer(String strategy) {
    this(strategy, 0, TimerService.builder());
  }

  ManualTimer(String strategy, long startNanos, TimerService.Builder builder) {
    ticker.advance(startNanos);
    this.start = startNanos;
    this.service = builder
        .strategy(strategy)
        .resolution(Duration.ofMillis(1))
        .ticker(ticker::read)
        .uncaughtExceptionHandler((thread, failure) -> failures.add(failure))
        .manualLoop()
        .build();
  }

  /** Milliseconds since the start, as the ticker reads now (fractions cut off). */
  long millis() {
    return (ticker.read() - start) / MS;
  }

  /** Moves the ticker to {@code millis} after the start and runs one turn; returns the sleep. */
  long at(long millis) {
    long target = start + millis * MS;
    assertThat(target - ticker.read()).as("the ticker never goes back").isGreaterThanOrEqualTo(0);
    ticker.advance(target - ticker.read());
    return service.runOnce();
  }

  /**
   * Runs turns at each millisecond from the current one up to {@code millis}, skipping those a
   * task has moved the ticker past.
   */
  void stepTo(long millis) {
    for (long now = millis(); now <= millis; now = Math.max(now + 1, millis())) {
      at(now);
    }
  }

  /** Runs turns at the current time until the loop would sleep. */
  long settle() {
    for (int turns = 0; turns < 1000; turns++) {
      long sleep = service.runOnce();
      if (sleep != 0) {
        return sleep;
      }
    }
    throw new AssertionError("the loop never went to sleep");
  }

  Timeout schedule(TimerTask task, long delayMillis) {
    return service.newTimeout(task, delayMillis, TimeUnit.MILLISECONDS);
  }
}
