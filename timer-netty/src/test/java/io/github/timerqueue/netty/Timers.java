package io.github.timerqueue.netty;

import io.github.timerqueue.runtime.TimerService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Makes the timers of one test and stops every one of them after it, whether it passed or not, so
 * that a failed test leaves no timer thread behind to disturb the next.
 */
final class Timers implements AfterEachCallback {
  private final List<NettyTimer> made = new ArrayList<>();

  /** A timer on {@code strategy} at 1 ms resolution. */
  NettyTimer of(String strategy) {
    return of(strategy, UnaryOperator.identity());
  }

  /** A timer on {@code strategy} at 1 ms resolution, with more settings from {@code configure}. */
  synchronized NettyTimer of(String strategy, UnaryOperator<TimerService.Builder> configure) {
    NettyTimer timer = NettyTimer.create(configure.apply(TimerService.builder()
        .strategy(strategy)
        .resolution(Duration.ofMillis(1))));
    made.add(timer);
    return timer;
  }

  @Override
  public synchronized void afterEach(ExtensionContext context) {
    for (NettyTimer timer : made) {
      timer.stop();
    }
    made.clear();
  }
}
