package com.example.consumer;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.timerqueue.runtime.ManualTicker;
import io.github.timerqueue.runtime.Timeout;
import io.github.timerqueue.runtime.TimerService;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A user's test of an idle timeout on the test clock: the test moves the time itself and the
 * timeout fires on the test's own thread, with no timer thread and no sleeping (the example of
 * ManualTicker's documentation).
 */
class IdleTimeoutTest {
  @Test
  @org.junit.jupiter.api.Timeout(10)
  void theIdleTimeoutFiresAfterThirtySecondsWithoutActivityAndNotBefore() {
    ManualTicker ticker = new ManualTicker();
    AtomicReference<Thread> closedOn = new AtomicReference<>();
    try (TimerService timers = TimerService.builder().strategy("wheel").ticker(ticker).build()) {
      Timeout idle = timers.newTimeout(t -> closedOn.set(Thread.currentThread()), 30,
          TimeUnit.SECONDS);

      ticker.advance(Duration.ofSeconds(20));
      idle.reschedule(30, TimeUnit.SECONDS);   // activity: the idle timeout starts over
      ticker.advance(Duration.ofSeconds(29));
      assertFalse(idle.isExpired(), "49 s in, 29 s idle: not yet");

      ticker.advance(Duration.ofSeconds(1));
      assertTrue(idle.isExpired(), "30 s idle: closed");
      assertSame(Thread.currentThread(), closedOn.get(), "fired on the test's thread");
    }
  }
}
