package io.github.timerqueue.runtime;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Timeout;

/**
 * {@code invokeAll} and {@code invokeAny}, untimed and timed: what the TCK's {@code
 * testInvokeAny1}-{@code 5}, {@code testInvokeAll1}-{@code 5}, {@code testTimedInvokeAny*} and
 * {@code testTimedInvokeAll*} check. The executor inherits both from {@link
 * java.util.concurrent.AbstractExecutorService}, which wraps tasks with {@code newTaskFor} and
 * runs them through {@code execute}; these tests check that the timer's tasks keep that contract,
 * that the tasks a timeout or a winner cancels are interrupted and leave nothing pending.
 */
@Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ScheduledExecutorTckInvokeTest extends ScheduledExecutorTckSupport {
  private static final Callable<String> NPE_TASK = () -> {
    throw new NullPointerException("the task failed");
  };

  @EachSetup
  void invokeAnyRejectsNullsAndEmptyCollections(Setup setup) throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    CountDownLatch release = releasedAtEnd();
    Callable<String> waits = () -> {
      release.await();
      return "waited";
    };
    List<Callable<String>> withNull = Arrays.asList(waits, null);

    assertThatThrownBy(() -> executor.invokeAny(null)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> executor.invokeAny(List.<Callable<String>>of()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> executor.invokeAny(withNull))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> executor.invokeAny(null, LONG_MS, MILLISECONDS))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> executor.invokeAny(List.of(waits), LONG_MS, null))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(
            () -> executor.invokeAny(List.<Callable<String>>of(), LONG_MS, MILLISECONDS))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> executor.invokeAny(withNull, LONG_MS, MILLISECONDS))
        .isInstanceOf(NullPointerException.class);
    release.countDown();
    eventually("the tasks started before the null are done",
        () -> executor.stats().pending() == 0);
  }

  @EachSetup
  void invokeAllRejectsNullsAndReturnsNothingForNothing(Setup setup) throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    List<Callable<String>> withNull = Arrays.asList(() -> "0", null);

    assertThatThrownBy(() -> executor.invokeAll(null)).isInstanceOf(NullPointerException.class);
    assertThat(executor.invokeAll(List.<Callable<String>>of())).isEmpty();
    assertThatThrownBy(() -> executor.invokeAll(withNull))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> executor.invokeAll(null, LONG_MS, MILLISECONDS))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> executor.invokeAll(List.of(() -> "0"), LONG_MS, null))
        .isInstanceOf(NullPointerException.class);
    assertThat(executor.invokeAll(List.<Callable<String>>of(), LONG_MS, MILLISECONDS)).isEmpty();
    assertThatThrownBy(() -> executor.invokeAll(withNull, LONG_MS, MILLISECONDS))
        .isInstanceOf(NullPointerException.class);
  }

  @EachSetup
  void invokeAnyReturnsTheResultOfATaskThatSucceeded(Setup setup) throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    List<Callable<String>> tasks = List.of(NPE_TASK, () -> "a", () -> "b", NPE_TASK);

    assertThat(executor.invokeAny(tasks)).isIn("a", "b");
    long start = System.nanoTime();
    assertThat(executor.invokeAny(tasks, LONG_MS, MILLISECONDS)).isIn("a", "b");
    assertThat(millisSince(start)).isLessThan(LONG_MS);
  }

  @EachSetup
  void invokeAnyFailsWithTheExceptionOfATaskWhenAllFail(Setup setup) throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    List<Callable<String>> tasks = List.of(NPE_TASK, NPE_TASK);

    assertThatThrownBy(() -> executor.invokeAny(tasks))
        .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(NullPointerException.class);
    long start = System.nanoTime();
    assertThatThrownBy(() -> executor.invokeAny(tasks, LONG_MS, MILLISECONDS))
        .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(NullPointerException.class);
    assertThat(millisSince(start)).isLessThan(LONG_MS);
  }

  @EachSetup
  void invokeAllReturnsEveryTaskDoneInTheOrderGiven(Setup setup) throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    List<Callable<String>> tasks = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      String value = Integer.toString(i);
      tasks.add(i == 3 ? NPE_TASK : () -> {
        Thread.sleep(1);
        return value;
      });
    }

    for (boolean timed : new boolean[] {false, true}) {
      List<Future<String>> futures =
          timed ? executor.invokeAll(tasks, LONG_MS, MILLISECONDS) : executor.invokeAll(tasks);

      assertThat(futures).hasSize(tasks.size()).allMatch(Future::isDone);
      for (int i = 0; i < tasks.size(); i++) {
        Future<String> future = futures.get(i);
        if (i == 3) {
          assertThatThrownBy(future::get).isInstanceOf(ExecutionException.class)
              .hasCauseInstanceOf(NullPointerException.class);
        } else {
          assertThat(future.get()).isEqualTo(Integer.toString(i));
        }
      }
    }
  }

  /**
   * The TCK's {@code testTimedInvokeAll6}: tasks not done by the timeout are cancelled, and
   * interrupted. With a pool, the two quick tasks always find a thread, and the timeout is doubled
   * until the machine lets them finish in it, as the TCK does; on the timer thread, a quick task
   * the strategy orders behind the waiter is cancelled with it.
   */
  @EachSetup
  void timedInvokeAllCancelsTheTasksNotDoneByTheTimeout(Setup setup) throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    for (long timeout = SHORT_MS; ; timeout *= 2) {
      CountDownLatch never = releasedAtEnd();
      AtomicInteger started = new AtomicInteger();
      AtomicInteger interrupted = new AtomicInteger();
      Callable<String> waiter = () -> {
        started.incrementAndGet();
        try {
          never.await();
        } catch (InterruptedException e) {
          interrupted.incrementAndGet();
        }
        return "1";
      };
      List<Callable<String>> tasks = List.of(() -> "0", waiter, () -> "2");
      long start = System.nanoTime();

      List<Future<String>> futures = executor.invokeAll(tasks, timeout, MILLISECONDS);

      assertThat(millisSince(start)).isGreaterThanOrEqualTo(timeout);
      assertThat(futures).hasSize(3).allMatch(Future::isDone);
      assertThat(futures.get(1).isCancelled()).isTrue();
      eventually("the cancelled waiter, if it started, is interrupted",
          () -> interrupted.get() == started.get());
      if (setup.onTimerThread()) {
        for (int i : new int[] {0, 2}) {
          Future<String> quick = futures.get(i);
          assertThat(quick.isCancelled() || Integer.toString(i).equals(quick.get())).isTrue();
        }
        return;
      }
      try {
        assertThat(futures.get(0).get()).isEqualTo("0");
        assertThat(futures.get(2).get()).isEqualTo("2");
        return;
      } catch (CancellationException retryWithALongerTimeout) {
        assertThat(timeout).as("exactly one task cancelled, even at the longest timeout")
            .isLessThan(LONG_MS / 2);
      }
    }
  }

  @EachSetup
  void timedInvokeAnyThrowsTimeoutExceptionAndCancelsTheTasks(Setup setup) throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    CountDownLatch never = releasedAtEnd();
    AtomicInteger started = new AtomicInteger();
    AtomicInteger startedBeforeTheTimeout = new AtomicInteger();
    AtomicInteger interrupted = new AtomicInteger();
    long start = System.nanoTime();
    // invokeAny's own timeout starts after this one, so a task that starts before this one ends
    // started before invokeAny's ended.
    long timeoutEnd = start + MILLISECONDS.toNanos(SHORT_MS);
    Callable<String> waiter = () -> {
      started.incrementAndGet();
      if (System.nanoTime() - timeoutEnd < 0) {
        startedBeforeTheTimeout.incrementAndGet();
      }
      try {
        never.await();
      } catch (InterruptedException e) {
        interrupted.incrementAndGet();
      }
      return "too late";
    };

    assertThatThrownBy(() -> executor.invokeAny(List.of(waiter, waiter), SHORT_MS, MILLISECONDS))
        .isInstanceOf(TimeoutException.class);

    assertThat(millisSince(start)).isGreaterThanOrEqualTo(SHORT_MS);
    // As with the JDK's executors, invokeAny cancels the tasks in order once it times out: the
    // first one's interrupt may free a thread that starts the second before it is cancelled in
    // turn, so a task may start after the timeout, but never escape its interrupt.
    eventually("every task that started is interrupted",
        () -> interrupted.get() == started.get());
    eventually("nothing pending", () -> executor.stats().pending() == 0);
    assertThat(startedBeforeTheTimeout.get()).as("tasks that found a thread before the timeout")
        .isBetween(0, setup.threads());
  }

  /**
   * The winner's result comes back; the losers are cancelled with an interrupt. On a pool both
   * tasks run at once and the slow one is sure to lose; on the timer thread the strategy decides
   * which runs first, and a slow task that runs first (it gives up after a while) may win.
   */
  @EachSetup
  void invokeAnyCancelsTheOtherTasksOnceOneSucceeds(Setup setup) throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    CountDownLatch slowStarted = new CountDownLatch(1);
    CountDownLatch never = releasedAtEnd();
    AtomicInteger interrupted = new AtomicInteger();
    Callable<String> slow = () -> {
      slowStarted.countDown();
      try {
        if (setup.onTimerThread()) {
          never.await(SHORT_MS, MILLISECONDS);
        } else {
          never.await();
        }
      } catch (InterruptedException e) {
        interrupted.incrementAndGet();
        return "interrupted";
      }
      return "slow";
    };
    Callable<String> fast = () -> {
      if (!setup.onTimerThread()) {
        await(slowStarted); // the loser is running when it loses
      }
      return "fast";
    };

    String winner = executor.invokeAny(List.of(slow, fast), LONG_MS, MILLISECONDS);

    if (setup.onTimerThread()) {
      assertThat(winner).isIn("fast", "slow");
    } else {
      assertThat(winner).isEqualTo("fast");
      eventually("the running loser is interrupted", () -> interrupted.get() == 1);
    }
    eventually("nothing pending", () -> executor.stats().pending() == 0);
  }
}
