package io.github.timerqueue.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.util.concurrent.Uninterruptibles;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The lifecycle edges of the scheduled executor on its real timer thread, where the {@code
 * ExecutorService} contract says what must happen and a hang or a lost task is the failure: {@code
 * Future.cancel} and {@code shutdown} never wait, a rejected hand-off or a failed timer loop
 * completes every future, {@code shutdownNow} hands back every task that never started whatever
 * races with it and waits for none that runs. Each test is bounded by {@link Timeout}; races are
 * run for many rounds.
 */
class ExecutorLifecycleTest {
  private static final long GENEROUS_SECONDS = 10;
  private static final String TIMER_THREAD = "lifecycle-timer";

  private final List<ExecutorService> toStop = new ArrayList<>();
  private final List<Throwable> reported = new CopyOnWriteArrayList<>();

  @AfterEach
  void stopAll() {
    for (ExecutorService executor : toStop) {
      executor.shutdownNow();
    }
  }

  private TimerService.Builder builder() {
    return TimerService.builder()
        .threadName(TIMER_THREAD)
        .uncaughtExceptionHandler((thread, failure) -> reported.add(failure));
  }

  private <E extends ExecutorService> E stopLater(E executor) {
    toStop.add(executor);
    return executor;
  }

  /** Calls {@code action} on a new thread, so that the test can bound how long it takes. */
  private static <T> Future<T> onAnotherThread(Callable<T> action) {
    FutureTask<T> call = new FutureTask<>(action);
    Thread thread = new Thread(call, "lifecycle-caller");
    thread.setDaemon(true);
    thread.start();
    return call;
  }

