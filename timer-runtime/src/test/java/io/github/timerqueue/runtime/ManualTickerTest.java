package io.github.timerqueue.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The public test mode: a service built with a {@link ManualTicker} has no timer thread, and what
 * is due runs on the thread that advances the ticker, at the time it is due. Every test here would
 * hang or sleep if a timer thread were needed, hence the timeouts.
 */
@org.junit.jupiter.api.Timeout(30)
class ManualTickerTest {
  private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

  private final ManualTicker ticker = new ManualTicker();
  private final List<Throwable> failures = new CopyOnWriteArrayList<>();

  private TimerService service(String strategy) {
    return TimerService.builder()
        .strategy(strategy)
        .ticker(ticker)
        .uncaughtExceptionHandler((thread, failure) -> failures.add(failure))
        .build();
  }

  /** A task that records, for each run, its name, the time it read and the thread it ran on. */
  private final List<String> runs = new CopyOnWriteArrayList<>();

  private TimerTask recording(String name) {
    return timeout -> runs.add(name + "@" + ticker.read() / MS + " on "
        + (Thread.currentThread() == testThread ? "test" : Thread.currentThread().getName()));
  }

  private final Thread testThread = Thread.currentThread();

  @Strategies.Each
  void firesInDeadlineOrderOnTheAdvancingThreadEachAtItsOwnTime(String strategy) {
    TimerService timers = service(strategy);
    timers.newTimeout(recording("c"), 30, TimeUnit.MILLISECONDS);
    timers.newTimeout(recording("a"), 10, TimeUnit.MILLISECONDS);
    timers.newTimeout(recording("b"), 20, TimeUnit.MILLISECONDS);

    ticker.advance(Duration.ofMillis(100));

    assertThat(runs).containsExactly("a@10 on test", "b@20 on test", "c@30 on test");
    assertThat(ticker.read()).isEqualTo(100 * MS);
    assertThat(timers.pendingTimeouts()).isZero();
    assertThat(failures).isEmpty();
    timers.close();
  }

  @Strategies.Each
  void nothingFiresBeforeItsDeadline(String strategy) {
    TimerService timers = service(strategy);
    Timeout timeout = timers.newTimeout(recording("t"), 10, TimeUnit.MILLISECONDS);

    ticker.advance(10 * MS - 1, TimeUnit.NANOSECONDS);
    assertThat(runs).isEmpty();
    assertThat(timeout.isPending()).isTrue();

    ticker.advance(1, TimeUnit.NANOSECONDS);
    assertThat(runs).containsExactly("t@10 on test");
    assertThat(timeout.isExpired()).isTrue();
    timers.close();
  }

  @Test
  void nothingRunsWithoutAnAdvanceAndAdvancingByZeroRunsWhatIsDue() {
    TimerService timers = service("heap");
    timers.newTimeout(recording("now"), 0, TimeUnit.MILLISECONDS);
    assertThat(runs).isEmpty();

    ticker.advance(Duration.ZERO);

    assertThat(runs).containsExactly("now@0 on test");
    timers.close();
  }

  @Strategies.Each
  void aTaskThatReArmsItselfRunsOncePerPeriodWithinOneAdvance(String strategy) {
    TimerService timers = service(strategy);
    AtomicInteger left = new AtomicInteger(5);
    timers.newTimeout(new TimerTask() {
      @Override
      public void run(Timeout timeout) throws Exception {
        recording("tick").run(timeout);
        if (left.decrementAndGet() > 0) {
          timeout.reschedule(7, TimeUnit.MILLISECONDS);
        }
      }
    }, 7, TimeUnit.MILLISECONDS);

    ticker.advance(Duration.ofSeconds(1));

    assertThat(runs).containsExactly(
        "tick@7 on test", "tick@14 on test", "tick@21 on test", "tick@28 on test",
        "tick@35 on test");
    timers.close();
  }

  @Strategies.Each
  void aCancelledTimeoutNeverRunsAndItsCallbackRunsOnTheCancellingThread(String strategy) {
    TimerService timers = service(strategy);
    AtomicReference<Thread> callback = new AtomicReference<>();
    Timeout cancelled = timers.newTimeout(new TimerTask() {
      @Override
      public void run(Timeout timeout) {
        runs.add("cancelled ran");
      }

      @Override
      public void cancelled(Timeout timeout) {
        callback.set(Thread.currentThread());
      }
    }, 10, TimeUnit.MILLISECONDS);
    timers.newTimeout(recording("kept"), 20, TimeUnit.MILLISECONDS);
    ticker.advance(Duration.ofMillis(5));

    assertThat(cancelled.cancel()).isTrue();
    ticker.advance(Duration.ofMillis(50));

    assertThat(runs).containsExactly("kept@20 on test");
    assertThat(callback.get()).isSameAs(testThread);
    assertThat(cancelled.isCancelled()).isTrue();
    assertThat(timers.pendingTimeouts()).isZero();
    timers.close();
  }

