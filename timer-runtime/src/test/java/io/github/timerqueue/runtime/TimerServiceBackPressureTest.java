package io.github.timerqueue.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.util.concurrent.Uninterruptibles;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Back-pressure: the timer thread's backlog (arming requests not yet applied, plus the due timers
 * they armed that have not fired) never exceeds {@code maxBacklog}; callers on other threads wait
 * while it is full and nothing is dropped; the timer thread, and cancellations, never wait. The
 * timer thread is held at chosen points by tasks that wait on a latch, so that each state is
 * reached deterministically; the flood test checks the bound against a model under 16 producers.
 */
class TimerServiceBackPressureTest {
  private static final long GENEROUS_SECONDS = 10;
  private static final int LANES =
      RequestQueue.lanesFor(Runtime.getRuntime().availableProcessors());
  /** The smallest bound: one permit per lane on the largest machines, a few here. */
  private static final long BOUND = RequestQueue.MAX_LANES;
  private static final long PER_LANE = BOUND / LANES;

  private TimerService timers;
  private final CountDownLatch gate = new CountDownLatch(1);

  @AfterEach
  void stop() {
    gate.countDown();
    if (timers != null) {
      timers.stop();
    }
  }

  private void start(long maxBacklog) {
    timers = TimerService.builder()
        .strategy("wheel")
        .resolution(Duration.ofMillis(1))
        .maxBacklog(maxBacklog)
        .build();
  }

  /**
   * Starts a service of the smallest bound and holds its timer thread in a task that waits at the
   * gate, which the test's end opens.
   */
  private void holdTimerThread() throws InterruptedException {
    start(BOUND);
    CountDownLatch started = new CountDownLatch(1);
    timers.newTimeout(t -> {
      started.countDown();
      Uninterruptibles.awaitUninterruptibly(gate);
    }, 0, TimeUnit.MILLISECONDS);
    assertThat(started.await(GENEROUS_SECONDS, TimeUnit.SECONDS)).isTrue();
  }

