package io.github.timerqueue.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.List;
import java.util.ResourceBundle;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Where a task's failure goes: to the handler the user set (on the service, or on the thread), and
 * otherwise to the service's {@link System.Logger}, never to stderr by default.
 */
@org.junit.jupiter.api.Timeout(30)
class FailureLoggingTest {
  private final ManualTicker ticker = new ManualTicker();
  private final IllegalStateException boom = new IllegalStateException("boom");

  /** A System.Logger that keeps what it is given. */
  private static final class RecordingLogger implements System.Logger {
    final List<String> messages = new CopyOnWriteArrayList<>();
    final List<Throwable> thrown = new CopyOnWriteArrayList<>();

    @Override
    public String getName() {
      return TimerService.LOGGER_NAME;
    }

    @Override
    public boolean isLoggable(Level level) {
      return true;
    }

    @Override
    public void log(Level level, Supplier<String> message, Throwable failure) {
      messages.add(level + " " + message.get());
      thrown.add(failure);
    }

    @Override
    public void log(Level level, ResourceBundle bundle, String message, Throwable failure) {
      messages.add(level + " " + message);
      thrown.add(failure);
    }

    @Override
    public void log(Level level, ResourceBundle bundle, String format, Object... params) {
      messages.add(level + " " + format);
    }
  }

  private TimerService failingService(TimerService.Builder builder, RecordingLogger logger) {
    TimerService timers = builder.strategy("heap").ticker(ticker).build();
    timers.logger = logger;
    timers.newTimeout(t -> {
      throw boom;
    }, 1, TimeUnit.MILLISECONDS);
    return timers;
  }

  /** Advances on a new thread, on which no handler is set. */
  private void advanceOnAPlainThread(Thread.UncaughtExceptionHandler own) throws Exception {
    Thread thread = new Thread(() -> ticker.advance(Duration.ofMillis(1)), "plain");
    if (own != null) {
      thread.setUncaughtExceptionHandler(own);
    }
    thread.start();
    thread.join();
  }

  @Test
  void withoutAHandlerAFailureIsLoggedAsAWarningWithItsCause() throws Exception {
    assumeTrue(Thread.getDefaultUncaughtExceptionHandler() == null, "no JVM-wide handler set");
    RecordingLogger logger = new RecordingLogger();
    TimerService timers = failingService(TimerService.builder(), logger);

    advanceOnAPlainThread(null);

    assertThat(logger.thrown).containsExactly(boom);
    assertThat(logger.messages).singleElement().asString()
        .startsWith("WARNING").contains("heap").contains("plain");
    timers.close();
  }

  @Test
  void aHandlerSetOnTheServiceGetsTheFailureInstead() throws Exception {
    RecordingLogger logger = new RecordingLogger();
    List<Throwable> handled = new CopyOnWriteArrayList<>();
    TimerService timers = failingService(
        TimerService.builder().uncaughtExceptionHandler((thread, failure) -> handled.add(failure)),
        logger);

    advanceOnAPlainThread(null);

    assertThat(handled).containsExactly(boom);
    assertThat(logger.thrown).isEmpty();
    timers.close();
  }

  @Test
  void aHandlerSetOnTheThreadGetsTheFailureInstead() throws Exception {
    RecordingLogger logger = new RecordingLogger();
    List<Throwable> handled = new CopyOnWriteArrayList<>();
    TimerService timers = failingService(TimerService.builder(), logger);

    advanceOnAPlainThread((thread, failure) -> handled.add(failure));

    assertThat(handled).containsExactly(boom);
    assertThat(logger.thrown).isEmpty();
    timers.close();
  }

  @Test
  void theServiceLogsUnderItsDocumentedName() {
    TimerService timers = TimerService.builder().ticker(ticker).build();
    assertThat(timers.logger.getName()).isEqualTo(TimerService.LOGGER_NAME)
        .isEqualTo(TimerService.class.getName());
    timers.close();
  }
}
