package io.github.timerqueue.runtime;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Timeout;

/**
 * Timed {@code get} and interrupts, as the TCK checks them through its {@code checkTimedGet}, its
 * interrupted waits and the cancellation of running tasks: a timed wait ends with {@link
 * TimeoutException} no earlier than its timeout, an interrupted waiter gets {@link
 * InterruptedException} and leaves the task alone, and an interrupt meant for one task (from
 * {@code cancel(true)}, or left set by the task itself) never reaches the next task on that thread
 * nor keeps the timer thread awake.
 */
@Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ScheduledExecutorTckInterruptTest extends ScheduledExecutorTckSupport {

  @EachSetup
  void timedGetOfATaskNotYetRunTimesOutNoEarlierThanAsked(Setup setup) throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    ScheduledFuture<String> later = executor.schedule(() -> "later", NEVER_MS, MILLISECONDS);
    long start = System.nanoTime();

    assertThatThrownBy(() -> later.get(SHORT_MS, MILLISECONDS))
        .isInstanceOf(TimeoutException.class);

    assertThat(millisSince(start)).isGreaterThanOrEqualTo(SHORT_MS);
    assertThatThrownBy(() -> later.get(0, MILLISECONDS)).isInstanceOf(TimeoutException.class);
    assertThatThrownBy(() -> later.get(-1, MILLISECONDS)).isInstanceOf(TimeoutException.class);
    assertThat(later.isDone()).as("the timeout leaves the task alone").isFalse();
    assertThat(later.cancel(false)).isTrue();

    ScheduledFuture<?> periodic = executor.scheduleAtFixedRate(() -> {}, 0, 1, MILLISECONDS);
    assertThatThrownBy(() -> periodic.get(SHORT_MS, MILLISECONDS))
        .as("a periodic task completes only by failing or being cancelled")
        .isInstanceOf(TimeoutException.class);
    assertThat(periodic.cancel(false)).isTrue();
  }

  /** The TCK's {@code checkTimedGet}: a timed get of a done task returns at once. */
  @EachSetup
  void timedGetOfADoneTaskReturnsPromptly(Setup setup) throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    ScheduledFuture<String> done = executor.schedule(() -> "done", 0, MILLISECONDS);
    assertThat(done.get(LONG_MS, MILLISECONDS)).isEqualTo("done");
    long start = System.nanoTime();

    assertThat(done.get(LONG_MS, MILLISECONDS)).isEqualTo("done");
    assertThat(done.get(0, MILLISECONDS)).isEqualTo("done");

    assertThat(millisSince(start)).isLessThan(LONG_MS / 2);
  }

  @EachSetup
  void aWaiterInterruptedInGetGetsInterruptedExceptionAndTheTaskGoesOn(Setup setup)
      throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    CountDownLatch release = releasedAtEnd();
    ScheduledFuture<String> task = executor.schedule(() -> {
      release.await();
      return "ran";
    }, 0, MILLISECONDS);

    Thread.currentThread().interrupt();
    assertThatThrownBy(task::get).isInstanceOf(InterruptedException.class);
    assertThat(Thread.interrupted()).as("the exception clears the interrupt").isFalse();
    Thread.currentThread().interrupt();
    assertThatThrownBy(() -> task.get(LONG_MS, MILLISECONDS))
        .isInstanceOf(InterruptedException.class);

    for (boolean timed : new boolean[] {false, true}) {
      CountDownLatch waiting = new CountDownLatch(1);
      AtomicReference<Throwable> thrown = new AtomicReference<>();
      Thread waiter = new Thread(() -> {
        waiting.countDown();
        try {
          if (timed) {
            task.get(LONG_MS, MILLISECONDS);
          } else {
            task.get();
          }
        } catch (Throwable t) {
          thrown.set(t);
        }
      });
      waiter.start();
      await(waiting);
      waiter.interrupt();
      waiter.join(LONG_MS);
      assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
    }

    assertThat(task.isDone()).isFalse();
    release.countDown();
    assertThat(task.get(LONG_MS, MILLISECONDS)).isEqualTo("ran");
  }

  @EachSetup
  void anInterruptedAwaitTerminationThrowsInterruptedException(Setup setup) throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    ScheduledFuture<?> delayed = executor.schedule(() -> {}, NEVER_MS, MILLISECONDS);
    executor.shutdown();

    Thread.currentThread().interrupt();
    assertThatThrownBy(() -> executor.awaitTermination(LONG_MS, MILLISECONDS))
        .isInstanceOf(InterruptedException.class);
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Thread waiter = new Thread(() -> {
      try {
        executor.awaitTermination(LONG_MS, MILLISECONDS);
      } catch (Throwable t) {
        thrown.set(t);
      }
    });
    waiter.start();
    Thread.sleep(2);
    waiter.interrupt();
    waiter.join(LONG_MS);

    assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
    assertThat(executor.isTerminated()).isFalse();
    delayed.cancel(false);
    assertThat(executor.awaitTermination(LONG_MS, MILLISECONDS)).isTrue();
  }

  /**
   * {@code invokeAll} and {@code invokeAny} interrupted while they wait throw {@link
   * InterruptedException} and cancel their tasks, interrupting those that run.
   */
  @EachSetup
  void anInterruptedInvokeAllOrInvokeAnyCancelsItsTasks(Setup setup) throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    for (boolean all : new boolean[] {true, false}) {
      CountDownLatch never = releasedAtEnd();
      CountDownLatch started = new CountDownLatch(1);
      AtomicInteger interrupted = new AtomicInteger();
      Callable<String> waiter = () -> {
        started.countDown();
        try {
          never.await();
        } catch (InterruptedException e) {
          interrupted.incrementAndGet();
        }
        return "released";
      };
      List<Callable<String>> tasks = List.of(waiter, waiter, waiter);
      AtomicReference<Throwable> thrown = new AtomicReference<>();
      Thread invoker = new Thread(() -> {
        try {
          if (all) {
            executor.invokeAll(tasks);
          } else {
            executor.invokeAny(tasks);
          }
        } catch (Throwable t) {
          thrown.set(t);
        }
      });
      invoker.start();
      await(started);

      invoker.interrupt();
      invoker.join(LONG_MS);

      assertThat(thrown.get()).as(all ? "invokeAll" : "invokeAny")
          .isInstanceOf(InterruptedException.class);
      eventually("the running tasks are interrupted",
          () -> interrupted.get() >= 1 && executor.stats().pending() == 0);
    }
  }

  /**
   * Racing rounds of {@code cancel(true)} against the end of the task it interrupts: the interrupt
   * never reaches the task that runs next on that thread.
   */
  @EachSetup
  void theInterruptOfCancelWithInterruptNeverReachesTheNextTask(Setup setup) throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    ThreadLocalRandom random = ThreadLocalRandom.current();
    List<Integer> interruptedRounds = new ArrayList<>();
    for (int round = 0; round < 200; round++) {
      CountDownLatch started = new CountDownLatch(1);
      long runNanos = random.nextLong(20_000);
      ScheduledFuture<?> cancelled = executor.schedule(() -> {
        started.countDown();
        spin(runNanos);
      }, 0, MILLISECONDS);
      Future<Boolean> next = executor.submit(() -> Thread.currentThread().isInterrupted());
      await(started);
      spin(random.nextLong(20_000));
      cancelled.cancel(true);

      if (next.get(LONG_MS, MILLISECONDS)) {
        interruptedRounds.add(round);
      }
    }
    assertThat(interruptedRounds).as("rounds whose next task saw the interrupt").isEmpty();
  }

  /**
   * A task that leaves its thread's interrupt set does not pass it to the next task, and does not
   * keep the timer thread from sleeping: an idle executor does not wake up.
   */
  @EachSetup
  void anInterruptATaskLeavesSetReachesNeitherTheNextTaskNorTheTimer(Setup setup)
      throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    Future<?> interruptsItself = executor.submit(() -> Thread.currentThread().interrupt());
    interruptsItself.get(LONG_MS, MILLISECONDS);
    List<Future<Boolean>> next = new ArrayList<>();
    for (int i = 0; i < 2 * setup.threads(); i++) {
      next.add(executor.submit(() -> Thread.currentThread().isInterrupted()));
    }
    for (Future<Boolean> seen : next) {
      assertThat(seen.get(LONG_MS, MILLISECONDS)).isFalse();
    }

    long wakeups = executor.stats().wakeups();
    Thread.sleep(5 * SHORT_MS);

    assertThat(executor.stats().wakeups() - wakeups).as("wake-ups while idle")
        .isLessThanOrEqualTo(2);
  }

  @EachSetup
  void anInterruptedThreadMaySubmitAndKeepsItsInterrupt(Setup setup) throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    AtomicBoolean ran = new AtomicBoolean();

    Thread.currentThread().interrupt();
    ScheduledFuture<?> future = executor.schedule(() -> ran.set(true), 1, MILLISECONDS);
    boolean stillInterrupted = Thread.interrupted();

    assertThat(stillInterrupted).isTrue();
    future.get(LONG_MS, MILLISECONDS);
    assertThat(ran).isTrue();
  }

  private static void spin(long nanos) {
    long end = System.nanoTime() + nanos;
    while (System.nanoTime() - end < 0) {
      Thread.onSpinWait();
    }
  }
}
