package io.github.timerqueue.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;

/**
 * Many threads scheduling, cancelling and re-arming shared timeouts at once, on the real timer
 * thread: every arming ends exactly once (its task runs, or it is cancelled, or {@code stop}
 * returns it), nothing runs twice, nothing runs early, and nothing is left pending.
 *
 * <p>By default the first test does {@value #DEFAULT_OPERATIONS} operations per strategy, and the
 * second stops 25 loaded services; with {@code -Dtimerqueue.soak=true} they do {@value
 * #SOAK_OPERATIONS} operations and 500 stops.
 */
class TimerServiceStressTest {
  private static final int DEFAULT_OPERATIONS = 1_000_000;
  private static final int SOAK_OPERATIONS = 20_000_000;
  private static final int OPERATIONS =
      Boolean.getBoolean("timerqueue.soak") ? SOAK_OPERATIONS : DEFAULT_OPERATIONS;
  private static final int STOP_ROUNDS = Boolean.getBoolean("timerqueue.soak") ? 500 : 25;
  private static final int THREADS = 4;
  /** Timeouts shared by all threads: each operation picks one at random. */
  private static final int SLOTS = 4096;
  private static final long MAX_DELAY_MICROS = 2_000;

  /** One task per newTimeout; counts what happened to its timeout. */
  private static final class Task implements TimerTask {
    final AtomicInteger armings = new AtomicInteger();
    final AtomicInteger runs = new AtomicInteger();
    final AtomicInteger cancels = new AtomicInteger();
    final AtomicInteger callbacks = new AtomicInteger();
    final AtomicInteger rejectedReschedules = new AtomicInteger();
    /** The earliest deadline any of its armings had; no run may come before it. */
    volatile long earliestDeadline = Long.MAX_VALUE;
    final Queue<String> errors;

    Task(Queue<String> errors) {
      this.errors = errors;
    }

    void willArm(long delayNanos) {
      long deadline = System.nanoTime() + delayNanos;
      synchronized (this) {
        if (earliestDeadline == Long.MAX_VALUE || deadline - earliestDeadline < 0) {
          earliestDeadline = deadline;
        }
      }
    }

    @Override
    public void run(Timeout timeout) {
      runs.incrementAndGet();
      long early = earliestDeadline - System.nanoTime();
      if (early > 0) {
        errors.add("a task ran " + early + " ns before its earliest deadline");
      }
    }

    @Override
    public void cancelled(Timeout timeout) {
      callbacks.incrementAndGet();
    }
  }

  private static final class Load {
    final TimerService timers;
    final AtomicReferenceArray<Timeout> slots = new AtomicReferenceArray<>(SLOTS);
    final Queue<Task> tasks = new ConcurrentLinkedQueue<>();
    final Queue<Timeout> timeouts = new ConcurrentLinkedQueue<>();
    final Queue<String> errors = new ConcurrentLinkedQueue<>();
    final AtomicInteger rejectedNew = new AtomicInteger();

    Load(String strategy) {
      timers = TimerService.builder()
          .strategy(strategy)
          .resolution(Duration.ofMillis(1))
          .uncaughtExceptionHandler((thread, failure) -> errors.add("task failed: " + failure))
          .build();
    }

    /** Runs {@code operations} random operations; returns early once the service rejects. */
    void work(long seed, int operations) {
      SplittableRandom random = new SplittableRandom(seed);
      for (int i = 0; i < operations; i++) {
        int slot = random.nextInt(SLOTS);
        long delay = TimeUnit.MICROSECONDS.toNanos(random.nextLong(MAX_DELAY_MICROS));
        int choice = random.nextInt(10);
        Timeout timeout = slots.get(slot);
        try {
          if (choice < 4 || timeout == null) {
            Task task = new Task(errors);
            task.willArm(delay);
            Timeout created = timers.newTimeout(task, delay, TimeUnit.NANOSECONDS);
            task.armings.incrementAndGet();
            tasks.add(task);
            timeouts.add(created);
            slots.set(slot, created);
          } else if (choice < 7) {
            Task task = (Task) timeout.task();
            if (timeout.cancel()) {
              task.cancels.incrementAndGet();
            }
          } else {
            Task task = (Task) timeout.task();
            task.willArm(delay);
            try {
              if (!timeout.reschedule(delay, TimeUnit.NANOSECONDS)) {
                task.armings.incrementAndGet();
              }
            } catch (RejectedExecutionException e) {
              task.rejectedReschedules.incrementAndGet();
              throw e;
            }
          }
        } catch (RejectedExecutionException e) {
          if (!timers.isStopped()) {
            errors.add("rejected while running: " + e);
          }
          rejectedNew.incrementAndGet();
          return;
        }
      }
    }

