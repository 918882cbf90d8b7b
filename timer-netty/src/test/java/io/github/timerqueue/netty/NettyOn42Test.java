package io.github.timerqueue.netty;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.timerqueue.runtime.ManualTicker;
import io.github.timerqueue.runtime.TimerService;
import io.netty.util.Timeout;
import io.netty.util.TimerTask;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The adapter on Netty 4.2: run only by the build's {@code netty-4.2} test execution, with
 * netty-common 4.2 on the class path in place of the 4.1 the module compiles against. Its tasks
 * override 4.2's {@code TimerTask.cancelled(Timeout)} without {@code @Override}, which 4.1 would
 * refuse at compile time.
 */
@org.junit.jupiter.api.Timeout(10)
class NettyOn42Test {
  @RegisterExtension final Timers timers = new Timers();

  /** A task that records each call of 4.2's callback, and the thread it came on. */
  private static final class CleaningTask implements TimerTask {
    final List<Timeout> cancelled = new CopyOnWriteArrayList<>();
    final List<Thread> threads = new CopyOnWriteArrayList<>();
    final List<Timeout> ran = new CopyOnWriteArrayList<>();

    @Override
    public void run(Timeout timeout) {
      ran.add(timeout);
    }

    @SuppressWarnings("unused") // overrides TimerTask.cancelled on 4.2
    public void cancelled(Timeout timeout) {
      cancelled.add(timeout);
      threads.add(Thread.currentThread());
    }
  }

  @Test
  void theNettyOnTheClassPathIs42() throws Exception {
    assertThat(TimerTask.class.getMethod("cancelled", Timeout.class).isDefault()).isTrue();
  }

  @Strategies.Each
  void cancelCallsTheTasksCallbackOnceOnTheCancellingThread(String strategy) {
    CleaningTask task = new CleaningTask();
    Timeout timeout = timers.of(strategy).newTimeout(task, 1, SECONDS);

    assertThat(timeout.cancel()).isTrue();
    assertThat(timeout.cancel()).isFalse();

    assertThat(task.cancelled).containsExactly(timeout);
    assertThat(task.threads).containsExactly(Thread.currentThread());
    assertThat(task.ran).isEmpty();
  }

  @Test
  void aTimeoutThatExpiredIsNotCancelledAndItsCallbackNotCalled() {
    ManualTicker ticker = new ManualTicker();
    NettyTimer timer = NettyTimer.create(TimerService.builder().strategy("wheel").ticker(ticker));
    CleaningTask task = new CleaningTask();
    Timeout timeout = timer.newTimeout(task, 5, MILLISECONDS);

    ticker.advance(Duration.ofMillis(5));

    assertThat(task.ran).containsExactly(timeout);
    assertThat(timeout.cancel()).isFalse();
    assertThat(task.cancelled).isEmpty();
    timer.stop();
  }
}
