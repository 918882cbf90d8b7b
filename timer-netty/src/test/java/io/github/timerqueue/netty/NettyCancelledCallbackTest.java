package io.github.timerqueue.netty;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.timerqueue.runtime.ManualTicker;
import io.github.timerqueue.runtime.TimerService;
import io.netty.util.Timeout;
import io.netty.util.TimerTask;
import java.lang.invoke.MethodHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Netty 4.2's {@code TimerTask.cancelled(Timeout)} callback, which the adapter calls through a
 * method handle found at run time, since it compiles against 4.1. These tests run on 4.1, where
 * {@link TimerTask} has no such method; a 4.2-shaped interface stands in for 4.2's. {@link
 * NettyOn42Test} runs the adapter on the real 4.2.
 */
@org.junit.jupiter.api.Timeout(10)
class NettyCancelledCallbackTest {
  @RegisterExtension final Timers timers = new Timers();

  @Test
  void theCallbackIsFoundWhereTheInterfaceDeclaresItAndCalledOnTheTasksOverride() {
    MethodHandle callback = NettyTimeout.cancelledCallback(Netty42TimerTask.class);
    List<Timeout> cancelled = new ArrayList<>();
    Netty42TimerTask task = new Netty42TimerTask() {
      @Override
      public void run(Timeout timeout) {}

      @Override
      public void cancelled(Timeout timeout) {
        cancelled.add(timeout);
      }
    };
    Timeout timeout = timers.of("heap").newTimeout(task, 1, SECONDS);

    assertThat(callback).isNotNull();
    NettyTimeout.callCancelled(callback, task, timeout);

    assertThat(cancelled).containsExactly(timeout);
  }

  @Test
  void whatTheCallbackThrowsIsPassedOnUnchanged() {
    IllegalStateException failure = new IllegalStateException("cleanup failed");
    Netty42TimerTask task = new Netty42TimerTask() {
      @Override
      public void run(Timeout timeout) {}

      @Override
      public void cancelled(Timeout timeout) {
        throw failure;
      }
    };
    MethodHandle callback = NettyTimeout.cancelledCallback(Netty42TimerTask.class);

    assertThatThrownBy(() -> NettyTimeout.callCancelled(callback, task, null)).isSameAs(failure);
  }

  @Test
  void onNetty41ThereIsNoCallbackAndAMethodThatOnlyHasItsNameIsNotCalled() throws Exception {
    assertThat(TimerTask.class.getMethods()).extracting("name").doesNotContain("cancelled");
    assertThat(NettyTimeout.cancelledCallback(TimerTask.class)).isNull();
    List<Timeout> called = new ArrayList<>();
    TimerTask task = new TimerTask() {
      @Override
      public void run(Timeout timeout) {}

      @SuppressWarnings("unused") // would be an override on 4.2 only
      public void cancelled(Timeout timeout) {
        called.add(timeout);
      }
    };
    List<Throwable> failures = new ArrayList<>();
    NettyTimer timer = timers.of("wheel",
        builder -> builder.uncaughtExceptionHandler((thread, failure) -> failures.add(failure)));
    Timeout timeout = timer.newTimeout(task, 1, SECONDS);

    assertThat(timeout.cancel()).isTrue();

    assertThat(called).isEmpty();
    assertThat(failures).isEmpty();
    assertThat(timeout.isCancelled()).isTrue();
  }

  @Test
  void theAdapterRunsOnTheTestClockToo() {
    ManualTicker ticker = new ManualTicker();
    NettyTimer timer = NettyTimer.create(TimerService.builder().strategy("wheel").ticker(ticker));
    List<Long> ranAt = new ArrayList<>();
    Timeout timeout = timer.newTimeout(t -> ranAt.add(ticker.read()), 5, MILLISECONDS);

    ticker.advance(Duration.ofMillis(4));
    assertThat(ranAt).isEmpty();
    ticker.advance(Duration.ofMillis(1));

    assertThat(ranAt).containsExactly(MILLISECONDS.toNanos(5));
    assertThat(timeout.isExpired()).isTrue();
    assertThat(timeout.timer()).isSameAs(timer);
    timer.stop();
    assertThatThrownBy(() -> timer.newTimeout(t -> { }, 1, MILLISECONDS))
        .isInstanceOf(IllegalStateException.class);
  }
}
