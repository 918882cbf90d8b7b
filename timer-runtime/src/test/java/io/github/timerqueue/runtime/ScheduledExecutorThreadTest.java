package io.github.timerqueue.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;

/**
 * The scheduled executor on its real timer thread and the system clock: interrupts, waiting for
 * termination, invokeAll/invokeAny, a task executor, and the never-early and fixed-rate contracts
 * on a real clock. Bounds on time are generous and no test measures speed.
 */
class ScheduledExecutorThreadTest {
  private static final long GENEROUS_SECONDS = 10;

  private final List<ExecutorService> toStop = new ArrayList<>();

  @AfterEach
  void stopAll() throws InterruptedException {
    for (ExecutorService executor : toStop) {
      executor.shutdownNow();
      assertThat(executor.awaitTermination(GENEROUS_SECONDS, TimeUnit.SECONDS)).isTrue();
    }
  }

  private TimerScheduledExecutorService start(String strategy) {
    TimerScheduledExecutorService executor =
        TimerService.builder().strategy(strategy).buildScheduledExecutorService();
    toStop.add(executor);
    return executor;
  }

  @Strategies.Each
  void cancelWithInterruptInterruptsTheRunningTaskAndLaterTasksStillRun(String strategy)
      throws Exception {
    TimerScheduledExecutorService executor = start(strategy);
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch interrupted = new CountDownLatch(1);
    ScheduledFuture<?> blocking = executor.schedule(() -> {
      started.countDown();
      try {
        Thread.sleep(TimeUnit.MINUTES.toMillis(5));
      } catch (InterruptedException e) {
        interrupted.countDown();
      }
    }, 0, TimeUnit.MILLISECONDS);
    assertThat(started.await(GENEROUS_SECONDS, TimeUnit.SECONDS)).isTrue();

    assertThat(blocking.cancel(true)).isTrue();

    assertThat(interrupted.await(GENEROUS_SECONDS, TimeUnit.SECONDS)).isTrue();
    assertThatThrownBy(blocking::get).isInstanceOf(CancellationException.class);
    Future<Boolean> next = executor.submit(() -> Thread.currentThread().isInterrupted());
    assertThat(next.get(GENEROUS_SECONDS, TimeUnit.SECONDS)).isFalse();
  }

  @Strategies.Each
  void shutdownNowInterruptsTheRunningTaskAndReturnsTheWaitingOnes(String strategy)
      throws Exception {
    TimerScheduledExecutorService executor = start(strategy);
    CountDownLatch started = new CountDownLatch(1);
    AtomicBoolean interrupted = new AtomicBoolean();
    executor.execute(() -> {
      started.countDown();
      try {
        Thread.sleep(TimeUnit.MINUTES.toMillis(5));
      } catch (InterruptedException e) {
        interrupted.set(true);
      }
    });
    ScheduledFuture<?> waiting = executor.schedule(() -> {}, 1, TimeUnit.HOURS);
    assertThat(started.await(GENEROUS_SECONDS, TimeUnit.SECONDS)).isTrue();

    List<Runnable> notStarted = executor.shutdownNow();

    assertThat(notStarted).containsExactly((Runnable) waiting);
    // shutdownNow does not wait for the interrupted task to end; awaitTermination does.
    assertThat(executor.awaitTermination(GENEROUS_SECONDS, TimeUnit.SECONDS)).isTrue();
    assertThat(interrupted).isTrue();
    assertThat(executor.isTerminated()).isTrue();
  }

  @Strategies.Each
  void awaitTerminationWaitsForTheDelayedTasksShutdownLetsRun(String strategy) throws Exception {
    TimerScheduledExecutorService executor = start(strategy);
    AtomicBoolean ran = new AtomicBoolean();
    ScheduledFuture<?> periodic = executor.scheduleAtFixedRate(() -> {}, 0, 1, TimeUnit.HOURS);
    executor.schedule(() -> ran.set(true), 100, TimeUnit.MILLISECONDS);

    executor.shutdown();

    assertThat(executor.awaitTermination(GENEROUS_SECONDS, TimeUnit.SECONDS)).isTrue();
    assertThat(ran).isTrue();
    assertThat(periodic.isCancelled()).isTrue();
  }

