package io.github.timerqueue.runtime;

import static io.github.timerqueue.runtime.ManualTimer.MS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.testing.NullPointerTester;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Delayed;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The {@link java.util.concurrent.ScheduledExecutorService} contract, as the JDK's Javadoc of
 * {@code ScheduledExecutorService} and {@code ScheduledThreadPoolExecutor} states it, checked one
 * loop turn at a time on a fake ticker with every registered strategy.
 */
class ScheduledExecutorContractTest {

  private static final class Scheduler {
    final ManualTimer timer;
    final TimerScheduledExecutorService executor;

    Scheduler(String strategy) {
      TimerService.Builder builder = TimerService.builder();
      timer = new ManualTimer(strategy, 0, builder);
      executor = new TimerScheduledExecutorService(timer.service);
    }
  }

  @Strategies.Each
  void aDelayedCallableRunsOnceItsDelayHasPassedAndNeverBefore(String strategy) throws Exception {
    Scheduler scheduler = new Scheduler(strategy);
    List<Long> ranAt = new ArrayList<>();
    ScheduledFuture<String> future = scheduler.executor.schedule(() -> {
      ranAt.add(scheduler.timer.millis());
      return "done";
    }, 10, TimeUnit.MILLISECONDS);

    scheduler.timer.stepTo(9);
    assertThat(future.isDone()).isFalse();
    assertThat(future.getDelay(TimeUnit.MILLISECONDS)).isEqualTo(1);

    scheduler.timer.stepTo(10);
    assertThat(future.get()).isEqualTo("done");
    assertThat(ranAt).containsExactly(10L);
    assertThat(future.getDelay(TimeUnit.MILLISECONDS)).isZero();
  }

  @Strategies.Each
  void getDelayCountsDownAndCompareToOrdersByDeadline(String strategy) {
    Scheduler scheduler = new Scheduler(strategy);
    ScheduledFuture<?> late = scheduler.executor.schedule(() -> {}, 30, TimeUnit.MILLISECONDS);
    ScheduledFuture<?> early = scheduler.executor.schedule(() -> {}, 10, TimeUnit.MILLISECONDS);
    ScheduledFuture<?> alsoEarly = scheduler.executor.schedule(() -> {}, 10, TimeUnit.MILLISECONDS);

    scheduler.timer.at(4);

    assertThat(late.getDelay(TimeUnit.MILLISECONDS)).isEqualTo(26);
    assertThat(early.getDelay(TimeUnit.MICROSECONDS)).isEqualTo(6_000);
    assertThat(early.compareTo(late)).isNegative();
    assertThat(late.compareTo(early)).isPositive();
    assertThat(early.compareTo(alsoEarly)).isZero();
    Delayed foreign = new Delayed() {
      @Override
      public long getDelay(TimeUnit unit) {
        return unit.convert(20, TimeUnit.MILLISECONDS);
      }

      @Override
      public int compareTo(Delayed other) {
        throw new UnsupportedOperationException();
      }
    };
    assertThat(early.compareTo(foreign)).isNegative();
    assertThat(late.compareTo(foreign)).isPositive();
  }

  @Strategies.Each
  void fixedRateRunsAtTheInitialDelayPlusMultiplesOfThePeriod(String strategy) {
    Scheduler scheduler = new Scheduler(strategy);
    List<Long> ranAt = new ArrayList<>();
    ScheduledFuture<?> future = scheduler.executor.scheduleAtFixedRate(
        () -> ranAt.add(scheduler.timer.millis()), 10, 5, TimeUnit.MILLISECONDS);

    scheduler.timer.stepTo(31);
    assertThat(ranAt).containsExactly(10L, 15L, 20L, 25L, 30L);
    assertThat(((RunnableScheduledFuture<?>) future).isPeriodic()).isTrue();
    assertThat(future.getDelay(TimeUnit.MILLISECONDS)).isEqualTo(4);

    // Late by more than two periods: the missed runs follow at once, never concurrently.
    scheduler.timer.at(47);
    scheduler.timer.settle();
    assertThat(ranAt).containsExactly(10L, 15L, 20L, 25L, 30L, 47L, 47L, 47L);
    assertThat(future.getDelay(TimeUnit.MILLISECONDS)).isEqualTo(3);
    assertThat(future.isDone()).isFalse();
    assertThat(scheduler.timer.service.stats().pending()).isEqualTo(1);
  }