  private static void awaitTrue(String what, BooleanSupplier condition) {
    long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(GENEROUS_SECONDS);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime() - giveUp).as(what).isNegative();
      Thread.onSpinWait();
      Thread.yield();
    }
  }

  // ---- 1: cancel after shutdown never waits ----

  @Test
  @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void cancellingTheLastRunningTaskAfterShutdownDoesNotWaitForIt() throws Exception {
    for (boolean interrupt : new boolean[] {false, true}) {
      TimerScheduledExecutorService executor = stopLater(builder().buildScheduledExecutorService());
      CountDownLatch started = new CountDownLatch(1);
      CountDownLatch release = new CountDownLatch(1);
      Future<?> running = executor.submit(() -> {
        started.countDown();
        Uninterruptibles.awaitUninterruptibly(release);
        return null;
      });
      assertThat(started.await(GENEROUS_SECONDS, TimeUnit.SECONDS)).isTrue();
      executor.shutdown();

      Future<Boolean> cancel = onAnotherThread(() -> running.cancel(interrupt));
      try {
        assertThat(cancel.get(GENEROUS_SECONDS, TimeUnit.SECONDS))
            .as("cancel returns while the task still runs").isTrue();
        assertThat(executor.isTerminated()).as("the task still runs").isFalse();
      } finally {
        release.countDown();
      }
      assertThat(executor.awaitTermination(GENEROUS_SECONDS, TimeUnit.SECONDS)).isTrue();
    }
  }

  // ---- 2: a rejected hand-off completes the future ----

  @Test
  @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aTaskTheTaskExecutorRejectsFailsItsFutureAndCountsTowardTermination() throws Exception {
    ExecutorService refusing = Executors.newSingleThreadExecutor();
    refusing.shutdown();
    TimerScheduledExecutorService executor =
        stopLater(builder().taskExecutor(refusing).buildScheduledExecutorService());

    ScheduledFuture<?> future = executor.schedule(() -> {}, 1, TimeUnit.MILLISECONDS);
    assertThatThrownBy(() -> future.get(GENEROUS_SECONDS, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .hasCauseInstanceOf(RejectedExecutionException.class);

    executor.shutdown();
    assertThat(executor.awaitTermination(GENEROUS_SECONDS, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aRejectedHandOffAfterShutdownNowStillTerminates() throws Exception {
    ExecutorService refusing = Executors.newSingleThreadExecutor();
    refusing.shutdown();
    TimerScheduledExecutorService executor =
        stopLater(builder().taskExecutor(refusing).buildScheduledExecutorService());
    ScheduledFuture<?> future = executor.schedule(() -> {}, 1, TimeUnit.MILLISECONDS);
    awaitTrue("the hand-off was tried", future::isDone);

    executor.shutdownNow();
    assertThat(executor.awaitTermination(GENEROUS_SECONDS, TimeUnit.SECONDS)).isTrue();
  }

  // ---- 3: a failure of the timer loop completes every future ----

  @Test
  @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aFailedTimerLoopShutsTheExecutorDownAndCompletesEveryFuture() throws Exception {
    AtomicBoolean broken = new AtomicBoolean();
    IllegalStateException breakage = new IllegalStateException("the ticker broke");
    Ticker ticker = new Ticker() {
      @Override
      public long read() {
        if (broken.get() && Thread.currentThread().getName().equals(TIMER_THREAD)) {
          throw breakage;
        }
        return System.nanoTime();
      }
    };
    TimerScheduledExecutorService executor =
        stopLater(builder().ticker(ticker).buildScheduledExecutorService());
    ScheduledFuture<?> later = executor.schedule(() -> {}, 1, TimeUnit.HOURS);
    ScheduledFuture<?> periodic =
        executor.scheduleAtFixedRate(() -> {}, 1, 1, TimeUnit.HOURS);
    List<ScheduledFuture<?>> futures = new ArrayList<>(List.of(later, periodic));
    broken.set(true);
    // A task due soon makes the timer thread read the broken clock. It may have read it already,
    // still applying the two requests above, in which case the executor is shut down and rejects
    // the task: either way, every future it accepted must complete.
    try {
      futures.add(executor.schedule(() -> {}, 5, TimeUnit.MILLISECONDS));
    } catch (RejectedExecutionException loopAlreadyFailed) {
      assertThat(executor.isShutdown()).isTrue();
    }

    for (ScheduledFuture<?> future : futures) {
      assertThatThrownBy(() -> future.get(GENEROUS_SECONDS, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .hasCauseInstanceOf(RejectedExecutionException.class)
          .hasRootCause(breakage);
    }
    assertThat(executor.isShutdown()).isTrue();
    assertThat(executor.awaitTermination(GENEROUS_SECONDS, TimeUnit.SECONDS)).isTrue();
    assertThat(reported).contains(breakage);
    assertThatThrownBy(() -> executor.schedule(() -> {}, 1, TimeUnit.MILLISECONDS))
        .isInstanceOf(RejectedExecutionException.class);
  }

  // ---- 4: shutdownNow returns every task that never started, whatever raced with it ----

  @Test
  @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void shutdownThenShutdownNowReturnsEveryDelayedTask() throws Exception {
    int tasks = 20;
    for (int round = 0; round < 400; round++) {
      TimerScheduledExecutorService executor = builder().buildScheduledExecutorService();
      List<ScheduledFuture<?>> scheduled = new ArrayList<>();
      for (int i = 0; i < tasks; i++) {
        scheduled.add(executor.schedule(() -> {}, 1, TimeUnit.HOURS));
      }
      executor.shutdown();
      List<Runnable> notStarted = executor.shutdownNow();
      assertThat(new ArrayList<Object>(notStarted)).as("round %d", round)
          .containsExactlyInAnyOrderElementsOf(scheduled);
      assertThat(executor.awaitTermination(GENEROUS_SECONDS, TimeUnit.SECONDS)).isTrue();
    }
  }

  @Test
  @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void shutdownNowRacingShutdownFromManyThreadsReturnsEveryDelayedTask() throws Exception {
    int threads = 8;
    int tasks = 250;
    for (int round = 0; round < 40; round++) {
      TimerScheduledExecutorService executor = builder().buildScheduledExecutorService();
      for (int i = 0; i < tasks; i++) {
        executor.schedule(() -> {}, 1, TimeUnit.HOURS);
      }
      CyclicBarrier start = new CyclicBarrier(threads);
      List<Future<List<Runnable>>> calls = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        boolean now = t % 2 == 0;
        calls.add(onAnotherThread(() -> {
          start.await();
          if (now) {
            return executor.shutdownNow();
          }
          executor.shutdown();
          return List.of();
        }));
      }
      int returned = 0;
      for (Future<List<Runnable>> call : calls) {
        returned += call.get(GENEROUS_SECONDS, TimeUnit.SECONDS).size();
      }
      assertThat(returned).as("round %d", round).isEqualTo(tasks);
      assertThat(executor.awaitTermination(GENEROUS_SECONDS, TimeUnit.SECONDS)).isTrue();
    }
  }

  // ---- 5: a periodic task cancelled while it re-arms is removed at once ----

  @Test
  @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aFixedDelayTaskCancelledBetweenItsRunAndItsReArmingIsRemovedAtOnce() throws Exception {
    // The timer thread reads the ticker between the end of a fixed-delay run and the re-arming
    // (the next deadline counts from the end of the run): the ticker holds it there.
    AtomicBoolean holdNextRead = new AtomicBoolean();
    CountDownLatch held = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Ticker ticker = new Ticker() {
      @Override
      public long read() {
        if (Thread.currentThread().getName().equals(TIMER_THREAD)
            && holdNextRead.compareAndSet(true, false)) {
          held.countDown();
          Uninterruptibles.awaitUninterruptibly(release);
        }
        return System.nanoTime();
      }
    };
    TimerScheduledExecutorService executor =
        stopLater(builder().ticker(ticker).buildScheduledExecutorService());
    ScheduledFuture<?> periodic = executor.scheduleWithFixedDelay(
        () -> holdNextRead.set(true), 0, 1, TimeUnit.HOURS);
    assertThat(held.await(GENEROUS_SECONDS, TimeUnit.SECONDS)).isTrue();

    assertThat(periodic.cancel(false)).isTrue();
    release.countDown();

    awaitTrue("the cancelled task's timer is gone", () -> executor.stats().pending() == 0);
    assertThat(executor.shutdownNow()).as("a cancelled task is not handed back").isEmpty();
  }

  @Test
  @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aPeriodicTaskCancelledWhileItReArmsIsNotPendingAgain() throws Exception {
    TimerScheduledExecutorService executor = stopLater(builder().buildScheduledExecutorService());
    for (int round = 0; round < 3_000; round++) {
      AtomicBoolean ran = new AtomicBoolean();
      ScheduledFuture<?> periodic =
          executor.scheduleAtFixedRate(() -> ran.set(true), 0, 1, TimeUnit.HOURS);
      while (!ran.get()) {
        Thread.onSpinWait();
      }
      for (int spins = ThreadLocalRandom.current().nextInt(200); spins > 0; spins--) {
        Thread.onSpinWait();
      }
      assertThat(periodic.cancel(false)).isTrue();
      int currentRound = round;
      awaitTrue("round " + currentRound + ": the cancelled task's timer is gone",
          () -> executor.stats().pending() == 0);
    }
    assertThat(executor.shutdownNow()).isEmpty();
  }

  // ---- 7: shutdownNow takes back the tasks handed to the task executor but not started ----

  @Test
  @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void shutdownNowReturnsTheTasksWaitingInTheTaskExecutorAndInterruptsTheRunningOnes()
      throws Exception {
    ThreadPoolExecutor pool = (ThreadPoolExecutor) Executors.newFixedThreadPool(2);
    try {
      TimerScheduledExecutorService executor =
          stopLater(builder().taskExecutor(pool).buildScheduledExecutorService());
      CountDownLatch started = new CountDownLatch(2);
      CountDownLatch interrupted = new CountDownLatch(2);
      AtomicInteger runs = new AtomicInteger();
      for (int i = 0; i < 5; i++) {
        executor.schedule(() -> {
          runs.incrementAndGet();
          started.countDown();
          try {
            Thread.sleep(TimeUnit.MINUTES.toMillis(5));
          } catch (InterruptedException e) {
            interrupted.countDown();
          }
        }, 0, TimeUnit.MILLISECONDS);
      }
      assertThat(started.await(GENEROUS_SECONDS, TimeUnit.SECONDS)).isTrue();
      awaitTrue("three tasks wait in the pool", () -> pool.getQueue().size() == 3);

      List<Runnable> notStarted = executor.shutdownNow();

      assertThat(notStarted).hasSize(3);
      assertThat(interrupted.await(GENEROUS_SECONDS, TimeUnit.SECONDS)).isTrue();
      assertThat(executor.awaitTermination(GENEROUS_SECONDS, TimeUnit.SECONDS)).isTrue();
      pool.shutdown();
      assertThat(pool.awaitTermination(GENEROUS_SECONDS, TimeUnit.SECONDS)).isTrue();
      assertThat(runs).as("the returned tasks never run").hasValue(2);
    } finally {
      pool.shutdownNow();
    }
  }

  // ---- 8: shutdownNow does not wait for a running task ----

  @Test
  @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void shutdownNowDoesNotWaitForATaskThatIgnoresInterrupts() throws Exception {
    TimerScheduledExecutorService executor = stopLater(builder().buildScheduledExecutorService());
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    executor.execute(() -> {
      started.countDown();
      Uninterruptibles.awaitUninterruptibly(release);
    });
    ScheduledFuture<?> delayed = executor.schedule(() -> {}, 1, TimeUnit.HOURS);
    assertThat(started.await(GENEROUS_SECONDS, TimeUnit.SECONDS)).isTrue();

    Future<List<Runnable>> shutdownNow = onAnotherThread(executor::shutdownNow);
    try {
      assertThat(new ArrayList<Object>(shutdownNow.get(GENEROUS_SECONDS, TimeUnit.SECONDS)))
          .containsExactly(delayed);
      assertThat(executor.isShutdown()).isTrue();
      assertThat(executor.awaitTermination(20, TimeUnit.MILLISECONDS))
          .as("the task still runs").isFalse();
    } catch (TimeoutException e) {
      throw new AssertionError("shutdownNow waited for the running task", e);
    } finally {
      release.countDown();
    }
    assertThat(executor.awaitTermination(GENEROUS_SECONDS, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void everyTaskRunsIsHandedBackOrIsCancelledWhateverShutdownNowRacesWith() throws Exception {
    for (boolean withTaskExecutor : new boolean[] {false, true}) {
      ExecutorService pool = withTaskExecutor ? Executors.newFixedThreadPool(2) : null;
      try {
        for (int round = 0; round < 150; round++) {
          raceShutdownNow(pool, round);
        }
      } finally {
        if (pool != null) {
          pool.shutdownNow();
        }
      }
    }
  }

  /**
   * One round: tasks due now, soon and much later, and periodic ones, some cancelled by another
   * thread, while a third calls shutdownNow at a random moment. The model: each task ran its
   * command at most once (periodic: any number of times), and afterwards is done or handed back
   * (both only if the canceller cancelled it after shutdownNow took it back); a handed-back
   * one-shot task never ran, and nothing runs after termination.
   */
  private void raceShutdownNow(ExecutorService pool, int round) throws Exception {
    TimerService.Builder builder = builder();
    if (pool != null) {
      builder.taskExecutor(pool);
    }
    TimerScheduledExecutorService executor = builder.buildScheduledExecutorService();
    int tasks = 64;
    AtomicInteger[] runs = new AtomicInteger[tasks];
    List<ScheduledFuture<?>> futures = new ArrayList<>();
    ThreadLocalRandom random = ThreadLocalRandom.current();
    for (int i = 0; i < tasks; i++) {
      AtomicInteger count = runs[i] = new AtomicInteger();
      Runnable command = count::incrementAndGet;
      switch (i % 4) {
        case 0 -> futures.add(executor.schedule(command, 0, TimeUnit.MILLISECONDS));
        case 1 -> futures.add(executor.schedule(command, random.nextInt(3), TimeUnit.MILLISECONDS));
        case 2 -> futures.add(executor.schedule(command, 1, TimeUnit.HOURS));
        default -> futures.add(
            executor.scheduleAtFixedRate(command, 0, 1 + random.nextInt(2), TimeUnit.MILLISECONDS));
      }
    }
    CyclicBarrier start = new CyclicBarrier(2);
    Future<?> canceller = onAnotherThread(() -> {
      start.await();
      for (int i = 1; i < tasks; i += 3) {
        futures.get(i).cancel(i % 2 == 0);
      }
      return null;
    });
    start.await();
    for (int spins = random.nextInt(20_000); spins > 0; spins--) {
      Thread.onSpinWait();
    }
    List<Runnable> handedBack = executor.shutdownNow();
    canceller.get(GENEROUS_SECONDS, TimeUnit.SECONDS);
    assertThat(executor.awaitTermination(GENEROUS_SECONDS, TimeUnit.SECONDS))
        .as("round %d terminates", round).isTrue();

    int[] ranBeforeCheck = new int[tasks];
    for (int i = 0; i < tasks; i++) {
      ScheduledFuture<?> future = futures.get(i);
      boolean returned = handedBack.contains(future);
      ranBeforeCheck[i] = runs[i].get();
      assertThat(returned || future.isDone())
          .as("round %d task %d is handed back or done", round, i).isTrue();
      if (returned && future.isDone()) {
        // Only the racing canceller may complete a task that shutdownNow took back.
        assertThat(future.isCancelled() && i % 3 == 1)
            .as("round %d task %d handed back and done", round, i).isTrue();
      }
      if (i % 4 != 3) {
        assertThat(runs[i].get()).as("round %d task %d runs at most once", round, i)
            .isLessThanOrEqualTo(1);
      }
      if (returned && i % 4 != 3) {
        assertThat(runs[i].get()).as("round %d task %d handed back never ran", round, i)
            .isZero();
      }
    }
    assertThat(handedBack).doesNotHaveDuplicates();
    // Nothing runs after termination.
    if (round % 50 == 0) {
      Thread.sleep(5);
      for (int i = 0; i < tasks; i++) {
        assertThat(runs[i].get()).as("round %d task %d ran after termination", round, i)
            .isEqualTo(ranBeforeCheck[i]);
      }
    }
  }
}