  private static void awaitTrue(String what, BooleanSupplier condition)
      throws InterruptedException {
    long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(GENEROUS_SECONDS);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime() - giveUp).as(what).isNegative();
      Thread.sleep(1);
    }
  }

  private static boolean waiting(Thread thread) {
    Thread.State state = thread.getState();
    return state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING;
  }

  @Test
  @org.junit.jupiter.api.Timeout(
      value = 30, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
  void dueTimersThatHaveNotFiredCountInTheBacklogAndHoldCallersBack() throws Exception {
    start(BOUND);
    // Every task waits at the gate: the first to fire holds the timer thread, and the others stay
    // due and unfired behind it.
    AtomicInteger returned = new AtomicInteger();
    AtomicInteger ran = new AtomicInteger();
    Thread producer = new Thread(() -> {
      for (int i = 0; i < PER_LANE + 3; i++) {
        timers.newTimeout(t -> {
          ran.incrementAndGet();
          Uninterruptibles.awaitUninterruptibly(gate);
        }, 0, TimeUnit.MILLISECONDS);
        returned.incrementAndGet();
      }
    }, "producer");
    producer.start();

    awaitTrue("the producer waits", () -> waiting(producer) && timers.stats().throttled() == 1);
    assertThat(returned).as("one lane's share of the backlog").hasValue((int) PER_LANE);
    awaitTrue("the first task holds the timer thread", () -> ran.get() == 1);
    Thread.sleep(20);
    assertThat(returned).as("still held back").hasValue((int) PER_LANE);

    gate.countDown();
    producer.join(TimeUnit.SECONDS.toMillis(GENEROUS_SECONDS));
    assertThat(returned).hasValue((int) PER_LANE + 3);
    awaitTrue("every timeout ran", () -> ran.get() == PER_LANE + 3);
    awaitTrue("every permit is back", () -> timers.loop.backlogPermits() == 0);
  }

  @Test
  @org.junit.jupiter.api.Timeout(
      value = 30, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
  void aTaskOnTheTimerThreadNeverWaitsNorDoesACancellation() throws Exception {
    holdTimerThread();
    List<Timeout> held = new ArrayList<>();
    // The timer thread is held: this thread's share fills up with requests it cannot apply. The
    // holding task has its permit until its turn's timers are all fired: one fewer is left.
    for (int i = 0; i < PER_LANE - 1; i++) {
      held.add(timers.newTimeout(t -> {}, 1, TimeUnit.HOURS));
    }
    for (Timeout timeout : held) {
      assertThat(timeout.cancel()).isTrue();
    }
    assertThat(timers.stats().throttled()).isZero();

    gate.countDown();
    awaitTrue("the timer thread caught up", () -> timers.loop.backlogPermits() == 0);
    CompletableFuture<Integer> scheduledByTask = new CompletableFuture<>();
    timers.newTimeout(t -> {
      int scheduled = 0;
      for (; scheduled < 10 * BOUND; scheduled++) {
        timers.newTimeout(u -> {}, 0, TimeUnit.MILLISECONDS);
      }
      scheduledByTask.complete(scheduled);
    }, 0, TimeUnit.MILLISECONDS);
    assertThat(scheduledByTask.get(GENEROUS_SECONDS, TimeUnit.SECONDS)).isEqualTo(10 * BOUND);
    assertThat(timers.stats().throttled()).as("the timer thread never waits").isZero();
  }

  @Test
  @org.junit.jupiter.api.Timeout(
      value = 30, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
  void aWaitingCallerGoesAheadToBeRejectedWhenTheServiceStops() throws Exception {
    holdTimerThread();
    CompletableFuture<Throwable> outcome = new CompletableFuture<>();
    Thread producer = new Thread(() -> {
      try {
        for (int i = 0; i < 2 * PER_LANE; i++) {
          timers.newTimeout(t -> {}, 1, TimeUnit.HOURS);
        }
        outcome.complete(null);
      } catch (Throwable e) {
        outcome.complete(e);
      }
    });
    producer.start();
    awaitTrue("the producer waits", () -> waiting(producer) && timers.stats().throttled() == 1);

    CompletableFuture<List<Timeout>> stopped = CompletableFuture.supplyAsync(timers::stop);
    assertThat(outcome.get(GENEROUS_SECONDS, TimeUnit.SECONDS))
        .isInstanceOf(java.util.concurrent.RejectedExecutionException.class);
    gate.countDown();
    assertThat(stopped.get(GENEROUS_SECONDS, TimeUnit.SECONDS)).isNotEmpty();
  }

  /**
   * A caller waiting for the backlog that is interrupted neither stops waiting (it has no way to
   * report it) nor spins (a park returns at once while the interrupt status is set); it returns
   * once the backlog has room, with its interrupt status set.
   */
  @Test
  @org.junit.jupiter.api.Timeout(
      value = 30, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
  void anInterruptedCallerGoesOnWaitingParkedAndReturnsInterrupted() throws Exception {
    holdTimerThread();
    AtomicInteger returned = new AtomicInteger();
    CompletableFuture<Boolean> interruptedAtEnd = new CompletableFuture<>();
    Thread producer = new Thread(() -> {
      for (int i = 0; i < PER_LANE + 1; i++) {
        timers.newTimeout(t -> {}, 1, TimeUnit.HOURS);
        returned.incrementAndGet();
      }
      interruptedAtEnd.complete(Thread.currentThread().isInterrupted());
    }, "producer");
    producer.start();
    awaitTrue("the producer waits", () -> waiting(producer) && timers.stats().throttled() == 1);
    int before = returned.get();

    producer.interrupt();
    // A thread that spins is runnable whenever it is looked at, descheduled or not; one that parks
    // between looks at the backlog is runnable only for the moments in between.
    int samples = 200;
    int runnable = 0;
    for (int i = 0; i < samples; i++) {
      Thread.sleep(2);
      if (producer.getState() == Thread.State.RUNNABLE) {
        runnable++;
      }
    }
    assertThat(returned).as("still held back").hasValue(before);
    assertThat(runnable).as("samples of %s in which the waiting producer was runnable", samples)
        .isLessThanOrEqualTo(samples / 10);

    gate.countDown();
    assertThat(interruptedAtEnd.get(GENEROUS_SECONDS, TimeUnit.SECONDS))
        .as("the interrupt status on return").isTrue();
    assertThat(returned).hasValue((int) PER_LANE + 1);
    assertThat(timers.stats().throttled()).isPositive();
  }

  /**
   * The bound under a flood: 16 threads schedule zero-delay timeouts as fast as they can on a
   * small bound. The model: a timeout whose {@code newTimeout} has returned and whose task has not
   * started is in the backlog (a request or a due timer), or is the one timer the timer thread is
   * firing; so sampling first how many returned and then how many ran may never find more than
   * the bound plus one apart. Without back-pressure on due timers it finds hundreds of thousands.
   */
  @Test
  @org.junit.jupiter.api.Timeout(
      value = 60, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
  void underAFloodTheBacklogNeverExceedsItsBound() throws Exception {
    long bound = 1024;
    start(bound);
    AtomicLong returned = new AtomicLong();
    AtomicLong ran = new AtomicLong();
    AtomicBoolean stop = new AtomicBoolean();
    LongAccumulator widest = new LongAccumulator(Math::max, 0);
    List<Thread> producers = new ArrayList<>();
    for (int p = 0; p < 16; p++) {
      Thread producer = new Thread(() -> {
        TimerTask task = t -> ran.incrementAndGet();
        while (!stop.get()) {
          timers.newTimeout(task, 0, TimeUnit.MILLISECONDS);
          returned.incrementAndGet();
        }
      });
      producers.add(producer);
      producer.start();
    }
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
    while (System.nanoTime() - end < 0) {
      long returnedSoFar = returned.get();
      widest.accumulate(returnedSoFar - ran.get());
      assertThat(timers.loop.backlogPermits()).isLessThanOrEqualTo(bound + producers.size());
    }
    stop.set(true);
    for (Thread producer : producers) {
      producer.join(TimeUnit.SECONDS.toMillis(GENEROUS_SECONDS));
    }
    assertThat(widest.get()).as("returned and not run, at most").isLessThanOrEqualTo(bound + 1);
    assertThat(timers.stats().throttled()).as("the producers were held back").isPositive();
    awaitTrue("nothing is dropped", () -> ran.get() == returned.get());
  }

  @Test
  void aTurnAppliesAtMostOneBatchOfRequests() {
    timers = TimerService.builder().strategy("wheel").manualLoop().build();
    int flood = TimerLoop.REQUEST_BATCH + 10;
    for (int i = 0; i < flood; i++) {
      timers.newTimeout(t -> {}, 1, TimeUnit.HOURS);
    }

    timers.loop.turn();
    assertThat(timers.loop.queuedTimers()).isEqualTo(TimerLoop.REQUEST_BATCH);

    timers.loop.turn();
    assertThat(timers.loop.queuedTimers()).isEqualTo(flood);
  }

  @Test
  void theBoundMustCoverEveryLane() {
    assertThatThrownBy(() -> TimerService.builder().maxBacklog(RequestQueue.MAX_LANES - 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxBacklog must be at least 64, but was 63");
  }
}
