package io.github.timerqueue.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.testing.NullPointerTester;
import io.github.timerqueue.TimerQueues;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** What the builder accepts, and the messages it rejects bad values with. */
class TimerServiceBuilderTest {

  @Test
  void defaultsToTheHeapWithAMillisecondResolution() {
    TimerService timers = TimerService.builder().manualLoop().build();

    assertThat(timers.strategy()).isEqualTo("heap");
    assertThat(timers.resolution()).isEqualTo(Duration.ofMillis(1));
    assertThat(timers.isStopped()).isFalse();
    timers.stop();
  }

  @Test
  void anUnknownStrategyIsRejectedWithTheAvailableOnes() {
    assertThatThrownBy(() -> TimerService.builder().strategy("nope").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nope")
        .hasMessageContaining(TimerQueues.strategies().toString());
  }

  @Test
  void anOptionTheStrategyDoesNotAcceptIsRejected() {
    assertThatThrownBy(() -> TimerService.builder().strategy("heap").option("levels", "3").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("levels");
  }

  @Test
  void badValuesAreRejectedWithWhatIsAllowed() {
    TimerService.Builder builder = TimerService.builder();

    assertThatThrownBy(() -> builder.resolution(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("resolution must be between 1 ns")
        .hasMessageContaining("PT0S");
    assertThatThrownBy(() -> builder.resolution(Duration.ofDays(365L * 1_000)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("resolution");
    assertThatThrownBy(() -> builder.maxPendingTimeouts(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxPendingTimeouts must be at least 1, but was 0");
    assertThatThrownBy(() -> builder.threadName(""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("threadName");
  }

  @Test
  void theResolutionIsPassedToTheQueue() {
    ManualTimer timer = new ManualTimer("heap", 0, TimerService.builder());
    TimerService coarse = TimerService.builder()
        .resolution(Duration.ofMillis(10))
        .ticker(timer.ticker::read)
        .manualLoop()
        .build();
    coarse.newTimeout(t -> {}, 50, TimeUnit.MILLISECONDS);
    coarse.runOnce();

    coarse.newTimeout(t -> {}, 41, TimeUnit.MILLISECONDS); // due by 50 ms anyway
    assertThat(coarse.loop.wakeSignals()).isZero();
    coarse.newTimeout(t -> {}, 39, TimeUnit.MILLISECONDS); // due by 40 ms
    assertThat(coarse.loop.wakeSignals()).isEqualTo(1);
    assertThat(coarse.resolution()).isEqualTo(Duration.ofMillis(10));
  }

  @Test
  void nullsAreRejectedWithTheParameterName() {
    TimerService timers = TimerService.builder().manualLoop().build();
    new NullPointerTester()
        .setDefault(TimeUnit.class, TimeUnit.SECONDS)
        .ignore(getMethod("setUncaughtExceptionHandler"))
        .testAllPublicInstanceMethods(timers);
    new NullPointerTester().testAllPublicInstanceMethods(TimerService.builder());
    assertThatThrownBy(() -> timers.newTimeout(null, 1, TimeUnit.SECONDS))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("task");
    Timeout timeout = timers.newTimeout(t -> {}, 1, TimeUnit.SECONDS);
    new NullPointerTester().testAllPublicInstanceMethods(timeout);
  }

  private static java.lang.reflect.Method getMethod(String name) {
    for (java.lang.reflect.Method method : TimerService.class.getMethods()) {
      if (method.getName().equals(name)) {
        return method;
      }
    }
    throw new AssertionError(name);
  }

  @Test
  void aNullHandlerRestoresTheDefault() {
    TimerService timers = TimerService.builder().manualLoop().build();
    timers.setUncaughtExceptionHandler(null); // documented: back to the thread's handler
    timers.stop();
  }
}
