package io.github.timerqueue.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.timerqueue.TimerHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** What the skeleton asks of a strategy's four operations, seen through a log of the calls. */
class AbstractTimerQueueTest {

  /** A strategy that only records which of its operations the skeleton calls, and in what order. */
  private static final class LoggingQueue extends AbstractTimerQueue<String, LoggingQueue.Timer> {
    final List<String> calls = new ArrayList<>();

    final class Timer implements TimerHandle<String> {
      final String payload;
      long deadline;
      boolean pending;

      Timer(String payload) {
        this.payload = payload;
      }

      LoggingQueue queue() {
        return LoggingQueue.this;
      }

      @Override
      public String payload() {
        return payload;
      }

      @Override
      public long deadline() {
        return deadline;
      }

      @Override
      public boolean isPending() {
        return pending;
      }
    }

    @Override
    protected Timer newTimer(String payload) {
      calls.add("new " + payload);
      return new Timer(payload);
    }

    @Override
    protected Timer ownedOrNull(TimerHandle<String> timer) {
      return timer instanceof Timer owned && owned.queue() == this ? owned : null;
    }

    @Override
    protected void arm(Timer timer, long deadline) {
      calls.add("arm " + timer.payload + " at " + deadline);
      timer.deadline = deadline;
      timer.pending = true;
    }

    @Override
    protected void remove(Timer timer) {
      calls.add("remove " + timer.payload);
      timer.pending = false;
    }

    @Override
    public String strategy() {
      return "logging";
    }

    @Override
    public long now() {
      return 0;
    }

    @Override
    public TimerHandle<String> scheduleWithin(long earliest, long latest, String payload) {
      return schedule(earliest, payload);
    }

    @Override
    public int advance(long now, Consumer<? super TimerHandle<String>> onExpired, int limit) {
      return 0;
    }

    @Override
    public long nextExpiryDelay() {
      return Long.MAX_VALUE;
    }

    @Override
    public int size() {
      return 0;
    }

    @Override
    public void clear() {}

    @Override
    public int drain(Consumer<? super TimerHandle<String>> sink) {
      return 0;
    }

    @Override
    public void forEach(Consumer<? super TimerHandle<String>> action) {}
  }

  @Test
  void scheduleCreatesThenArms() {
    LoggingQueue queue = new LoggingQueue();
    TimerHandle<String> timer = queue.schedule(42, "a");
    assertThat(queue.calls).containsExactly("new a", "arm a at 42");
    assertThat(timer.isPending()).isTrue();
    assertThat(timer.deadline()).isEqualTo(42);
  }

  @Test
  void cancelRemovesOnlyAPendingTimer() {
    LoggingQueue queue = new LoggingQueue();
    TimerHandle<String> timer = queue.schedule(42, "a");
    queue.calls.clear();

    assertThat(queue.cancel(timer)).isTrue();
    assertThat(queue.cancel(timer)).isFalse();
    assertThat(queue.calls).containsExactly("remove a");
  }

  @Test
  void rescheduleRemovesAPendingTimerBeforeArmingIt() {
    LoggingQueue queue = new LoggingQueue();
    TimerHandle<String> timer = queue.schedule(42, "a");
    queue.calls.clear();

    assertThat(queue.reschedule(timer, 7)).isTrue();
    queue.cancel(timer);
    assertThat(queue.reschedule(timer, 9)).isFalse();
    assertThat(queue.calls)
        .containsExactly("remove a", "arm a at 7", "remove a", "arm a at 9");
  }

  @Test
  void refusesNullsAndForeignHandlesBeforeCallingTheStrategy() {
    LoggingQueue queue = new LoggingQueue();
    LoggingQueue other = new LoggingQueue();
    TimerHandle<String> foreign = other.schedule(1, "theirs");

    assertThatThrownBy(() -> queue.schedule(1, null)).isInstanceOf(NullPointerException.class)
        .hasMessage("payload");
    assertThatThrownBy(() -> queue.cancel(null)).isInstanceOf(NullPointerException.class)
        .hasMessage("timer");
    assertThatThrownBy(() -> queue.reschedule(null, 1)).isInstanceOf(NullPointerException.class)
        .hasMessage("timer");
    assertThatThrownBy(() -> queue.cancel(foreign)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("was not created by this queue");
    assertThatThrownBy(() -> queue.reschedule(foreign, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("was not created by this queue");
    assertThat(queue.calls).isEmpty();
    assertThat(foreign.isPending()).isTrue();
  }
}