  @Strategies.Each
  void aFixedRateTaskReArmedInThePastWakesTheIdleThread(String strategy) {
    List<Runnable> handedOver = new ArrayList<>();
    ManualTimer timer =
        new ManualTimer(strategy, 0, TimerService.builder().taskExecutor(handedOver::add));
    TimerScheduledExecutorService executor = new TimerScheduledExecutorService(timer.service);
    List<Long> ranAt = new ArrayList<>();
    executor.scheduleAtFixedRate(() -> ranAt.add(timer.millis()), 0, 2, TimeUnit.MILLISECONDS);
    timer.at(0);
    assertThat(timer.at(10)).as("nothing armed: sleeps until woken").isEqualTo(Long.MAX_VALUE);

    handedOver.remove(0).run(); // ran late, at 10 ms: re-armed for 2 ms, already past

    assertThat(ranAt).containsExactly(10L);
    assertThat(timer.service.loop.wakeSignals()).isEqualTo(1);
  }

  @Strategies.Each
  void fixedDelayWaitsTheDelayAfterEachRunEnds(String strategy) {
    Scheduler scheduler = new Scheduler(strategy);
    List<Long> ranAt = new ArrayList<>();
    scheduler.executor.scheduleWithFixedDelay(() -> {
      ranAt.add(scheduler.timer.millis());
      scheduler.timer.ticker.advance(3 * MS); // the run takes 3 ms
    }, 10, 5, TimeUnit.MILLISECONDS);

    scheduler.timer.stepTo(40);

    assertThat(ranAt).containsExactly(10L, 18L, 26L, 34L);
  }

  @Strategies.Each
  void anExceptionFromAPeriodicTaskSuppressesFurtherRunsAndFailsItsFuture(String strategy) {
    Scheduler scheduler = new Scheduler(strategy);
    IllegalStateException boom = new IllegalStateException("boom");
    List<Long> ranAt = new ArrayList<>();
    ScheduledFuture<?> future = scheduler.executor.scheduleAtFixedRate(() -> {
      ranAt.add(scheduler.timer.millis());
      if (ranAt.size() == 3) {
        throw boom;
      }
    }, 1, 1, TimeUnit.MILLISECONDS);

    scheduler.timer.stepTo(10);

    assertThat(ranAt).containsExactly(1L, 2L, 3L);
    assertThat(future.isDone()).isTrue();
    assertThat(future.isCancelled()).isFalse();
    assertThatThrownBy(future::get).isInstanceOf(ExecutionException.class).hasCause(boom);
    assertThat(scheduler.timer.failures).as("kept in the future, as the JDK does").isEmpty();
    assertThat(scheduler.timer.service.stats().pending()).isZero();
  }

  @Strategies.Each
  void anExceptionFromADelayedTaskFailsItsFuture(String strategy) {
    Scheduler scheduler = new Scheduler(strategy);
    IllegalStateException boom = new IllegalStateException("boom");
    ScheduledFuture<Object> future = scheduler.executor.schedule(() -> {
      throw boom;
    }, 1, TimeUnit.MILLISECONDS);

    scheduler.timer.stepTo(1);

    assertThatThrownBy(future::get).isInstanceOf(ExecutionException.class).hasCause(boom);
    assertThat(scheduler.timer.failures).isEmpty();
  }

  @Strategies.Each
  void cancelRemovesTheTimerAtOnceAndTheTaskNeverRuns(String strategy) {
    Scheduler scheduler = new Scheduler(strategy);
    List<ScheduledFuture<?>> futures = new ArrayList<>();
    List<Integer> ran = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      int task = i;
      futures.add(scheduler.executor.schedule(() -> ran.add(task), 1, TimeUnit.HOURS));
    }
    scheduler.timer.at(0);

    for (int i = 0; i < 10; i += 2) {
      assertThat(futures.get(i).cancel(false)).isTrue();
    }
    scheduler.timer.at(0);

