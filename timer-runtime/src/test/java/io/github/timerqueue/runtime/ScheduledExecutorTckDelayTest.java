package io.github.timerqueue.runtime;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Timeout;

/**
 * Delays, fixed rate and fixed delay on the real clock, and what every submission method returns:
 * what the TCK's {@code testExecute}, {@code testSchedule1}-{@code 5}, {@code
 * testFixedRateSequence}, {@code testFixedDelaySequence}, {@code testSubmit*}, {@code
 * testNullTaskSubmission} and {@code testScheduleWithFixedDelay_overflow} check, and more: a
 * task never runs before its delay, runs of one periodic task never overlap even on a pool, and
 * delays at the ends of the range of a {@code long}.
 */
@Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ScheduledExecutorTckDelayTest extends ScheduledExecutorTckSupport {

  @EachSetup
  void executeRunsTheTask(Setup setup) throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    CountDownLatch ran = new CountDownLatch(1);

    executor.execute(ran::countDown);

    await(ran);
  }

  @EachSetup
  void aDelayedCallableReturnsItsValueAndNeverRunsBeforeItsDelay(Setup setup) throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    long start = System.nanoTime();
    AtomicLong ranAfter = new AtomicLong(-1);

    ScheduledFuture<String> future = executor.schedule(() -> {
      ranAfter.set(System.nanoTime() - start);
      return "value";
    }, SHORT_MS, MILLISECONDS);

    assertThat(future.get(LONG_MS, MILLISECONDS)).isEqualTo("value");
    assertThat(ranAfter.get()).isGreaterThanOrEqualTo(MILLISECONDS.toNanos(SHORT_MS));
    assertThat(future.isDone()).isTrue();
    assertThat(future.isCancelled()).isFalse();
  }

  @EachSetup
  void aDelayedRunnableCompletesWithNullAndNeverRunsBeforeItsDelay(Setup setup)
      throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    long start = System.nanoTime();
    AtomicLong ranAfter = new AtomicLong(-1);

    ScheduledFuture<?> future = executor.schedule(
        () -> ranAfter.set(System.nanoTime() - start), SHORT_MS, MILLISECONDS);

    assertThat(future.get(LONG_MS, MILLISECONDS)).isNull();
    assertThat(ranAfter.get()).isGreaterThanOrEqualTo(MILLISECONDS.toNanos(SHORT_MS));
  }

  @EachSetup
  void periodicTasksFirstRunAfterTheirInitialDelay(Setup setup) throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    long start = System.nanoTime();
    List<Long> firstRunAfter = new CopyOnWriteArrayList<>();
    CountDownLatch bothRan = new CountDownLatch(2);
    Runnable recordsItsRun = () -> { // runs once: the period is never reached
      firstRunAfter.add(System.nanoTime() - start);
      bothRan.countDown();
    };

    ScheduledFuture<?> fixedRate =
        executor.scheduleAtFixedRate(recordsItsRun, SHORT_MS, NEVER_MS, MILLISECONDS);
    ScheduledFuture<?> fixedDelay =
        executor.scheduleWithFixedDelay(recordsItsRun, SHORT_MS, NEVER_MS, MILLISECONDS);

    await(bothRan);
    assertThat(firstRunAfter).allMatch(after -> after >= MILLISECONDS.toNanos(SHORT_MS));
    assertThat(fixedRate.isDone()).as("a periodic task is done only when cancelled or failed")
        .isFalse();
    assertThat(((RunnableScheduledFuture<?>) fixedRate).isPeriodic()).isTrue();
    assertThat(((RunnableScheduledFuture<?>) fixedDelay).isPeriodic()).isTrue();
    assertThat(fixedRate.cancel(true)).isTrue();
    assertThat(fixedDelay.cancel(true)).isTrue();
  }

  /**
   * The TCK's fixed-rate sequence: the n-th run never starts before {@code n * period}, and, on a
   * period the machine can keep up with, eight runs take at most eight periods. Longer periods are
   * tried (1, 3, 9, 27, 81 ms) before the rate counts as wrong, as the TCK does.
   */
  @EachSetup
  void fixedRateRunsAtItsPeriodAndNeverEarly(Setup setup) throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    int cycles = 8;
    for (long period = 1; period <= 81; period *= 3) {
      List<Long> runs = new CopyOnWriteArrayList<>();
      CountDownLatch done = new CountDownLatch(cycles);
      long start = System.nanoTime();
      ScheduledFuture<?> periodic = executor.scheduleAtFixedRate(() -> {
        runs.add(System.nanoTime() - start);
        done.countDown();
      }, 0, period, MILLISECONDS);
      await(done);
      periodic.cancel(false);
      long elapsed = millisSince(start);

      for (int n = 0; n < cycles; n++) {
        assertThat(runs.get(n)).as("run %d of period %d ms", n, period)
            .isGreaterThanOrEqualTo(n * MILLISECONDS.toNanos(period));
      }
      if (elapsed <= cycles * period) {
        return;
      }
    }
    throw new AssertionError("fixed rate never kept up with its period, even at 81 ms");
  }

  /**
   * The TCK's fixed-delay sequence: every run starts at least the delay after the previous one
   * ended, and, on a delay the machine can keep up with, no later than twice the delay. Longer
   * delays are tried before the schedule counts as wrong.
   */
  @EachSetup
  void fixedDelayWaitsTheDelayAfterEachRunEnds(Setup setup) throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    int cycles = 8;
    for (long delay = 1; delay <= 81; delay *= 3) {
      long delayNanos = MILLISECONDS.toNanos(delay);
      List<long[]> runs = new CopyOnWriteArrayList<>(); // {start, end}
      CountDownLatch done = new CountDownLatch(cycles);
      ScheduledFuture<?> periodic = executor.scheduleWithFixedDelay(() -> {
        long now = System.nanoTime();
        runs.add(new long[] {now, now});
        done.countDown();
      }, 0, delay, MILLISECONDS);
      await(done);
      periodic.cancel(false);

      boolean keptUp = true;
      for (int n = 1; n < cycles; n++) {
        long gap = runs.get(n)[0] - runs.get(n - 1)[1];
        assertThat(gap).as("gap before run %d, delay %d ms", n, delay)
            .isGreaterThanOrEqualTo(delayNanos);
        keptUp &= gap < 2 * delayNanos;
      }
      if (keptUp) {
        return;
      }
    }
    throw new AssertionError("fixed delay never kept up with its delay, even at 81 ms");
  }

  /**
   * Four threads schedule 250 tasks each, with delays up to 5 ms in microseconds: every task runs
   * exactly once, and none before its delay.
   */
  @EachSetup
  void tasksScheduledFromManyThreadsEachRunOnceAndNeverEarly(Setup setup) throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    int threads = 4;
    int perThread = 250;
    AtomicIntegerArray runs = new AtomicIntegerArray(threads * perThread);
    AtomicInteger early = new AtomicInteger();
    CountDownLatch allRan = new CountDownLatch(threads * perThread);
    List<Thread> producers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int first = t * perThread;
      Thread producer = new Thread(() -> {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = first; i < first + perThread; i++) {
          int task = i;
          long delayNanos = TimeUnit.MICROSECONDS.toNanos(random.nextLong(5_000));
          long scheduledAt = System.nanoTime();
          executor.schedule(() -> {
            if (System.nanoTime() - scheduledAt < delayNanos) {
              early.incrementAndGet();
            }
            runs.incrementAndGet(task);
            allRan.countDown();
          }, delayNanos, NANOSECONDS);
        }
      });
      producer.start();
      producers.add(producer);
    }
    for (Thread producer : producers) {
      producer.join(LONG_MS);
    }

    await(allRan);
    Thread.sleep(1);
    for (int i = 0; i < runs.length(); i++) {
      assertThat(runs.get(i)).as("runs of task %d", i).isEqualTo(1);
    }
    assertThat(early).as("tasks run before their delay").hasValue(0);
  }

  /**
   * A run longer than the period delays the next, and runs of one task never overlap, even when a
   * pool has a free thread for the next one.
   */
  @EachSetup
  void runsOfAPeriodicTaskNeverOverlap(Setup setup) throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    for (boolean fixedRate : new boolean[] {true, false}) {
      AtomicInteger running = new AtomicInteger();
      AtomicInteger mostAtOnce = new AtomicInteger();
      List<long[]> runs = new CopyOnWriteArrayList<>();
      CountDownLatch done = new CountDownLatch(4);
      Runnable slow = () -> {
        mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
        long begin = System.nanoTime();
        try {
          Thread.sleep(5);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        runs.add(new long[] {begin, System.nanoTime()});
        running.decrementAndGet();
        done.countDown();
      };
      ScheduledFuture<?> periodic = fixedRate
          ? executor.scheduleAtFixedRate(slow, 0, 1, MILLISECONDS)
          : executor.scheduleWithFixedDelay(slow, 0, 1, MILLISECONDS);
      await(done);
      periodic.cancel(false);

      assertThat(mostAtOnce).as(fixedRate ? "fixed rate" : "fixed delay").hasValue(1);
      for (int n = 1; n < 4; n++) {
        assertThat(runs.get(n)[0]).as("run %d starts after run %d ended", n, n - 1)
            .isGreaterThanOrEqualTo(runs.get(n - 1)[1]);
      }
    }
  }

  @EachSetup
  void zeroAndNegativeDelaysRunAsSoonAsPossible(Setup setup) throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    CountDownLatch ran = new CountDownLatch(5);

    executor.schedule(ran::countDown, 0, MILLISECONDS);
    executor.schedule(ran::countDown, -1, MILLISECONDS);
    executor.schedule(ran::countDown, Long.MIN_VALUE, NANOSECONDS);
    executor.schedule(ran::countDown, Long.MIN_VALUE, TimeUnit.DAYS);
    ScheduledFuture<?> periodic =
        executor.scheduleAtFixedRate(ran::countDown, -5, NEVER_MS, MILLISECONDS);

    await(ran);
    periodic.cancel(false);
  }

  @EachSetup
  void hugeDelaysNeitherOverflowNorHoldBackOtherTasks(Setup setup) throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    List<ScheduledFuture<?>> far = new ArrayList<>();
    far.add(executor.schedule(() -> {}, Long.MAX_VALUE, NANOSECONDS));
    far.add(executor.schedule(() -> {}, Long.MAX_VALUE, TimeUnit.DAYS));
    far.add(executor.scheduleAtFixedRate(() -> {}, Long.MAX_VALUE, 1, MILLISECONDS));
    far.add(executor.scheduleWithFixedDelay(
        () -> {}, Long.MAX_VALUE, Long.MAX_VALUE, MILLISECONDS));

    ScheduledFuture<String> near = executor.schedule(() -> "near", 1, MILLISECONDS);
    ScheduledFuture<?> past = executor.schedule(() -> {}, Long.MIN_VALUE, NANOSECONDS);

    assertThat(near.get(LONG_MS, MILLISECONDS)).isEqualTo("near");
    // Not implied by near's result: a caller descheduled for a millisecond between the two calls
    // schedules past after near has already run.
    assertThat(past.get(LONG_MS, MILLISECONDS)).isNull();
    for (ScheduledFuture<?> future : far) {
      assertThat(future.getDelay(TimeUnit.DAYS)).as("about 146 years")
          .isGreaterThan(365L * 100);
      assertThat(future.compareTo(past)).as("no overflow between the ends").isPositive();
      assertThat(past.compareTo(future)).isNegative();
      assertThat(future.isDone()).isFalse();
      assertThat(future.cancel(false)).isTrue();
    }
    assertThat(executor.stats().pending()).isZero();
  }

  /** JDK-8051859: a period that overflows the clock must not hold back a one-shot task. */
  @EachSetup
  void aPeriodicTaskWithAnOverflowingPeriodDoesNotHoldBackOtherTasks(Setup setup)
      throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    CountDownLatch periodicRan = new CountDownLatch(2);
    CountDownLatch followersRan = new CountDownLatch(2);
    Runnable submitsAFollower = () -> {
      periodicRan.countDown();
      executor.submit(followersRan::countDown);
    };

    ScheduledFuture<?> fixedDelay = executor.scheduleWithFixedDelay(
        submitsAFollower, 0, Long.MAX_VALUE, TimeUnit.SECONDS);
    ScheduledFuture<?> fixedRate = executor.scheduleAtFixedRate(
        submitsAFollower, 0, Long.MAX_VALUE, TimeUnit.SECONDS);

    await(periodicRan);
    await(followersRan);
    assertThat(fixedDelay.cancel(false)).isTrue();
    assertThat(fixedRate.cancel(false)).isTrue();
  }

  @EachSetup
  void submitReturnsAScheduledFutureWithTheResult(Setup setup) throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    String result = new String("result");
    AtomicInteger runs = new AtomicInteger();

    Future<String> callable = executor.submit(() -> "called");
    Future<?> runnable = executor.submit(runs::incrementAndGet, (Object) null);
    Future<?> plainRunnable = executor.submit((Runnable) runs::incrementAndGet);
    Future<String> runnableWithResult = executor.submit(runs::incrementAndGet, result);

    assertThat(callable.get(LONG_MS, MILLISECONDS)).isEqualTo("called");
    assertThat(runnable.get(LONG_MS, MILLISECONDS)).isNull();
    assertThat(plainRunnable.get(LONG_MS, MILLISECONDS)).isNull();
    assertThat(runnableWithResult.get(LONG_MS, MILLISECONDS)).isSameAs(result);
    assertThat(runs).hasValue(3);
    for (Future<?> future : List.of(callable, runnable, plainRunnable, runnableWithResult)) {
      assertThat(future.isDone()).isTrue();
      assertThat(future).isInstanceOf(ScheduledFuture.class);
      assertThat(((ScheduledFuture<?>) future).getDelay(NANOSECONDS)).as("due at once")
          .isNotPositive();
    }
  }

  @EachSetup
  void getDelayCountsDownOnTheClockAndCompareToOrdersByIt(Setup setup) throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    ScheduledFuture<?> sooner = executor.schedule(() -> {}, 5 * SHORT_MS, MILLISECONDS);
    ScheduledFuture<?> later = executor.schedule(() -> {}, 10 * SHORT_MS, MILLISECONDS);

    long first = later.getDelay(NANOSECONDS);
    assertThat(first).isPositive().isLessThanOrEqualTo(MILLISECONDS.toNanos(10 * SHORT_MS));
    Thread.sleep(2);
    assertThat(later.getDelay(NANOSECONDS)).isLessThan(first);
    assertThat(later.compareTo(sooner)).isPositive();
    assertThat(sooner.compareTo(later)).isNegative();
    assertThat(later.compareTo(later)).isZero();

    later.get(LONG_MS, MILLISECONDS);
    assertThat(later.getDelay(NANOSECONDS)).as("once run").isNotPositive();
    if (setup.threads() == 1) {
      // One thread runs the tasks in the order they fall due. On a pool, the thread that took the
      // sooner task may not have finished it when another has run the later one.
      assertThat(sooner.isDone()).isTrue();
    } else {
      sooner.get(LONG_MS, MILLISECONDS);
    }
    assertThat(sooner.getDelay(NANOSECONDS)).as("once run").isNotPositive();
  }

  @EachSetup
  void aPeriodicTaskThatThrowsStopsAndItsFutureFailsWithTheException(Setup setup)
      throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    IllegalStateException boom = new IllegalStateException("third run");
    for (boolean fixedRate : new boolean[] {true, false}) {
      AtomicInteger runs = new AtomicInteger();
      Runnable throwsOnThirdRun = () -> {
        if (runs.incrementAndGet() == 3) {
          throw boom;
        }
      };
      ScheduledFuture<?> periodic = fixedRate
          ? executor.scheduleAtFixedRate(throwsOnThirdRun, 0, 1, MILLISECONDS)
          : executor.scheduleWithFixedDelay(throwsOnThirdRun, 0, 1, MILLISECONDS);

      assertThatThrownBy(() -> periodic.get(LONG_MS, MILLISECONDS))
          .isInstanceOf(ExecutionException.class).hasCause(boom);
      assertThat(periodic.isDone()).isTrue();
      assertThat(periodic.isCancelled()).isFalse();
      Thread.sleep(5);
      assertThat(runs).as("no run after the one that threw").hasValue(3);
    }
    assertThat(executor.stats().pending()).isZero();
  }

  @EachSetup
  void aTaskThatThrowsLeavesTheExecutorServingTheOthers(Setup setup) throws Exception {
    TimerScheduledExecutorService executor = start(setup);
    CountDownLatch ranAfter = new CountDownLatch(3);
    RuntimeException boom = new RuntimeException("boom");
    Future<?> failed = executor.submit((Runnable) () -> {
      throw boom;
    });

    executor.execute(() -> {
      throw boom;
    });
    executor.execute(() -> {
      throw new AssertionError("an Error too");
    });
    executor.execute(ranAfter::countDown);
    executor.schedule(ranAfter::countDown, 1, MILLISECONDS);
    executor.submit(ranAfter::countDown);

    await(ranAfter);
    assertThatThrownBy(() -> failed.get(LONG_MS, MILLISECONDS))
        .isInstanceOf(ExecutionException.class).hasCause(boom);
  }

  /** The TCK's {@code testGetThreadFactory}: the timer thread, which runs the tasks, is the factory's. */
  @Strategies.Each
  void tasksOnTheTimerThreadRunOnTheThreadTheFactoryMade(String strategy) throws Exception {
    List<Thread> made = new CopyOnWriteArrayList<>();
    TimerScheduledExecutorService executor = started(TimerService.builder()
        .strategy(strategy)
        .threadFactory(runnable -> {
          Thread thread = new Thread(runnable, "tck-factory-thread");
          thread.setDaemon(true);
          made.add(thread);
          return thread;
        })
        .buildScheduledExecutorService());

    Future<Thread> ranOn = executor.submit(Thread::currentThread);

    assertThat(made).hasSize(1);
    assertThat(ranOn.get(LONG_MS, MILLISECONDS)).isSameAs(made.get(0));
  }

  /** The TCK's {@code testNullTaskSubmission}, and the period checks of the JDK's Javadoc. */
  @EachSetup
  void nullTasksAndUnitsAndNonPositivePeriodsAreRejected(Setup setup) {
    TimerScheduledExecutorService executor = start(setup);
    Runnable task = () -> {};
    Callable<Object> callable = () -> null;

    assertThatThrownBy(() -> executor.execute(null)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> executor.submit((Runnable) null))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> executor.submit((Runnable) null, "result"))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> executor.submit((Callable<?>) null))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> executor.schedule((Runnable) null, 1, MILLISECONDS))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> executor.schedule((Callable<?>) null, 1, MILLISECONDS))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> executor.scheduleAtFixedRate(null, 1, 1, MILLISECONDS))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> executor.scheduleWithFixedDelay(null, 1, 1, MILLISECONDS))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> executor.schedule(task, 1, null))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> executor.schedule(callable, 1, null))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> executor.scheduleAtFixedRate(task, 1, 1, null))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> executor.scheduleWithFixedDelay(task, 1, 1, null))
        .isInstanceOf(NullPointerException.class);
    for (long period : new long[] {0, -1, Long.MIN_VALUE}) {
      assertThatThrownBy(() -> executor.scheduleAtFixedRate(task, 1, period, MILLISECONDS))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> executor.scheduleWithFixedDelay(task, 1, period, MILLISECONDS))
          .isInstanceOf(IllegalArgumentException.class);
    }
    assertThat(executor.stats().pending()).as("nothing rejected was scheduled").isZero();
  }
}