    void runThreads(int operationsPerThread, Runnable whileRunning) throws InterruptedException {
      CountDownLatch start = new CountDownLatch(1);
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        long seed = 1_000 + t;
        Thread thread = new Thread(() -> {
          try {
            start.await();
            work(seed, operationsPerThread);
          } catch (Throwable failure) {
            errors.add("worker failed: " + failure);
          }
        });
        threads.add(thread);
        thread.start();
      }
      start.countDown();
      whileRunning.run();
      for (Thread thread : threads) {
        thread.join(TimeUnit.MINUTES.toMillis(2));
        assertThat(thread.isAlive()).as("worker finished").isFalse();
      }
    }
  }

  @Strategies.Each
  void concurrentSchedulesCancelsAndReArmsLoseNothingAndRunNothingTwice(String strategy)
      throws Exception {
    Load load = new Load(strategy);
    load.runThreads(OPERATIONS / THREADS, () -> {});

    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (load.timers.stats().pending() > 0 && System.nanoTime() - deadline < 0) {
      Thread.sleep(5);
    }
    TimerStats stats = load.timers.stats();
    List<Timeout> unrun = load.timers.stop();

    assertThat(load.errors).isEmpty();
    assertThat(stats.pending()).as("everything ran or was cancelled").isZero();
    assertThat(unrun).isEmpty();
    long runs = 0;
    long cancels = 0;
    for (Task task : load.tasks) {
      assertThat(task.runs.get() + task.cancels.get())
          .as("each arming ran or was cancelled, exactly once")
          .isEqualTo(task.armings.get());
      assertThat(task.callbacks.get()).isEqualTo(task.cancels.get());
      runs += task.runs.get();
      cancels += task.cancels.get();
    }
    assertThat(stats.fired()).isEqualTo(runs);
    assertThat(stats.cancelled()).isEqualTo(cancels);
    assertThat(stats.tasksRun()).isEqualTo(runs);
    assertThat(runs).as("the load does run tasks").isPositive();
    assertThat(cancels).as("the load does cancel").isPositive();
  }

  @Strategies.Each
  void stopDuringTheLoadAccountsForEveryArming(String strategy) throws Exception {
    // Many short rounds: what matters is the moment of stop, so each round makes one more.
    SplittableRandom random = new SplittableRandom(42);
    for (int round = 0; round < STOP_ROUNDS; round++) {
      Load load = new Load(strategy);
      List<Timeout> unrun = new ArrayList<>();
      long stopAfterMicros = random.nextLong(100, 20_000);
      load.runThreads(Integer.MAX_VALUE, () -> {
        LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(stopAfterMicros));
        unrun.addAll(load.timers.stop());
      });
      checkEveryArmingEndedOnce(load, unrun);
    }
  }

  private static void checkEveryArmingEndedOnce(Load load, List<Timeout> unrun)
      throws InterruptedException {
    assertThat(load.errors).isEmpty();
    Set<Timeout> returned = new HashSet<>(unrun);
    assertThat(returned).as("each returned once").hasSameSizeAs(unrun);
    int runsAfterStop = 0;
    for (Task task : load.tasks) {
      runsAfterStop += task.runs.get();
    }
    for (Timeout timeout : load.timeouts) {
      Task task = (Task) timeout.task();
      assertThat(timeout.isPending()).as("nothing stays pending after stop").isFalse();
      int accounted = task.runs.get() + task.cancels.get() + (returned.contains(timeout) ? 1 : 0);
      // An arming ends once; a reschedule rejected by the stop may give up the arming it replaced.
      assertThat(task.armings.get() - accounted)
          .as("armings not accounted for")
          .isBetween(0, task.rejectedReschedules.get());
    }
    Thread.sleep(5);
    int runsLater = 0;
    for (Task task : load.tasks) {
      runsLater += task.runs.get();
    }
    assertThat(runsLater).as("nothing runs after stop").isEqualTo(runsAfterStop);
    assertThat(load.timers.stats().pending()).isZero();
  }

}