  @Strategies.Each
  void anIdleTimeoutFiresOnlyAfterAFullPeriodWithoutActivity(String strategy) {
    TimerService timers = service(strategy);
    AtomicBoolean closed = new AtomicBoolean();
    Timeout idle = timers.newTimeout(t -> closed.set(true), 30, TimeUnit.SECONDS);

    ticker.advance(Duration.ofSeconds(20));
    idle.reschedule(30, TimeUnit.SECONDS);
    ticker.advance(Duration.ofSeconds(29));
    assertThat(closed).isFalse();
    ticker.advance(Duration.ofSeconds(1));
    assertThat(closed).isTrue();
    timers.close();
  }

  @Test
  void stopReturnsWhatNeverRanAndLetsTheTickerGo() {
    TimerService timers = service("wheel");
    Timeout later = timers.newTimeout(recording("later"), 50, TimeUnit.MILLISECONDS);
    ticker.advance(Duration.ofMillis(10));

    List<Timeout> unrun = timers.stop();

    assertThat(unrun).containsExactly(later);
    assertThat(later.isCancelled()).isTrue();
    assertThatThrownBy(() -> timers.newTimeout(recording("x"), 1, TimeUnit.MILLISECONDS))
        .isInstanceOf(RejectedExecutionException.class);
    ticker.advance(Duration.ofMillis(100)); // the stopped service is no longer turned
    assertThat(runs).isEmpty();
  }

  @Test
  void aTaskMayStopItsServiceButNotAdvanceItsTicker() {
    TimerService timers = service("heap");
    AtomicReference<Throwable> advanceFromTask = new AtomicReference<>();
    timers.newTimeout(t -> {
      try {
        ticker.advance(Duration.ofMillis(1));
      } catch (IllegalStateException e) {
        advanceFromTask.set(e);
      }
      t.timer().stop();
    }, 5, TimeUnit.MILLISECONDS);
    Timeout after = timers.newTimeout(recording("after"), 6, TimeUnit.MILLISECONDS);

    ticker.advance(Duration.ofMillis(10));

    assertThat(advanceFromTask.get()).isInstanceOf(IllegalStateException.class);
    assertThat(timers.isStopped()).isTrue();
    assertThat(runs).isEmpty();
    assertThat(after.isCancelled()).isTrue();
  }

  @Test
  void oneTickerDrivesSeveralServicesInOneTimeline() {
    TimerService first = service("heap");
    TimerService second = service("wheel");
    first.newTimeout(recording("first-10"), 10, TimeUnit.MILLISECONDS);
    second.newTimeout(recording("second-5"), 5, TimeUnit.MILLISECONDS);
    first.newTimeout(recording("first-15"), 15, TimeUnit.MILLISECONDS);

    ticker.advance(Duration.ofMillis(20));

    assertThat(runs).containsExactly("second-5@5 on test", "first-10@10 on test",
        "first-15@15 on test");
    first.close();
    second.close();
  }

  @Test
  void theTickerStartsWhereItIsToldAndWrapsAroundAsNanoTimeMay() {
    ManualTicker nearWrap = new ManualTicker(Long.MAX_VALUE - 5 * MS);
    TimerService timers = TimerService.builder().ticker(nearWrap).build();
    List<Long> at = new ArrayList<>();
    timers.newTimeout(t -> at.add(nearWrap.read()), 10, TimeUnit.MILLISECONDS);

    nearWrap.advance(Duration.ofMillis(20));

    assertThat(at).containsExactly(Long.MAX_VALUE - 5 * MS + 10 * MS);
    timers.close();
  }