    assertThat(scheduler.timer.service.loop.queuedTimers()).isEqualTo(5);
    assertThat(scheduler.timer.service.stats().pending()).isEqualTo(5);
    assertThat(futures.get(0).isCancelled()).isTrue();
    assertThat(futures.get(0).isDone()).isTrue();
    assertThatThrownBy(() -> futures.get(0).get()).isInstanceOf(CancellationException.class);
    assertThat(futures.get(0).cancel(false)).isFalse();
    scheduler.timer.at(TimeUnit.HOURS.toMillis(1));
    assertThat(ran).containsExactlyInAnyOrder(1, 3, 5, 7, 9);
  }

  @Strategies.Each
  void cancellingAPeriodicTaskStopsIt(String strategy) {
    Scheduler scheduler = new Scheduler(strategy);
    List<Long> ranAt = new ArrayList<>();
    ScheduledFuture<?> future = scheduler.executor.scheduleWithFixedDelay(
        () -> ranAt.add(scheduler.timer.millis()), 2, 2, TimeUnit.MILLISECONDS);
    scheduler.timer.stepTo(4);

    future.cancel(false);
    scheduler.timer.stepTo(20);

    assertThat(ranAt).containsExactly(2L, 4L);
    assertThat(scheduler.timer.service.loop.queuedTimers()).isZero();
  }

  @Strategies.Each
  void executeAndSubmitRunAsSoonAsPossible(String strategy) throws Exception {
    Scheduler scheduler = new Scheduler(strategy);
    List<String> ran = new ArrayList<>();
    scheduler.executor.execute(() -> ran.add("execute"));
    Future<String> callable = scheduler.executor.submit(() -> "submitted");
    Future<?> runnable = scheduler.executor.submit(() -> {
      ran.add("submit");
    });

    scheduler.timer.at(0);

    assertThat(ran).containsExactlyInAnyOrder("execute", "submit");
    assertThat(callable.get()).isEqualTo("submitted");
    assertThat(runnable.get()).isNull();
    assertThat(callable).isInstanceOf(ScheduledFuture.class);
  }

  @Strategies.Each
  void byDefaultShutdownLetsDelayedTasksRunAndCancelsPeriodicOnes(String strategy)
      throws Exception {
    Scheduler scheduler = new Scheduler(strategy);
    List<String> ran = new ArrayList<>();
    ScheduledFuture<?> delayed = scheduler.executor.schedule(
        () -> ran.add("delayed"), 10, TimeUnit.MILLISECONDS);
    ScheduledFuture<?> periodic = scheduler.executor.scheduleAtFixedRate(
        () -> ran.add("periodic"), 5, 5, TimeUnit.MILLISECONDS);
    scheduler.timer.at(0);

    scheduler.executor.shutdown();

    assertThat(scheduler.executor.isShutdown()).isTrue();
    assertThat(periodic.isCancelled()).isTrue();
    assertThat(scheduler.executor.isTerminated()).isFalse();
    assertThatThrownBy(() -> scheduler.executor.schedule(() -> {}, 1, TimeUnit.MILLISECONDS))
        .isInstanceOf(RejectedExecutionException.class);
    assertThatThrownBy(() -> scheduler.executor.execute(() -> {}))
        .isInstanceOf(RejectedExecutionException.class);
    scheduler.timer.stepTo(9);
    assertThat(ran).isEmpty();
    assertThat(scheduler.executor.awaitTermination(0, TimeUnit.SECONDS)).isFalse();

    scheduler.timer.at(10);

    assertThat(ran).containsExactly("delayed");
    assertThat(delayed.isDone()).isTrue();
    assertThat(scheduler.executor.isTerminated()).isTrue();
    assertThat(scheduler.executor.awaitTermination(0, TimeUnit.SECONDS)).isTrue();
    assertThat(scheduler.timer.service.isStopped()).isTrue();
  }

  @Strategies.Each
  void aPeriodicTaskAlreadyHandedToTheTaskExecutorAtShutdownIsCancelledInsteadOfRun(
      String strategy) {
    List<Runnable> handedOver = new ArrayList<>();
    ManualTimer timer =
        new ManualTimer(strategy, 0, TimerService.builder().taskExecutor(handedOver::add));
    TimerScheduledExecutorService executor = new TimerScheduledExecutorService(timer.service);
    List<Long> ranAt = new ArrayList<>();
    ScheduledFuture<?> periodic = executor.scheduleAtFixedRate(
        () -> ranAt.add(timer.millis()), 5, 5, TimeUnit.MILLISECONDS);
    timer.stepTo(5);
    assertThat(handedOver).hasSize(1);

    executor.shutdown();
    handedOver.get(0).run();

    assertThat(ranAt).isEmpty();
    assertThat(periodic.isCancelled()).isTrue();
    assertThat(executor.isTerminated()).isTrue();
  }

  @Strategies.Each
  void thePoliciesCanKeepPeriodicTasksAndDropDelayedOnes(String strategy) {
    Scheduler scheduler = new Scheduler(strategy);
    scheduler.executor.setContinueExistingPeriodicTasksAfterShutdownPolicy(true);
    scheduler.executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    assertThat(scheduler.executor.getContinueExistingPeriodicTasksAfterShutdownPolicy()).isTrue();
    assertThat(scheduler.executor.getExecuteExistingDelayedTasksAfterShutdownPolicy()).isFalse();
    List<String> ran = new ArrayList<>();
    ScheduledFuture<?> delayed = scheduler.executor.schedule(
        () -> ran.add("delayed"), 10, TimeUnit.MILLISECONDS);
    ScheduledFuture<?> periodic = scheduler.executor.scheduleAtFixedRate(
        () -> ran.add("periodic"), 5, 5, TimeUnit.MILLISECONDS);

    scheduler.executor.shutdown();
    scheduler.timer.stepTo(16);

    assertThat(delayed.isCancelled()).isTrue();
    assertThat(ran).containsExactly("periodic", "periodic", "periodic");
    assertThat(scheduler.executor.isTerminated()).isFalse();

    periodic.cancel(false);

    assertThat(scheduler.executor.isTerminated()).isTrue();
  }

  @Strategies.Each
  void shutdownDropsDelayedTasksThatOtherThreadsScheduled(String strategy) throws Exception {
    Scheduler scheduler = new Scheduler(strategy);
    scheduler.executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    // Threads created one after another send their requests to different lanes, so some requests
    // wait in other lanes than the shutdown's own.
    List<ScheduledFuture<?>> delayed = new CopyOnWriteArrayList<>();
    for (int thread = 0; thread < 4; thread++) {
      Thread scheduling = new Thread(() -> delayed.add(
          scheduler.executor.schedule(() -> {}, 10, TimeUnit.MILLISECONDS)));
      scheduling.start();
      scheduling.join();
    }

    scheduler.executor.shutdown();

    assertThat(delayed).hasSize(4).allMatch(ScheduledFuture::isCancelled);
    assertThat(scheduler.executor.isTerminated()).isTrue();
  }

  @Strategies.Each
  void droppingPeriodicTasksAfterShutdownCancelsThem(String strategy) {
    Scheduler scheduler = new Scheduler(strategy);
    scheduler.executor.setContinueExistingPeriodicTasksAfterShutdownPolicy(true);
    ScheduledFuture<?> periodic =
        scheduler.executor.scheduleAtFixedRate(() -> {}, 5, 5, TimeUnit.MILLISECONDS);
    scheduler.executor.shutdown();
    scheduler.timer.stepTo(6);
    assertThat(periodic.isCancelled()).isFalse();

    scheduler.executor.setContinueExistingPeriodicTasksAfterShutdownPolicy(false);

    assertThat(periodic.isCancelled()).isTrue();
    assertThat(scheduler.executor.isTerminated()).isTrue();
  }

  @Strategies.Each
  void delayedTasksDueWhenShutdownBeganRunEvenIfDelayedTasksAreDropped(String strategy) {
    Scheduler scheduler = new Scheduler(strategy);
    scheduler.executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    List<String> ran = new ArrayList<>();
    scheduler.executor.execute(() -> ran.add("due"));
    scheduler.executor.schedule(() -> ran.add("not due"), 1, TimeUnit.MILLISECONDS);

    scheduler.executor.shutdown();
    scheduler.timer.at(0);

    assertThat(ran).containsExactly("due");
    assertThat(scheduler.executor.isTerminated()).as("the other was cancelled").isTrue();
  }

  @Strategies.Each
  void shutdownWithNothingScheduledTerminatesAtOnce(String strategy) throws Exception {
    Scheduler scheduler = new Scheduler(strategy);

    scheduler.executor.shutdown();

    assertThat(scheduler.executor.isTerminated()).isTrue();
    assertThat(scheduler.executor.awaitTermination(0, TimeUnit.SECONDS)).isTrue();
    scheduler.executor.shutdown();
    assertThat(scheduler.executor.shutdownNow()).isEmpty();
  }

  @Strategies.Each
  void shutdownNowReturnsTheTasksThatHadNotStartedWithoutCancellingThem(String strategy)
      throws Exception {
    Scheduler scheduler = new Scheduler(strategy);
    List<String> ran = new ArrayList<>();
    ScheduledFuture<?> done = scheduler.executor.schedule(
        () -> ran.add("done"), 1, TimeUnit.MILLISECONDS);
    ScheduledFuture<String> delayed = scheduler.executor.schedule(
        () -> "delayed", 10, TimeUnit.MILLISECONDS);
    ScheduledFuture<?> periodic = scheduler.executor.scheduleAtFixedRate(
        () -> ran.add("periodic"), 5, 5, TimeUnit.MILLISECONDS);
    scheduler.timer.stepTo(1);

    List<Runnable> notStarted = scheduler.executor.shutdownNow();

    assertThat(notStarted).containsExactlyInAnyOrder((Runnable) delayed, (Runnable) periodic);
    assertThat(delayed.isCancelled()).isFalse();
    assertThat(done.isDone()).isTrue();
    assertThat(scheduler.executor.isTerminated()).isTrue();
    assertThat(scheduler.timer.service.isStopped()).isTrue();
    notStarted.get(notStarted.indexOf(delayed)).run();
    assertThat(delayed.isCancelled()).as("run after shutdownNow, it cancels itself, as the JDK's do")
        .isTrue();
    assertThat(scheduler.executor.isTerminated()).isTrue();
  }

  @Strategies.Each
  void tasksScheduledByTasksAfterShutdownAreRejected(String strategy) {
    Scheduler scheduler = new Scheduler(strategy);
    List<Throwable> thrown = new ArrayList<>();
    scheduler.executor.schedule(() -> {
      try {
        scheduler.executor.schedule(() -> {}, 1, TimeUnit.MILLISECONDS);
      } catch (RejectedExecutionException e) {
        thrown.add(e);
      }
    }, 5, TimeUnit.MILLISECONDS);

    scheduler.executor.shutdown();
    scheduler.timer.stepTo(5);

    assertThat(thrown).hasSize(1);
    assertThat(scheduler.executor.isTerminated()).isTrue();
  }

  @Strategies.Each
  void rejectsNullsAndNonPositivePeriods(String strategy) throws Exception {
    Scheduler scheduler = new Scheduler(strategy);
    Runnable task = () -> {};

    assertThatThrownBy(() -> scheduler.executor.scheduleAtFixedRate(task, 0, 0, TimeUnit.SECONDS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("period must be positive, but was 0");
    assertThatThrownBy(
            () -> scheduler.executor.scheduleWithFixedDelay(task, 0, -1, TimeUnit.SECONDS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("delay must be positive, but was -1");
    new NullPointerTester()
        .setDefault(TimeUnit.class, TimeUnit.SECONDS)
        // AbstractExecutorService's: with the tester's empty task list it rejects the list first.
        .ignore(AbstractExecutorService.class.getMethod(
            "invokeAny", Collection.class, long.class, TimeUnit.class))
        .testAllPublicInstanceMethods(scheduler.executor);
  }

  @Strategies.Each
  void describesItself(String strategy) {
    Scheduler scheduler = new Scheduler(strategy);
    assertThat(scheduler.executor.strategy()).isEqualTo(strategy);
    assertThat(scheduler.executor.toString()).contains("running", strategy);
    assertThat(scheduler.executor.stats().pending()).isZero();
  }
}
