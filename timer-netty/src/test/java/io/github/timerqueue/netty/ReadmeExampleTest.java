package io.github.timerqueue.netty;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.timerqueue.runtime.TimerService;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The Netty adapter example of README, as written there: it must compile and do what it says. */
class ReadmeExampleTest {

  @Test
  void theReadmeExampleCompilesAndRuns() {
    // ---- README: from here ----
    Timer timer = NettyTimer.create(TimerService.builder()
        .strategy("wheel")                  // any name in TimerQueues.strategies()
        .resolution(Duration.ofMillis(1))
        .maxPendingTimeouts(1_000_000));    // beyond it, newTimeout throws RejectedExecutionException
    Timeout idle = timer.newTimeout(t -> System.out.println("idle"), 30, TimeUnit.SECONDS);
    idle.cancel();                          // on activity
    timer.stop();                           // returns the timeouts that never ran
    // ---- README: to here ----

    assertThat(idle.isCancelled()).isTrue();
    assertThat(timer.stop()).isEmpty();
    assertThat(((NettyTimer) timer).strategy()).isEqualTo("wheel");
  }
}
