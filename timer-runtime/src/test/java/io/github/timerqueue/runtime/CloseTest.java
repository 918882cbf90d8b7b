package io.github.timerqueue.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@code close()} of the service and of the executor, with the semantics of Java 19's {@code
 * ExecutorService.close()}; and the small accessors that go with a handle's owner.
 */
@org.junit.jupiter.api.Timeout(30)
class CloseTest {
  private final AtomicReference<Thread> timerThread = new AtomicReference<>();

  private TimerService.Builder builder() {
    return TimerService.builder().strategy("wheel").threadFactory(task -> {
      Thread thread = new Thread(task, "close-test-timer");
      thread.setDaemon(true);
      timerThread.set(thread);
      return thread;
    });
  }

  @Test
  void closingAServiceStopsItAndWaitsForItsThread() {
    TimerService service = builder().build();
    Timeout later;
    try (TimerService timers = service) {
      later = timers.newTimeout(t -> { }, 1, TimeUnit.HOURS);
    }
    assertThat(service.isStopped()).isTrue();
    assertThat(timerThread.get().isAlive()).isFalse();
    assertThat(later.isCancelled()).isTrue();
    service.close(); // again: nothing more to do
  }

  @Test
  void closingAServiceKeepsTheCallersInterruptAndStillWaits() {
    TimerService service = builder().build();
    Thread.currentThread().interrupt();
    try {
      service.close();
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
      assertThat(timerThread.get().isAlive()).isFalse();
    } finally {
      Thread.interrupted();
    }
  }

  @Test
  void closingAServiceFromItsOwnTaskReturnsAndTheThreadEndsAfterTheTask() throws Exception {
    TimerService service = builder().build();
    CountDownLatch closed = new CountDownLatch(1);
    service.newTimeout(t -> {
      t.timer().close();
      closed.countDown();
    }, 1, TimeUnit.MILLISECONDS);

    assertThat(closed.await(10, TimeUnit.SECONDS)).isTrue();
    timerThread.get().join();
    assertThat(service.isStopped()).isTrue();
  }

  @Test
  void closingAnExecutorRunsItsDelayedTasksFirstByDefault() throws Exception {
    TimerScheduledExecutorService executor = builder().buildScheduledExecutorService();
    ScheduledFuture<String> delayed = executor.schedule(() -> "ran", 50, TimeUnit.MILLISECONDS);

    executor.close();

    assertThat(executor.isTerminated()).isTrue();
    assertThat(delayed.get(0, TimeUnit.MILLISECONDS)).isEqualTo("ran");
    timerThread.get().join(); // terminated as the thread ends, so it ends without more work
  }

  @Test
  void anInterruptWhileClosingAnExecutorStopsItNowAndIsKept() throws Exception {
    TimerScheduledExecutorService executor = builder().buildScheduledExecutorService();
    ScheduledFuture<?> hourly = executor.schedule(() -> { }, 1, TimeUnit.HOURS);
    Thread.currentThread().interrupt();
    try {
      executor.close();
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    } finally {
      Thread.interrupted();
    }
    assertThat(executor.isTerminated()).isTrue();
    assertThat(hourly.isDone()).isFalse(); // handed back by shutdownNow, never run
  }

  @Test
  void anInterruptWhileWaitingInCloseStopsTheExecutorNow() throws Exception {
    TimerScheduledExecutorService executor = builder().buildScheduledExecutorService();
    ScheduledFuture<?> hourly = executor.schedule(() -> { }, 1, TimeUnit.HOURS);
    AtomicReference<Boolean> interruptKept = new AtomicReference<>();
    Thread closer = new Thread(() -> {
      executor.close();
      interruptKept.set(Thread.currentThread().isInterrupted());
    });
    closer.start();
    while (!executor.isShutdown()) {
      Thread.onSpinWait();
    }
    closer.interrupt();
    closer.join();

    assertThat(interruptKept.get()).isTrue();
    assertThat(executor.isTerminated()).isTrue();
    assertThat(hourly.isDone()).isFalse();
  }

  @Test
  void closingAnExecutorFromItsOwnTaskShutsItDownWithoutWaitingForItself() throws Exception {
    TimerScheduledExecutorService executor = builder().buildScheduledExecutorService();
    ScheduledFuture<?> closing = executor.schedule(executor::close, 1, TimeUnit.MILLISECONDS);

    closing.get(10, TimeUnit.SECONDS);
    assertThat(executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void closingAnExecutorFromItsTaskOnTheTaskExecutorDoesNotWaitForItself() throws Exception {
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      TimerScheduledExecutorService executor =
          builder().taskExecutor(pool).buildScheduledExecutorService();
      ScheduledFuture<?> closing = executor.schedule(executor::close, 1, TimeUnit.MILLISECONDS);

      closing.get(10, TimeUnit.SECONDS);
      assertThat(executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aClosedExecutorIsClosedAgainAtOnce() throws Exception {
    TimerScheduledExecutorService executor = builder().buildScheduledExecutorService();
    executor.close();
    CompletableFuture.runAsync(executor::close).get(10, TimeUnit.SECONDS);
    assertThat(executor.isTerminated()).isTrue();
  }

  // ---- the owner of a handle and the count of pending timeouts ----

  @Test
  void aTimeoutKnowsItsServiceAndThePendingCountFollowsEveryChange() {
    ManualTicker ticker = new ManualTicker();
    TimerService timers = TimerService.builder().ticker(ticker).build();
    Timeout first = timers.newTimeout(t -> { }, 10, TimeUnit.MILLISECONDS);
    Timeout second = timers.newTimeout(t -> { }, 20, TimeUnit.MILLISECONDS);
    Timeout third = timers.newTimeout(t -> { }, 30, TimeUnit.MILLISECONDS);
    assertThat(first.timer()).isSameAs(timers);
    assertThat(timers.pendingTimeouts()).isEqualTo(3);

    second.cancel();
    assertThat(timers.pendingTimeouts()).isEqualTo(2);
    ticker.advance(Duration.ofMillis(10));
    assertThat(timers.pendingTimeouts()).isEqualTo(1);
    first.reschedule(5, TimeUnit.MILLISECONDS);
    third.reschedule(5, TimeUnit.MILLISECONDS); // moved, still one timeout
    assertThat(timers.pendingTimeouts()).isEqualTo(2).isEqualTo(timers.stats().pending());
    timers.stop();
    assertThat(timers.pendingTimeouts()).isZero();
  }
}
