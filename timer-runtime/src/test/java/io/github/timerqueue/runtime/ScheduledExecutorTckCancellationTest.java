package io.github.timerqueue.runtime;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Timeout;

/**
 * Cancellation: what the TCK checks through {@code cancel} in its schedule, purge and shutdown
 * tests, and what {@code ScheduledThreadPoolExecutor} with {@code setRemoveOnCancelPolicy(true)}
 * promises, which this executor's Javadoc promises too: a cancelled task never starts, its timer
 * is gone at once, a running task is interrupted only when asked, a periodic task stops for good,
 * and {@code cancel} never waits for a task.
 */
@Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ScheduledExecutorTckCancellationTest extends ScheduledExecutorTckSupport {

  @EachSetup
  void aTaskCancelledBeforeItsTimeNeverRunsAndIsNoLongerPending(Setup setup) throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    long soon = 5 * SHORT_MS; // long enough for the cancels to come first
    AtomicInteger runs = new AtomicInteger();
    List<ScheduledFuture<?>> futures = List.of(
        executor.schedule(runs::incrementAndGet, soon, MILLISECONDS),
        executor.schedule(() -> runs.incrementAndGet(), soon, MILLISECONDS),
        executor.scheduleAtFixedRate(runs::incrementAndGet, soon, 1, MILLISECONDS),
        executor.scheduleWithFixedDelay(runs::incrementAndGet, soon, 1, MILLISECONDS),
        executor.schedule(runs::incrementAndGet, NEVER_MS, MILLISECONDS));

    for (ScheduledFuture<?> future : futures) {
      assertThat(future.cancel(false)).isTrue();
      assertThat(future.isCancelled()).isTrue();
      assertThat(future.isDone()).isTrue();
      assertThat(future.cancel(false)).as("a second cancel").isFalse();
      assertThat(future.cancel(true)).as("a second cancel").isFalse();
      assertThatThrownBy(future::get).isInstanceOf(CancellationException.class);
      assertThatThrownBy(() -> future.get(1, MILLISECONDS))
          .isInstanceOf(CancellationException.class);
    }
    assertThat(executor.stats().pending()).as("removed at once, as README promises").isZero();
    Thread.sleep(soon + SHORT_MS);
    assertThat(runs).hasValue(0);
    executor.shutdown();
    assertThat(executor.awaitTermination(LONG_MS, MILLISECONDS))
        .as("nothing left to wait for").isTrue();
  }

  @EachSetup
  void cancelWithInterruptInterruptsTheRunningTask(Setup setup) throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch interrupted = new CountDownLatch(1);
    ScheduledFuture<?> running = executor.schedule(() -> {
      started.countDown();
      try {
        Thread.sleep(LONG_MS);
      } catch (InterruptedException e) {
        interrupted.countDown();
      }
    }, 0, MILLISECONDS);
    await(started);

    assertThat(running.cancel(true)).isTrue();

    await(interrupted);
    assertThat(running.isCancelled()).isTrue();
    assertThatThrownBy(running::get).isInstanceOf(CancellationException.class);
  }

  @EachSetup
  void cancelWithoutInterruptLetsTheRunningTaskFinishButItsFutureIsCancelled(Setup setup)
      throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = releasedAtEnd();
    AtomicBoolean interrupted = new AtomicBoolean();
    CountDownLatch finished = new CountDownLatch(1);
    ScheduledFuture<String> running = executor.schedule(() -> {
      started.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        interrupted.set(true);
      }
      finished.countDown();
      return "ignored";
    }, 0, MILLISECONDS);
    await(started);

    assertThat(running.cancel(false)).isTrue();
    assertThat(running.isCancelled()).isTrue();
    release.countDown();

    await(finished);
    assertThat(interrupted).isFalse();
    assertThatThrownBy(running::get).isInstanceOf(CancellationException.class);
  }

  @EachSetup
  void cancellingADoneTaskFailsAndLeavesItsResult(Setup setup) throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    ScheduledFuture<String> done = executor.schedule(() -> "result", 0, MILLISECONDS);
    assertThat(done.get(LONG_MS, MILLISECONDS)).isEqualTo("result");

    assertThat(done.cancel(true)).isFalse();
    assertThat(done.cancel(false)).isFalse();

    assertThat(done.isCancelled()).isFalse();
    assertThat(done.get()).isEqualTo("result");
    Future<Boolean> next = executor.submit(() -> Thread.currentThread().isInterrupted());
    assertThat(next.get(LONG_MS, MILLISECONDS)).as("no interrupt left behind").isFalse();
  }

  @EachSetup
  void aCancelledPeriodicTaskRunsNoMore(Setup setup) throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    for (boolean fixedRate : new boolean[] {true, false}) {
      AtomicInteger runs = new AtomicInteger();
      CountDownLatch ranTwice = new CountDownLatch(2);
      Runnable counts = () -> {
        runs.incrementAndGet();
        ranTwice.countDown();
      };
      ScheduledFuture<?> periodic = fixedRate
          ? executor.scheduleAtFixedRate(counts, 0, 1, MILLISECONDS)
          : executor.scheduleWithFixedDelay(counts, 0, 1, MILLISECONDS);
      await(ranTwice);

      assertThat(periodic.cancel(false)).isTrue();
      Thread.sleep(5); // a run that had started may still end
      int runsAtCancel = runs.get();
      Thread.sleep(10);

      assertThat(runs).as(fixedRate ? "fixed rate" : "fixed delay").hasValue(runsAtCancel);
      assertThat(periodic.isDone()).isTrue();
    }
  }

  @EachSetup
  void aPeriodicTaskThatCancelsItselfRunsNoMore(Setup setup) throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    AtomicInteger runs = new AtomicInteger();
    List<ScheduledFuture<?>> self = new ArrayList<>(1);
    CountDownLatch scheduled = new CountDownLatch(1);
    CountDownLatch cancelled = new CountDownLatch(1);
    self.add(executor.scheduleAtFixedRate(() -> {
      try {
        scheduled.await();
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
      if (runs.incrementAndGet() == 3) {
        self.get(0).cancel(false);
        cancelled.countDown();
      }
    }, 0, 1, MILLISECONDS));
    scheduled.countDown();

    await(cancelled);
    Thread.sleep(5);

    assertThat(runs).hasValue(3);
    assertThat(self.get(0).isCancelled()).isTrue();
    assertThat(executor.stats().pending()).isZero();
  }

  /**
   * Fault 5 of issue 20: a periodic task cancelled while its run ends and it re-arms was pending
   * again for a whole period ({@code isCancelled()} true, {@code stats().pending() == 1}). Racing
   * rounds: the run ends and the cancel comes at random moments a few microseconds apart.
   */
  @EachSetup
  void aPeriodicTaskCancelledWhileItReArmsIsNotPendingAgain(Setup setup) throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    ThreadLocalRandom random = ThreadLocalRandom.current();
    for (int round = 0; round < 300; round++) {
      CountDownLatch started = new CountDownLatch(1);
      long runNanos = random.nextLong(20_000);
      ScheduledFuture<?> periodic = executor.scheduleAtFixedRate(() -> {
        started.countDown();
        spin(runNanos);
      }, 0, NEVER_MS, MILLISECONDS);
      await(started);
      spin(random.nextLong(20_000));

      assertThat(periodic.cancel(false)).isTrue();

      int at = round;
      eventually("round " + at + ": the cancelled task's timer is gone",
          () -> executor.stats().pending() == 0);
    }
    assertThat(executor.shutdownNow()).as("a cancelled task is never handed back").isEmpty();
  }

  /**
   * Fault 1 of issue 20: cancelling the last task while it runs, after {@code shutdown()},
   * reached {@code TimerService.stop} and joined the timer thread, on which the task waited for
   * the canceller: neither returned. {@code cancel} never waits for a task.
   */
  @EachSetup
  void cancellingTheLastRunningTaskAfterShutdownDoesNotWaitForIt(Setup setup) throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = releasedAtEnd();
    Future<?> running = executor.submit(() -> {
      started.countDown();
      release.await();
      return null;
    });
    await(started);
    executor.shutdown();

    assertThat(promptly("cancel(false) of the last task, running, after shutdown()",
        () -> running.cancel(false))).isTrue();

    assertThat(running.isCancelled()).isTrue();
    release.countDown();
    assertThat(executor.awaitTermination(LONG_MS, MILLISECONDS)).isTrue();
  }

  /**
   * {@code awaitTermination} blocks "until all tasks have completed execution after a shutdown
   * request" ({@link java.util.concurrent.ExecutorService}); a task whose future was cancelled
   * while it ran has not completed execution until it returns, and {@code
   * ScheduledThreadPoolExecutor}'s worker does not end, nor the pool terminate, before that.
   * (On the timer thread the cancel itself used to hang: fault 1 of issue 20.)
   */
  @EachSetup
  void theExecutorDoesNotTerminateWhileACancelledTaskStillRuns(Setup setup) throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = releasedAtEnd();
    AtomicBoolean returned = new AtomicBoolean();
    Future<?> running = executor.submit(() -> {
      started.countDown();
      release.await();
      returned.set(true);
      return null;
    });
    await(started);
    executor.shutdown();
    promptly("cancel(false) of the last task, running, after shutdown()",
        () -> running.cancel(false));

    assertThat(executor.awaitTermination(SHORT_MS, MILLISECONDS))
        .as("terminated while the cancelled task still runs").isFalse();
    assertThat(executor.isTerminated()).isFalse();

    release.countDown();
    assertThat(executor.awaitTermination(LONG_MS, MILLISECONDS)).isTrue();
    assertThat(returned).isTrue();
  }

  /**
   * A model of racing cancellations: tasks due within a few milliseconds are cancelled by four
   * threads while they fire. Each task runs at most once; a task whose cancel failed has run and
   * holds its result; a task whose cancel succeeded reports cancelled; nothing stays pending.
   */
  @EachSetup
  void cancellationsRacingWithExpiriesLoseNothingAndRunNothingTwice(Setup setup)
      throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    int tasks = 400;
    int cancellers = 4;
    ThreadLocalRandom random = ThreadLocalRandom.current();
    AtomicIntegerArray runs = new AtomicIntegerArray(tasks);
    List<ScheduledFuture<Integer>> futures = new ArrayList<>(tasks);
    for (int i = 0; i < tasks; i++) {
      int task = i;
      futures.add(executor.schedule(() -> {
        runs.incrementAndGet(task);
        return task;
      }, random.nextLong(3_000), TimeUnit.MICROSECONDS));
    }
    boolean[] cancelled = new boolean[tasks];
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < cancellers; t++) {
      int first = t;
      Thread canceller = new Thread(() -> {
        try {
          go.await();
        } catch (InterruptedException e) {
          return;
        }
        for (int i = first; i < tasks; i += cancellers) {
          cancelled[i] = futures.get(i).cancel(ThreadLocalRandom.current().nextBoolean());
          Thread.onSpinWait();
        }
      });
      canceller.start();
      threads.add(canceller);
    }
    go.countDown();
    for (Thread thread : threads) {
      thread.join(LONG_MS);
      assertThat(thread.isAlive()).isFalse();
    }

    eventually("every future done", () -> futures.stream().allMatch(Future::isDone));
    for (int i = 0; i < tasks; i++) {
      assertThat(runs.get(i)).as("runs of task %d", i).isLessThanOrEqualTo(1);
      assertThat(futures.get(i).isCancelled()).as("task %d", i).isEqualTo(cancelled[i]);
      if (!cancelled[i]) {
        assertThat(runs.get(i)).as("task %d, not cancelled", i).isEqualTo(1);
        assertThat(futures.get(i).get()).isEqualTo(i);
      }
    }
    eventually("nothing pending", () -> executor.stats().pending() == 0);
  }

  private static void spin(long nanos) {
    long end = System.nanoTime() + nanos;
    while (System.nanoTime() - end < 0) {
      Thread.onSpinWait();
    }
  }
}
