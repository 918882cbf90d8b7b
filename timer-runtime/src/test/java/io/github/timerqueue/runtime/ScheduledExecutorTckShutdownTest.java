package io.github.timerqueue.runtime;

import static java.util.concurrent.TimeUnit.MICROSECONDS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code shutdown} and {@code shutdownNow}: what the TCK's {@code testIsShutdown}, {@code
 * testIsTerminated}, {@code testSubmittedTasksRejectedWhenShutdown}, {@code testShutdownNow},
 * {@code testShutdownNow_delayedTasks} and {@code testShutdown_cancellation} check. The TCK
 * wedges every thread of the pool with a blocking task and then looks at what waits behind it; so
 * do these tests, with the timer thread (one task at a time) or the task executor's threads.
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ScheduledExecutorTckShutdownTest extends ScheduledExecutorTckSupport {

  @EachSetup
  void isShutdownAndIsTerminatedFollowTheLifecycle(Setup setup) throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = releasedAtEnd();
    assertThat(executor.isShutdown()).isFalse();
    assertThat(executor.isTerminated()).isFalse();
    assertThat(executor.awaitTermination(1, MILLISECONDS)).as("not even shut down").isFalse();
    executor.execute(() -> {
      started.countDown();
      awaitIgnoringInterrupts(release);
    });
    await(started);

    executor.shutdown();

    assertThat(executor.isShutdown()).isTrue();
    assertThat(executor.isTerminated()).as("a task still runs").isFalse();
    assertThat(executor.awaitTermination(SHORT_MS, MILLISECONDS)).isFalse();
    List<Future<Boolean>> waiters = new ArrayList<>();
    ExecutorService waiting = newPool(3);
    for (int i = 0; i < 3; i++) {
      waiters.add(waiting.submit(() -> executor.awaitTermination(LONG_MS, MILLISECONDS)));
    }
    release.countDown();
    assertThat(executor.awaitTermination(LONG_MS, MILLISECONDS)).isTrue();
    assertThat(executor.isTerminated()).isTrue();
    assertThat(executor.isShutdown()).isTrue();
    for (Future<Boolean> waiter : waiters) {
      assertThat(waiter.get(LONG_MS, MILLISECONDS)).as("every waiter sees the termination")
          .isTrue();
    }
  }

  @EachSetup
  void shutdownWithNothingToDoTerminatesAndRepeatsHarmlessly(Setup setup) throws Exception {
    TimerScheduledExecutorService executor = start(setup);

    executor.shutdown();

    assertThat(executor.awaitTermination(LONG_MS, MILLISECONDS)).isTrue();
    executor.shutdown();
    assertThat(executor.shutdownNow()).isEmpty();
    assertThat(executor.isTerminated()).isTrue();
    assertRejectsEverySubmission(executor);
  }

  /** The TCK's {@code testSubmittedTasksRejectedWhenShutdown}, with {@code shutdown()}. */
  @EachSetup
  void afterShutdownEverySubmissionIsRejectedWhileTasksRunAndAfterTermination(Setup setup)
      throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    CountDownLatch done = releasedAtEnd();
    List<Future<?>> running = startTasksIgnoringInterrupts(executor, setup.threads(), done);

    executor.shutdown();

    assertRejectsEverySubmission(executor);
    assertThat(executor.isTerminated()).isFalse();
    done.countDown();
    assertThat(executor.awaitTermination(LONG_MS, MILLISECONDS)).isTrue();
    assertRejectsEverySubmission(executor);
    for (Future<?> future : running) {
      assertThat(future.isDone()).isTrue();
      assertThat(future.isCancelled()).isFalse();
    }
  }

  /**
   * The TCK's {@code testSubmittedTasksRejectedWhenShutdown}, with {@code shutdownNow()}: the
   * running tasks ignore the interrupt and go on. Fault 8 of issue 20: on the timer thread, {@code
   * shutdownNow} waited, uninterruptibly, for such a task; the JDK's contract is that it does not
   * wait for actively executing tasks.
   */
  @EachSetup
  void afterShutdownNowEverySubmissionIsRejectedWhileTasksIgnoringInterruptsRun(Setup setup)
      throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    CountDownLatch done = releasedAtEnd();
    startTasksIgnoringInterrupts(executor, setup.threads(), done);

    promptly("shutdownNow() while tasks that ignore interrupts run", executor::shutdownNow);
    assertThat(promptly("a second shutdownNow()", executor::shutdownNow)).isEmpty();

    assertRejectsEverySubmission(executor);
    assertThat(executor.isTerminated()).as("the tasks still run").isFalse();
    done.countDown();
    assertThat(executor.awaitTermination(LONG_MS, MILLISECONDS)).isTrue();
    assertRejectsEverySubmission(executor);
  }

  /**
   * The TCK's {@code testShutdownNow}: with every thread busy and three more tasks waiting for
   * one, {@code shutdownNow} interrupts the running tasks and returns the three. Fault 7 of issue
   * 20: with a task executor, {@code shutdownNow} returned none of the tasks waiting in it and
   * interrupted none of the running ones.
   */
  @EachSetup
  void shutdownNowInterruptsTheRunningTasksAndReturnsThoseWaitingForAThread(Setup setup)
      throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    int threads = setup.threads();
    CountDownLatch started = new CountDownLatch(threads);
    CountDownLatch never = releasedAtEnd();
    AtomicInteger interrupted = new AtomicInteger();
    AtomicInteger ran = new AtomicInteger();
    Runnable waiter = () -> {
      ran.incrementAndGet();
      started.countDown();
      try {
        never.await();
      } catch (InterruptedException expected) {
        interrupted.incrementAndGet();
      }
    };
    for (int i = 0; i < threads + 3; i++) {
      executor.execute(waiter);
    }
    await(started);

    List<Runnable> waiting = promptly("shutdownNow()", executor::shutdownNow);

    assertThat(executor.isShutdown()).isTrue();
    assertThat(waiting).as("the tasks that never started").hasSize(3);
    assertThat(waiting).allMatch(task -> !((Future<?>) task).isDone());
    assertThat(executor.awaitTermination(LONG_MS, MILLISECONDS)).isTrue();
    assertThat(executor.isTerminated()).isTrue();
    assertThat(interrupted).as("the running tasks were interrupted").hasValue(threads);
    assertThat(ran).as("no returned task ran").hasValue(threads);
  }

  /** The TCK's {@code testShutdownNow_delayedTasks}. */
  @EachSetup
  void shutdownNowReturnsTheDelayedAndPeriodicTasksNeitherDoneNorCancelled(Setup setup)
      throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    AtomicInteger runs = new AtomicInteger();
    Runnable counts = runs::incrementAndGet;
    List<ScheduledFuture<?>> tasks = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      tasks.add(executor.schedule(counts, NEVER_MS, MILLISECONDS));
      tasks.add(executor.scheduleAtFixedRate(counts, NEVER_MS, NEVER_MS, MILLISECONDS));
      tasks.add(executor.scheduleWithFixedDelay(counts, NEVER_MS, NEVER_MS, MILLISECONDS));
    }

    List<Runnable> waiting = executor.shutdownNow();

    assertThat(executor.isShutdown()).isTrue();
    assertThat(waiting).containsExactlyInAnyOrderElementsOf(
        tasks.stream().map(task -> (Runnable) task).toList());
    for (ScheduledFuture<?> task : tasks) {
      assertThat(task.isDone()).isFalse();
      assertThat(task.isCancelled()).isFalse();
    }
    assertThat(executor.awaitTermination(LONG_MS, MILLISECONDS)).isTrue();
    assertThat(executor.stats().pending()).isZero();
    assertThat(runs).hasValue(0);
  }

  /**
   * Fault 4 of issue 20: {@code shutdownNow()} lost delayed tasks to a {@code shutdown()} just
   * before it or racing with it. {@code shutdown()} lets delayed tasks run (the default policy),
   * so every one of them is still awaiting execution and must be returned. Racing rounds, every
   * other one with the two calls on different threads.
   */
  @EachSetup
  void shutdownNowReturnsEveryDelayedTaskWhateverShutdownDidJustBefore(Setup setup)
      throws Exception {
    for (int round = 0; round < 150; round++) {
      TimerScheduledExecutorService executor = start(setup);
      List<Runnable> delayed = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        delayed.add((Runnable) executor.schedule(() -> {}, NEVER_MS, MILLISECONDS));
      }
      List<Runnable> returned;
      if (round % 2 == 0) {
        executor.shutdown();
        returned = executor.shutdownNow();
      } else {
        CountDownLatch go = new CountDownLatch(1);
        Thread shutdown = new Thread(() -> {
          try {
            go.await();
          } catch (InterruptedException e) {
            return;
          }
          executor.shutdown();
        });
        shutdown.start();
        go.countDown();
        returned = executor.shutdownNow();
        shutdown.join(LONG_MS);
      }

      assertThat(returned).as("round %d", round).containsExactlyInAnyOrderElementsOf(delayed);
      assertThat(delayed).allMatch(task -> !((Future<?>) task).isCancelled());
      assertThat(executor.awaitTermination(LONG_MS, MILLISECONDS)).isTrue();
    }
  }

  /**
   * Producers on four threads schedule and submit while {@code shutdown()} comes: each
   * submission is either rejected or, delayed tasks running after shutdown by default, runs; no
   * accepted task is lost, cancelled or left pending. Repeated rounds.
   */
  @EachSetup
  void submissionsRacingWithShutdownAreEitherRejectedOrRun(Setup setup) throws Exception {
    for (int round = 0; round < 10; round++) {
      TimerScheduledExecutorService executor = start(setup);
      Race race = submitFromFourThreadsUntilRejected(executor, false, executor::shutdown);

      assertThat(executor.awaitTermination(LONG_MS, MILLISECONDS)).as("round %d", round).isTrue();
      for (Accepted task : race.accepted) {
        assertThat(task.future.isDone()).as("round %d: accepted and done", round).isTrue();
        assertThat(task.future.isCancelled()).as("round %d: accepted and run", round).isFalse();
      }
    }
  }

  /**
   * As above with {@code shutdownNow()}, some tasks now due in an hour: a task accepted before
   * {@code shutdownNow()} was called either ran or is among those it returns, never both. The one
   * exception is the JDK's own: a task due by the time {@code shutdownNow()} returned may have
   * been on its way to a thread and come back cancelled instead, as a {@code
   * ScheduledThreadPoolExecutor} worker that took a task just before {@code shutdownNow} cancels
   * it. A task whose submission overlapped the call may come back cancelled too, as {@code
   * ScheduledThreadPoolExecutor}'s {@code delayedExecute} cancels a task it queued while the
   * executor shut down.
   */
  @EachSetup
  void submissionsRacingWithShutdownNowEitherRunOrAreReturned(Setup setup) throws Exception {
    for (int round = 0; round < 10; round++) {
      TimerScheduledExecutorService executor = start(setup);
      List<List<Runnable>> returned = new CopyOnWriteArrayList<>();
      Race race = submitFromFourThreadsUntilRejected(
          executor, true, () -> returned.add(executor.shutdownNow()));

      assertThat(executor.awaitTermination(LONG_MS, MILLISECONDS)).as("round %d", round).isTrue();
      Set<Runnable> notStarted = Collections.newSetFromMap(new IdentityHashMap<>());
      notStarted.addAll(returned.get(0));
      assertThat(notStarted).as("returned once each").hasSize(returned.get(0).size());
      for (Accepted task : race.accepted) {
        Future<?> future = task.future;
        boolean ran = future.isDone() && !future.isCancelled();
        boolean handedBack = notStarted.contains(future);
        assertThat(ran && handedBack).as("round %d: %s ran and was returned", round, future)
            .isFalse();
        if (task.acceptedAt < race.stoppedAt && !ran && !handedBack) {
          long deadline = System.nanoTime() + ((ScheduledFuture<?>) future).getDelay(NANOSECONDS);
          assertThat(future.isCancelled() && deadline - race.stopReturnedNanos <= 0)
              .as("round %d: %s, accepted before shutdownNow(), ran or was returned, or was due"
                  + " and cancelled on its way to a thread", round, future)
              .isTrue();
        } else {
          assertThat(ran || handedBack || future.isCancelled())
              .as("round %d: %s is accounted for", round, future).isTrue();
        }
      }
    }
  }

  /** A task a producer submitted, and when {@code schedule} or {@code submit} returned it. */
  private static final class Accepted {
    final Future<?> future;
    final long acceptedAt;

    Accepted(Future<?> future, long acceptedAt) {
      this.future = future;
      this.acceptedAt = acceptedAt;
    }
  }

  /**
   * What the producers had accepted, the tick of the logical clock just before the stop, and the
   * ticker's time (System.nanoTime) when the stop returned.
   */
  private static final class Race {
    final List<Accepted> accepted;
    final long stoppedAt;
    final long stopReturnedNanos;

    Race(List<Accepted> accepted, long stoppedAt, long stopReturnedNanos) {
      this.accepted = accepted;
      this.stoppedAt = stoppedAt;
      this.stopReturnedNanos = stopReturnedNanos;
    }
  }

  /**
   * Runs four producers that schedule and submit tasks due within a millisecond, and with {@code
   * farTasks} also tasks due in an hour (at most 500 each before the stop), until they are
   * rejected, and calls {@code stop} once they are under way. A logical clock, ticked after each
   * accepted submission and just before the stop, tells which submissions returned before the
   * stop began.
   */
  private static Race submitFromFourThreadsUntilRejected(
      TimerScheduledExecutorService executor, boolean farTasks, Runnable stop)
      throws InterruptedException {
    AtomicLong clock = new AtomicLong();
    List<Accepted> accepted = new CopyOnWriteArrayList<>();
    CountDownLatch underWay = new CountDownLatch(4);
    List<Thread> producers = new ArrayList<>();
    for (int p = 0; p < 4; p++) {
      Thread producer = new Thread(() -> {
        for (int i = 0; ; i++) {
          if (i == 20) {
            underWay.countDown();
          }
          while (i >= 500 && !executor.isShutdown()) {
            Thread.yield(); // enough: wait for the stop, then be rejected
          }
          Future<?> future;
          try {
            switch (i % 4) {
              case 0 -> future = executor.schedule(() -> {}, i % 1_000, MICROSECONDS);
              case 1 -> future = executor.submit(() -> "submitted");
              case 2 -> future = executor.schedule(() -> "called", 0, MILLISECONDS);
              default -> future = farTasks
                  ? executor.schedule(() -> {}, NEVER_MS, MILLISECONDS)
                  : executor.submit(() -> {});
            }
          } catch (RejectedExecutionException e) {
            underWay.countDown();
            return;
          }
          accepted.add(new Accepted(future, clock.incrementAndGet()));
        }
      });
      producer.start();
      producers.add(producer);
    }
    await(underWay);
    long stoppedAt = clock.incrementAndGet();
    stop.run();
    long stopReturnedNanos = System.nanoTime();
    for (Thread producer : producers) {
      producer.join(LONG_MS);
      assertThat(producer.isAlive()).as("a producer still not rejected").isFalse();
    }
    return new Race(accepted, stoppedAt, stopReturnedNanos);
  }

  static Stream<Arguments> setupsAndPolicies() {
    return setups().flatMap(setup -> Stream.of(
        Arguments.of(setup, true, false), // the defaults
        Arguments.of(setup, true, true),
        Arguments.of(setup, false, false),
        Arguments.of(setup, false, true)));
  }

  /**
   * The TCK's {@code testShutdown_cancellation}, over the four combinations of the two policies.
   * A first wave of periodic tasks blocks every thread; a second wave (an immediate, a delayed and
   * two periodic tasks) waits behind it when {@code shutdown()} comes. After the release: the
   * immediate task runs; the delayed one runs if delayed tasks may, else it is cancelled; periodic
   * tasks go on (until they end themselves by throwing on their third run) if they may, else they
   * are cancelled, those of the second wave without ever running.
   */
  @ParameterizedTest(name = "{0}, delayed tasks run after shutdown: {1}, periodic go on: {2}")
  @MethodSource("setupsAndPolicies")
  void theShutdownPoliciesDecideWhatRunsAfterShutdown(
      Setup setup, boolean delayedRun, boolean periodicContinue) throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    if (!delayedRun) {
      executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }
    if (periodicContinue) {
      executor.setContinueExistingPeriodicTasksAfterShutdownPolicy(true);
    }
    assertThat(executor.getExecuteExistingDelayedTasksAfterShutdownPolicy()).isEqualTo(delayedRun);
    assertThat(executor.getContinueExistingPeriodicTasksAfterShutdownPolicy())
        .isEqualTo(periodicContinue);
    CountDownLatch blocked = new CountDownLatch(setup.threads());
    CountDownLatch unblock = releasedAtEnd();
    RuntimeException endsItself = new RuntimeException("third run: the periodic task ends");
    AtomicInteger oneShotRuns = new AtomicInteger();
    Runnable oneShot = oneShotRuns::incrementAndGet;

    List<AtomicInteger> firstWaveRuns = new ArrayList<>();
    List<ScheduledFuture<?>> firstWave = new ArrayList<>();
    for (int i = 0; i < setup.threads(); i++) {
      AtomicInteger runs = new AtomicInteger();
      Runnable blocksOnItsFirstRun = () -> {
        int run = runs.incrementAndGet();
        if (run == 1) {
          blocked.countDown();
          awaitIgnoringInterrupts(unblock);
        } else if (run == 3) {
          throw endsItself;
        }
      };
      firstWaveRuns.add(runs);
      firstWave.add(i % 2 == 0
          ? executor.scheduleAtFixedRate(blocksOnItsFirstRun, 0, 1, MILLISECONDS)
          : executor.scheduleWithFixedDelay(blocksOnItsFirstRun, 0, 1, MILLISECONDS));
    }
    await(blocked);

    Future<?> immediate = executor.submit(oneShot);
    ScheduledFuture<?> delayed =
        executor.schedule(oneShot, delayedRun ? 1 : NEVER_MS, MILLISECONDS);
    List<AtomicInteger> secondWaveRuns = List.of(new AtomicInteger(), new AtomicInteger());
    List<ScheduledFuture<?>> secondWave = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      AtomicInteger runs = secondWaveRuns.get(i);
      Runnable endsOnItsThirdRun = () -> {
        if (runs.incrementAndGet() == 3) {
          throw endsItself;
        }
      };
      secondWave.add(i == 0
          ? executor.scheduleAtFixedRate(endsOnItsThirdRun, 0, 1, MILLISECONDS)
          : executor.scheduleWithFixedDelay(endsOnItsThirdRun, 0, 1, MILLISECONDS));
    }
    assertThat(((ScheduledFuture<?>) immediate).getDelay(NANOSECONDS)).isNotPositive();
    Stream.of(firstWave, secondWave, List.of(immediate, delayed)).flatMap(List::stream)
        .forEach(future -> assertThat(future.isDone()).as("before shutdown").isFalse());

    executor.shutdown();

    assertThat(executor.isShutdown()).isTrue();
    assertThat(executor.isTerminated()).isFalse();
    assertRejectsEverySubmission(executor);
    assertThat(immediate.isDone()).as("the immediate task waits behind the blocked threads")
        .isFalse();
    if (delayedRun) {
      assertThat(delayed.isDone()).isFalse();
    }
    firstWave.forEach(future -> assertThat(future.isDone()).as("running").isFalse());

    unblock.countDown();

    assertThat(executor.awaitTermination(LONG_MS, MILLISECONDS)).isTrue();
    assertThat(immediate.get()).isNull();
    if (delayedRun) {
      assertThat(delayed.get()).isNull();
      assertThat(oneShotRuns).hasValue(2);
    } else {
      assertThat(delayed.isCancelled()).isTrue();
      assertThat(oneShotRuns).hasValue(1);
    }
    for (ScheduledFuture<?> periodic : concat(firstWave, secondWave)) {
      assertThat(periodic.isDone()).isTrue();
      if (periodicContinue) {
        assertThatThrownBy(periodic::get)
            .isInstanceOf(ExecutionException.class).hasCause(endsItself);
      } else {
        assertThat(periodic.isCancelled()).isTrue();
      }
    }
    for (AtomicInteger runs : firstWaveRuns) {
      assertThat(runs).as("first wave").hasValue(periodicContinue ? 3 : 1);
    }
    for (AtomicInteger runs : secondWaveRuns) {
      assertThat(runs).as("second wave").hasValue(periodicContinue ? 3 : 0);
    }
  }

  /**
   * What the TCK's {@code testShutdown_cancellation} asserts right after {@code shutdown()}
   * returns: the delayed and periodic tasks the policies drop are cancelled already ({@code
   * ScheduledThreadPoolExecutor}'s {@code onShutdown} cancels them on the calling thread), not at
   * some later moment, while every thread is still busy.
   */
  @EachSetup
  void whatThePoliciesDropIsCancelledByTheTimeShutdownReturns(Setup setup) throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    CountDownLatch blocked = new CountDownLatch(setup.threads());
    CountDownLatch unblock = releasedAtEnd();
    for (int i = 0; i < setup.threads(); i++) {
      executor.execute(() -> {
        blocked.countDown();
        awaitIgnoringInterrupts(unblock);
      });
    }
    await(blocked);
    List<ScheduledFuture<?>> dropped = List.of(
        executor.schedule(() -> {}, NEVER_MS, MILLISECONDS),
        executor.scheduleAtFixedRate(() -> {}, 0, 1, MILLISECONDS),
        executor.scheduleWithFixedDelay(() -> {}, NEVER_MS, 1, MILLISECONDS));

    executor.shutdown();

    for (ScheduledFuture<?> future : dropped) {
      assertThat(future.isCancelled()).as("cancelled when shutdown() returns").isTrue();
    }
    unblock.countDown();
    assertThat(executor.awaitTermination(LONG_MS, MILLISECONDS)).isTrue();
  }

  @EachSetup
  void awaitTerminationTimesOutUntilTheDelayedTasksShutdownKeepsHaveRun(Setup setup)
      throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    long start = System.nanoTime();
    ScheduledFuture<?> delayed = executor.schedule(() -> {}, 10 * SHORT_MS, MILLISECONDS);
    executor.shutdown();

    assertThat(executor.awaitTermination(1, MILLISECONDS)).isFalse();
    assertThat(executor.awaitTermination(0, MILLISECONDS)).isFalse();
    assertThat(executor.awaitTermination(-1, MILLISECONDS)).isFalse();

    assertThat(executor.awaitTermination(LONG_MS, MILLISECONDS)).isTrue();
    assertThat(millisSince(start)).isGreaterThanOrEqualTo(10 * SHORT_MS);
    assertThat(delayed.isDone()).isTrue();
    assertThat(delayed.isCancelled()).isFalse();
  }

  @EachSetup
  void aTaskMayShutTheExecutorDown(Setup setup) throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    ScheduledFuture<?> delayed = executor.schedule(() -> {}, SHORT_MS, MILLISECONDS);

    Future<?> shutsDown = executor.submit(executor::shutdown);

    shutsDown.get(LONG_MS, MILLISECONDS);
    assertThat(executor.awaitTermination(LONG_MS, MILLISECONDS)).isTrue();
    assertThat(delayed.isDone()).isTrue();
    assertThat(delayed.isCancelled()).as("delayed tasks run after shutdown by default").isFalse();
  }

  @EachSetup
  void aTaskMayCallShutdownNowAndGetsTheWaitingTasks(Setup setup) throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    ScheduledFuture<?> delayed = executor.schedule(() -> {}, NEVER_MS, MILLISECONDS);

    Future<List<Runnable>> shutsDownNow = executor.submit(executor::shutdownNow);

    assertThat(shutsDownNow.get(LONG_MS, MILLISECONDS)).containsExactly((Runnable) delayed);
    assertThat(executor.awaitTermination(LONG_MS, MILLISECONDS)).isTrue();
    assertThat(delayed.isDone()).isFalse();
  }

  /**
   * {@code ExecutorService.close()} (Java 19 on, a default method): shuts down, waits for the
   * delayed tasks {@code shutdown()} lets run, and returns terminated; interrupted while it waits,
   * it stops at once with {@code shutdownNow()} and keeps the interrupt. Called reflectively, as
   * the library compiles for Java 17.
   */
  @EachSetup
  @EnabledForJreRange(min = JRE.JAVA_19)
  void closeWaitsForTheDelayedTasksAndStopsAtOnceWhenInterrupted(Setup setup) throws Exception {
    Method close = ExecutorService.class.getMethod("close");
    TimerScheduledExecutorService executor = start(setup);
    ScheduledFuture<?> delayed = executor.schedule(() -> {}, SHORT_MS, MILLISECONDS);

    close.invoke(executor);

    assertThat(executor.isTerminated()).isTrue();
    assertThat(delayed.isDone()).isTrue();
    assertThat(delayed.isCancelled()).isFalse();

    TimerScheduledExecutorService interrupted = start(setup);
    ScheduledFuture<?> never = interrupted.schedule(() -> {}, NEVER_MS, MILLISECONDS);
    Thread.currentThread().interrupt();
    close.invoke(interrupted);
    assertThat(Thread.interrupted()).as("close keeps the interrupt").isTrue();
    assertThat(interrupted.isTerminated()).isTrue();
    assertThat(never.isDone()).as("handed back by shutdownNow, not run").isFalse();
  }

  /**
   * Fault 2 of issue 20: a task executor that rejected a task left a future that never completed,
   * and the executor never terminated, even after {@code shutdownNow()}. Every future completes:
   * here the rejected task's, exceptionally or cancelled.
   */
  @Strategies.Each
  void aTaskTheTaskExecutorRejectsStillCompletesAndTheExecutorTerminates(String strategy)
      throws Exception {
    ExecutorService rejecting = newPool(1);
    rejecting.shutdown();
    List<Throwable> reported = new CopyOnWriteArrayList<>();
    TimerScheduledExecutorService executor = started(TimerService.builder()
        .strategy(strategy)
        .taskExecutor(rejecting)
        .uncaughtExceptionHandler((thread, failure) -> reported.add(failure))
        .buildScheduledExecutorService());

    ScheduledFuture<String> rejected = executor.schedule(() -> "never", 1, MILLISECONDS);

    eventually("the rejected task's future completes", rejected::isDone);
    assertThatThrownBy(() -> rejected.get(LONG_MS, MILLISECONDS))
        .satisfiesAnyOf(
            thrown -> assertThat(thrown).isInstanceOf(CancellationException.class),
            thrown -> assertThat(thrown).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(RejectedExecutionException.class));
    executor.shutdownNow();
    assertThat(executor.awaitTermination(LONG_MS, MILLISECONDS)).isTrue();
  }

  // ---- helpers ----

  /**
   * Starts {@code count} tasks, one through each submission method in turn, that wait for {@code
   * done} ignoring interrupts, and waits until all run.
   */
  private static List<Future<?>> startTasksIgnoringInterrupts(
      TimerScheduledExecutorService executor, int count, CountDownLatch done)
      throws InterruptedException {
    CountDownLatch started = new CountDownLatch(count);
    Runnable runnable = () -> {
      started.countDown();
      awaitIgnoringInterrupts(done);
    };
    Callable<Boolean> callable = () -> {
      runnable.run();
      return Boolean.TRUE;
    };
    List<Future<?>> futures = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      switch (i % 4) {
        case 0 -> futures.add(executor.submit(callable));
        case 1 -> futures.add(executor.submit(runnable, Boolean.TRUE));
        case 2 -> futures.add(executor.submit(runnable));
        default -> executor.execute(runnable);
      }
    }
    await(started);
    return futures;
  }

  private static void awaitIgnoringInterrupts(CountDownLatch latch) {
    while (true) {
      try {
        latch.await();
        return;
      } catch (InterruptedException deliberatelyIgnored) {
        // as the TCK's tasks do: go on waiting
      }
    }
  }

  /** As the TCK's {@code assertTaskSubmissionsAreRejected}, for every submission method. */
  private static void assertRejectsEverySubmission(TimerScheduledExecutorService executor) {
    long pending = executor.stats().pending();
    Runnable runnable = () -> {};
    Callable<Boolean> callable = () -> Boolean.TRUE;
    List<Callable<Boolean>> callables = List.of(callable);
    assertThatThrownBy(() -> executor.execute(runnable))
        .isInstanceOf(RejectedExecutionException.class);
    assertThatThrownBy(() -> executor.submit(runnable))
        .isInstanceOf(RejectedExecutionException.class);
    assertThatThrownBy(() -> executor.submit(runnable, Boolean.TRUE))
        .isInstanceOf(RejectedExecutionException.class);
    assertThatThrownBy(() -> executor.submit(callable))
        .isInstanceOf(RejectedExecutionException.class);
    assertThatThrownBy(() -> executor.schedule(runnable, 1, MILLISECONDS))
        .isInstanceOf(RejectedExecutionException.class);
    assertThatThrownBy(() -> executor.schedule(callable, 1, MILLISECONDS))
        .isInstanceOf(RejectedExecutionException.class);
    assertThatThrownBy(() -> executor.scheduleAtFixedRate(runnable, 1, 1, MILLISECONDS))
        .isInstanceOf(RejectedExecutionException.class);
    assertThatThrownBy(() -> executor.scheduleWithFixedDelay(runnable, 1, 1, MILLISECONDS))
        .isInstanceOf(RejectedExecutionException.class);
    assertThatThrownBy(() -> executor.invokeAll(callables))
        .isInstanceOf(RejectedExecutionException.class);
    assertThatThrownBy(() -> executor.invokeAny(callables))
        .isInstanceOf(RejectedExecutionException.class);
    assertThat(executor.stats().pending()).as("nothing rejected became pending")
        .isLessThanOrEqualTo(pending);
  }

  private static List<ScheduledFuture<?>> concat(
      List<ScheduledFuture<?>> first, List<ScheduledFuture<?>> second) {
    List<ScheduledFuture<?>> all = new ArrayList<>(first);
    all.addAll(second);
    return all;
  }
}
