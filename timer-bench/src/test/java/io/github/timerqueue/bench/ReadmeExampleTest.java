package io.github.timerqueue.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerHandle;
import io.github.timerqueue.TimerQueue;
import io.github.timerqueue.TimerQueues;
import org.junit.jupiter.api.Test;

/**
 * Compiles and runs README's "Using it" example as it is written there, so that the snippet a
 * newcomer copies always compiles. This module is the one with every strategy on its class path.
 */
class ReadmeExampleTest {

  interface Connection {
    void close();
  }

  /** Closes connections that stay idle for 30 s; driven by one event-loop thread. */
  static final class IdleTimeouts {
    private static final long IDLE_NANOS = 30_000_000_000L;

    private final TimerQueue<Connection> timeouts = TimerQueues.create("wheel",
        TimerConfig.builder()
            .startTime(System.nanoTime())
            .resolution(1_000_000)      // 1 ms: a timer may fire up to 1 ms late, never early
            .build());

    TimerHandle<Connection> opened(Connection connection) {
      return timeouts.schedule(System.nanoTime() + IDLE_NANOS, connection);
    }

    void active(TimerHandle<Connection> idle) {      // the same handle, re-armed: nothing allocated
      timeouts.reschedule(idle, System.nanoTime() + IDLE_NANOS);
    }

    void closed(TimerHandle<Connection> idle) {
      timeouts.cancel(idle);
    }

    /** One turn of the event loop: fires what is due, returns how long the loop may sleep. */
    long turn() {
      timeouts.advance(System.nanoTime(), timer -> timer.payload().close());
      return timeouts.nextExpiryDelay();             // Long.MAX_VALUE when nothing is pending
    }
  }

  @Test
  void idleTimeoutsSleepUntilTheIdleDeadlineAndNotAtAllOnceClosed() {
    IdleTimeouts idleTimeouts = new IdleTimeouts();
    int[] closes = {0};
    TimerHandle<Connection> idle = idleTimeouts.opened(() -> closes[0]++);

    idleTimeouts.active(idle);
    long sleep = idleTimeouts.turn();
    // Up to the idle time, plus the one resolution by which the wheel may round a deadline up.
    assertThat(sleep).isPositive().isLessThanOrEqualTo(30_000_000_000L + 1_000_000);
    assertThat(idle.isPending()).isTrue();

    idleTimeouts.closed(idle);
    assertThat(idleTimeouts.turn()).isEqualTo(Long.MAX_VALUE);
    assertThat(closes[0]).isZero();
  }
}