  @Strategies.Each
  void aPeriodicTaskThatRunsAfterShutdownBeganIsCancelledInsteadOfRun(String strategy)
      throws Exception {
    TimerScheduledExecutorService executor = start(strategy);
    CountDownLatch shutDown = new CountDownLatch(1);
    AtomicInteger runsAfterShutdown = new AtomicInteger();
    ScheduledFuture<?> periodic = executor.scheduleAtFixedRate(() -> {
      if (executor.isShutdown()) {
        runsAfterShutdown.incrementAndGet();
      }
    }, 0, 1, TimeUnit.MILLISECONDS);
    executor.execute(() -> {
      executor.shutdown(); // from the timer thread, while the periodic task is due
      shutDown.countDown();
    });

    assertThat(shutDown.await(GENEROUS_SECONDS, TimeUnit.SECONDS)).isTrue();
    assertThat(executor.awaitTermination(GENEROUS_SECONDS, TimeUnit.SECONDS)).isTrue();
    assertThat(periodic.isCancelled()).isTrue();
    assertThat(runsAfterShutdown).hasValue(0);
  }

  @Strategies.Each
  void invokeAllAndInvokeAnyRunTheirTasks(String strategy) throws Exception {
    TimerScheduledExecutorService executor = start(strategy);
    List<Callable<Integer>> tasks = List.of(() -> 1, () -> 2, () -> 3);

    List<Future<Integer>> all = executor.invokeAll(tasks);
    Integer any = executor.invokeAny(tasks, GENEROUS_SECONDS, TimeUnit.SECONDS);

    List<Integer> results = new ArrayList<>();
    for (Future<Integer> future : all) {
      results.add(future.get());
    }
    assertThat(results).containsExactly(1, 2, 3);
    assertThat(any).isIn(1, 2, 3);
    // invokeAny goes through an ExecutorCompletionService, which wraps tasks made by newTaskFor
    // in its own: those must not unbalance the count that decides termination.
    executor.shutdown();
    assertThat(executor.awaitTermination(GENEROUS_SECONDS, TimeUnit.SECONDS)).isTrue();
  }

  @Strategies.Each
  void aTaskExecutorRunsTheTasksOnItsThreads(String strategy) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(2, runnable -> {
      Thread thread = new Thread(runnable, "pool");
      thread.setDaemon(true);
      return thread;
    });
    toStop.add(pool);
    TimerScheduledExecutorService executor = TimerService.builder()
        .strategy(strategy)
        .taskExecutor(pool)
        .buildScheduledExecutorService();
    toStop.add(executor);
    Set<String> threads = ConcurrentHashMap.newKeySet();
    CountDownLatch runs = new CountDownLatch(5);
    ScheduledFuture<?> periodic = executor.scheduleAtFixedRate(() -> {
      threads.add(Thread.currentThread().getName());
      runs.countDown();
    }, 0, 2, TimeUnit.MILLISECONDS);

    assertThat(runs.await(GENEROUS_SECONDS, TimeUnit.SECONDS)).isTrue();
    periodic.cancel(false);
    executor.shutdown();

    assertThat(executor.awaitTermination(GENEROUS_SECONDS, TimeUnit.SECONDS)).isTrue();
    assertThat(threads).containsExactly("pool");
  }

  @Strategies.Each
  void delaysAreNeverCutShortOnARealClock(String strategy) throws Exception {
    TimerScheduledExecutorService executor = start(strategy);
    List<Long> earlyBy = new CopyOnWriteArrayList<>();
    List<Future<?>> futures = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      long delayMicros = (i * 7_919L) % 30_000;
      long scheduledAt = System.nanoTime();
      futures.add(executor.schedule(() -> {
        long early = TimeUnit.MICROSECONDS.toNanos(delayMicros) - (System.nanoTime() - scheduledAt);
        if (early > 0) {
          earlyBy.add(early);
        }
      }, delayMicros, TimeUnit.MICROSECONDS));
    }
    for (Future<?> future : futures) {
      future.get(GENEROUS_SECONDS, TimeUnit.SECONDS);
    }

    assertThat(earlyBy).isEmpty();
  }

  @Strategies.Each
  void aFixedRateNeverRunsMoreOftenThanItsPeriod(String strategy) throws Exception {
    TimerScheduledExecutorService executor = start(strategy);
    List<Long> runs = new CopyOnWriteArrayList<>();
    long start = System.nanoTime();
    ScheduledFuture<?> periodic = executor.scheduleAtFixedRate(
        () -> runs.add(System.nanoTime() - start), 0, 20, TimeUnit.MILLISECONDS);

    Thread.sleep(300);
    periodic.cancel(false);
    long elapsed = System.nanoTime() - start;

    long period = TimeUnit.MILLISECONDS.toNanos(20);
    assertThat((long) runs.size()).isBetween(3L, elapsed / period + 1);
    for (int i = 0; i < runs.size(); i++) {
      assertThat(runs.get(i)).as("run %d", i).isGreaterThanOrEqualTo(i * period);
    }
  }
}
