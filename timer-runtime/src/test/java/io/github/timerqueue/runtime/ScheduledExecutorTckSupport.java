package io.github.timerqueue.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the {@code ScheduledExecutorTck*} suites share. They check {@link
 * TimerScheduledExecutorService} on its real timer thread and the system clock against what the
 * JSR-166 TCK's {@code ScheduledExecutorTest} and {@code ScheduledExecutorSubclassTest} check of
 * {@link java.util.concurrent.ScheduledThreadPoolExecutor}, written anew as specifications: every
 * test runs once per registered strategy, with the tasks on the timer thread and again on a task
 * executor of {@value #POOL_THREADS} threads.
 *
 * <p>As in the TCK, every executor a test starts must terminate after {@code shutdown()} once the
 * test has released what it blocked ({@link #releasedAtEnd}): a test that leaves a task behind, or
 * an executor that does not terminate, fails in {@link #joinEverything()}. Delays are a few
 * milliseconds; the long bounds are only ever reached by a failing test.
 */
abstract class ScheduledExecutorTckSupport {
  /** A delay no task reaches during a test: its task must be cancelled or handed back. */
  static final long NEVER_MS = TimeUnit.HOURS.toMillis(1);
  /** A short delay, which tests wait out. */
  static final long SHORT_MS = 10;
  /** The bound of every wait that a passing test ends early; reached only by a failure. */
  static final long LONG_MS = 5_000;
  /** How long a call that must not wait for a task is given before it counts as hung. */
  static final long PROMPT_MS = 2_000;
  /** The threads of the task executor in {@link Runner#TASK_EXECUTOR}. */
  static final int POOL_THREADS = 2;

  /** Where the executor's tasks run. */
  enum Runner {
    TIMER_THREAD("on the timer thread"),
    TASK_EXECUTOR("on a task executor of " + POOL_THREADS + " threads");

    private final String description;

    Runner(String description) {
      this.description = description;
    }
  }

  /** One configuration every test runs with: a strategy, and where the tasks run. */
  static final class Setup {
    final String strategy;
    final Runner runner;

    Setup(String strategy, Runner runner) {
      this.strategy = strategy;
      this.runner = runner;
    }

    /** How many tasks can run at the same time: 1 on the timer thread, else the pool's size. */
    int threads() {
      return runner == Runner.TIMER_THREAD ? 1 : POOL_THREADS;
    }

    boolean onTimerThread() {
      return runner == Runner.TIMER_THREAD;
    }

    @Override
    public String toString() {
      return strategy + ", tasks " + runner.description;
    }
  }

  static Stream<Setup> setups() {
    return Strategies.names().flatMap(
        strategy -> Arrays.stream(Runner.values()).map(runner -> new Setup(strategy, runner)));
  }

  /** Runs the test once per {@link Setup}, with it as the only argument. */
  @Target(ElementType.METHOD)
  @Retention(RetentionPolicy.RUNTIME)
  @ParameterizedTest(name = "{0}")
  @MethodSource("io.github.timerqueue.runtime.ScheduledExecutorTckSupport#setups")
  @interface EachSetup {}

  private static final AtomicInteger POOL_NUMBERS = new AtomicInteger();

  private final List<TimerScheduledExecutorService> executors = new ArrayList<>();
  private final List<ExecutorService> taskExecutors = new ArrayList<>();
  private final List<CountDownLatch> releasers = new ArrayList<>();

  /** Starts an executor of {@code setup}, which the test's end shuts down and waits for. */
  TimerScheduledExecutorService start(Setup setup) {
    TimerService.Builder builder = TimerService.builder().strategy(setup.strategy);
    if (setup.runner == Runner.TASK_EXECUTOR) {
      builder.taskExecutor(newPool(POOL_THREADS));
    }
    return started(builder.buildScheduledExecutorService());
  }

  /** Registers an executor built by the test itself, to be shut down and waited for at its end. */
  TimerScheduledExecutorService started(TimerScheduledExecutorService executor) {
    executors.add(executor);
    return executor;
  }

  /** A fixed pool of daemon threads, shut down at the end of the test. */
  ExecutorService newPool(int threads) {
    String name = "tck-pool-" + POOL_NUMBERS.incrementAndGet();
    ExecutorService pool = Executors.newFixedThreadPool(threads, runnable -> {
      Thread thread = new Thread(runnable, name);
      thread.setDaemon(true);
      return thread;
    });
    taskExecutors.add(pool);
    return pool;
  }

  /** A latch the test's tasks wait on; released at the latest when the test ends. */
  CountDownLatch releasedAtEnd() {
    CountDownLatch latch = new CountDownLatch(1);
    releasers.add(latch);
    return latch;
  }

  /**
   * As the TCK's pool cleaner: releases the latches, shuts every executor down and fails unless
   * each terminates. Runs on its own thread, so that an executor that hangs its caller fails the
   * test instead of stopping the suite.
   */
  @AfterEach
  void joinEverything() throws InterruptedException {
    List<String> failures = new ArrayList<>();
    Thread cleaner = new Thread(() -> {
      releasers.forEach(CountDownLatch::countDown);
      for (TimerScheduledExecutorService executor : executors) {
        try {
          executor.shutdown();
          if (!executor.awaitTermination(LONG_MS, TimeUnit.MILLISECONDS)) {
            failures.add(executor + " did not terminate within " + LONG_MS + " ms of shutdown()");
            executor.shutdownNow();
          }
        } catch (Throwable failure) {
          failures.add(executor + ": " + failure);
        }
      }
      for (ExecutorService pool : taskExecutors) {
        pool.shutdownNow();
      }
    }, "tck-cleaner");
    cleaner.setDaemon(true);
    cleaner.start();
    cleaner.join(2 * LONG_MS);
    if (cleaner.isAlive()) {
      failures.add("shutting the executors down hung:" + stackOf(cleaner));
    }
    assertThat(failures).as("the executors the test started terminate").isEmpty();
  }

  // ---- assertions and clocks ----

  /** Waits for {@code latch}, failing if it is not released within {@link #LONG_MS}. */
  static void await(CountDownLatch latch) throws InterruptedException {
    assertThat(latch.await(LONG_MS, TimeUnit.MILLISECONDS))
        .as("released within %d ms", LONG_MS).isTrue();
  }

  static long millisSince(long startNanos) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
  }

  /** Waits, polling, until {@code condition} holds; fails after {@link #LONG_MS}. */
  static void eventually(String what, BooleanSupplier condition)
      throws InterruptedException {
    long start = System.nanoTime();
    while (!condition.getAsBoolean()) {
      if (millisSince(start) > LONG_MS) {
        throw new AssertionError(what + ": still not so after " + LONG_MS + " ms");
      }
      Thread.sleep(1);
    }
  }

  /**
   * Calls {@code call} on another thread and returns what it returns (or throws what it throws),
   * failing with that thread's stack if the call has not returned within {@link #PROMPT_MS}: for
   * calls the contract says never wait for a task. The hung thread is left behind, a daemon.
   */
  static <T> T promptly(String what, Callable<T> call) throws Exception {
    AtomicReference<Object> outcome = new AtomicReference<>();
    Thread caller = new Thread(() -> {
      try {
        outcome.set(new Returned(call.call()));
      } catch (Throwable failure) {
        outcome.set(failure);
      }
    }, "tck-prompt-caller");
    caller.setDaemon(true);
    caller.start();
    caller.join(PROMPT_MS);
    if (caller.isAlive()) {
      throw new AssertionError(what + " did not return within " + PROMPT_MS + " ms:"
          + stackOf(caller));
    }
    Object result = outcome.get();
    if (result instanceof Exception) {
      throw (Exception) result;
    }
    if (result instanceof Error) {
      throw (Error) result;
    }
    @SuppressWarnings("unchecked")
    T value = (T) ((Returned) result).value;
    return value;
  }

  private static final class Returned {
    final Object value;

    Returned(Object value) {
      this.value = value;
    }
  }

  private static String stackOf(Thread thread) {
    return Arrays.stream(thread.getStackTrace())
        .map(frame -> "\n\tat " + frame)
        .collect(Collectors.joining());
  }
}