  @Test
  void rejectsNegativeAndTooLongAdvances() {
    assertThatThrownBy(() -> ticker.advance(-1, TimeUnit.NANOSECONDS))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
    assertThatThrownBy(() -> ticker.advance(Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("PT-0.001S");
    assertThatThrownBy(() -> ticker.advance(Duration.ofDays(365L * 300)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(ticker.read()).isZero();
  }

  // ---- the executor ----

  private TimerScheduledExecutorService executor() {
    return TimerService.builder().strategy("wheel").ticker(ticker).buildScheduledExecutorService();
  }

  @Test
  void theExecutorRunsDelayedAndPeriodicTasksAsTheTickerAdvances() throws Exception {
    TimerScheduledExecutorService executor = executor();
    List<Long> rate = new CopyOnWriteArrayList<>();
    List<Long> delay = new CopyOnWriteArrayList<>();
    ScheduledFuture<Integer> once = executor.schedule(() -> 42, 25, TimeUnit.MILLISECONDS);
    ScheduledFuture<?> atRate = executor.scheduleAtFixedRate(
        () -> rate.add(ticker.read() / MS), 10, 10, TimeUnit.MILLISECONDS);
    ScheduledFuture<?> withDelay = executor.scheduleWithFixedDelay(() -> {
      delay.add(ticker.read() / MS);
    }, 0, 15, TimeUnit.MILLISECONDS);

    ticker.advance(Duration.ofMillis(24));
    assertThat(once.isDone()).isFalse();
    ticker.advance(Duration.ofMillis(26));

    assertThat(once.get()).isEqualTo(42);
    assertThat(rate).containsExactly(10L, 20L, 30L, 40L, 50L);
    assertThat(delay).containsExactly(0L, 15L, 30L, 45L);
    assertThat(atRate.getDelay(TimeUnit.MILLISECONDS)).isEqualTo(10);
    assertThat(executor.pendingTimeouts()).isEqualTo(2);

    atRate.cancel(false);
    ticker.advance(Duration.ofMillis(100));
    assertThat(rate).hasSize(5);
    assertThat(withDelay.isDone()).isFalse();
    executor.shutdownNow();
  }

  @Test
  void theExecutorShutsDownAndTerminatesAsTheTickerRunsItsLastDelayedTask() throws Exception {
    TimerScheduledExecutorService executor = executor();
    ScheduledFuture<String> delayed = executor.schedule(() -> "ran", 30, TimeUnit.MILLISECONDS);
    ScheduledFuture<?> periodic = executor.scheduleAtFixedRate(() -> { }, 5, 5,
        TimeUnit.MILLISECONDS);

    executor.shutdown();

    assertThat(periodic.isCancelled()).isTrue(); // the default policy drops periodic tasks
    assertThat(executor.isTerminated()).isFalse();
    assertThat(executor.awaitTermination(0, TimeUnit.MILLISECONDS)).isFalse();
    ticker.advance(Duration.ofMillis(29));
    assertThat(executor.isTerminated()).isFalse();
    ticker.advance(Duration.ofMillis(1));
    assertThat(delayed.get()).isEqualTo("ran");
    assertThat(executor.isTerminated()).isTrue();
  }

  @Test
  void theExecutorsShutdownNowReturnsTheWaitingTasksAndTerminatesAtOnce() {
    TimerScheduledExecutorService executor = executor();
    ScheduledFuture<?> waiting = executor.schedule(() -> { }, 30, TimeUnit.MILLISECONDS);

    List<Runnable> unrun = executor.shutdownNow();

    assertThat(unrun).containsExactly((Runnable) waiting);
    assertThat(executor.isTerminated()).isTrue();
  }

  @Test
  void closingAManualExecutorDropsWhatOnlyAdvancingCouldRunInsteadOfWaitingForever() {
    TimerScheduledExecutorService executor = executor();
    ScheduledFuture<?> waiting = executor.schedule(() -> { }, 30, TimeUnit.MILLISECONDS);

    executor.close();

    assertThat(executor.isTerminated()).isTrue();
    assertThat(waiting.isDone()).isFalse(); // returned by shutdownNow, as the JDK's close does
  }

  @Test
  void aTaskFailureGoesToTheHandlerAndTheTickerGoesOn() {
    TimerService timers = service("heap");
    IllegalStateException boom = new IllegalStateException("boom");
    timers.newTimeout(t -> {
      throw boom;
    }, 1, TimeUnit.MILLISECONDS);
    timers.newTimeout(recording("next"), 2, TimeUnit.MILLISECONDS);

    ticker.advance(Duration.ofMillis(5));

    assertThat(failures).containsExactly(boom);
    assertThat(runs).containsExactly("next@2 on test");
    timers.close();
  }

  @Test
  void anotherThreadsScheduleIsAppliedByTheNextAdvance() throws Exception {
    TimerService timers = service("heap");
    CompletableFuture.runAsync(
        () -> timers.newTimeout(recording("remote"), 3, TimeUnit.MILLISECONDS)).get();

    ticker.advance(Duration.ofMillis(3));

    assertThat(runs).containsExactly("remote@3 on test");
    timers.close();
  }

  @Test
  void executionFailuresCompleteTheFutureOnTheAdvancingThread() {
    TimerScheduledExecutorService executor = executor();
    ScheduledFuture<?> failing = executor.schedule(() -> {
      throw new IllegalArgumentException("bad");
    }, 1, TimeUnit.MILLISECONDS);

    ticker.advance(Duration.ofMillis(1));

    assertThatThrownBy(failing::get).isInstanceOf(ExecutionException.class)
        .hasCauseInstanceOf(IllegalArgumentException.class);
    executor.close();
  }
}
