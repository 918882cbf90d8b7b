package io.github.timerqueue.netty;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.MINUTES;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.timerqueue.TimerQueues;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link NettyTimer} keeps the contract of Netty's {@link Timer} as Netty's own {@code
 * HashedWheelTimerTest} checks it for {@code HashedWheelTimer}, with every registered strategy.
 * Each test awaits what must happen with a latch and a {@link org.junit.jupiter.api.Timeout}, so a
 * timeout that never fires fails the test instead of hanging it; what must not happen is checked
 * over a short real wait, which can only miss a failure, never invent one.
 */
@org.junit.jupiter.api.Timeout(10)
class NettyTimerTest {
  @RegisterExtension final Timers timers = new Timers();

  private static final TimerTask NO_OP = timeout -> {};

  @Test
  void everyStrategyIsTested() {
    assertThat(TimerQueues.strategies())
        .containsExactlyInAnyOrder("heap", "hitime", "wheel", "cascade", "lawn");
  }

  // ---- a timeout runs after its delay, never before ----

  @Strategies.Each
  void aTimeoutDoesNotRunBeforeItsDelay(String strategy) throws InterruptedException {
    Timer timer = timers.of(strategy);
    CountDownLatch ran = new CountDownLatch(1);
    Timeout timeout = timer.newTimeout(t -> ran.countDown(), 10, SECONDS);

    assertThat(ran.await(200, MILLISECONDS)).isFalse();
    assertThat(timeout.isExpired()).isFalse();
    assertThat(timeout.isCancelled()).isFalse();
  }

  @Strategies.Each
  void aTimeoutRunsAfterItsDelayAndIsThenExpired(String strategy) throws InterruptedException {
    Timer timer = timers.of(strategy);
    CountDownLatch ran = new CountDownLatch(1);
    AtomicReference<Timeout> given = new AtomicReference<>();
    TimerTask task = t -> {
      given.set(t);
      ran.countDown();
    };
    Timeout timeout = timer.newTimeout(task, 20, MILLISECONDS);

    ran.await();
    assertThat(given.get()).isSameAs(timeout);
    assertThat(timeout.isExpired()).isTrue();
    assertThat(timeout.isCancelled()).isFalse();
    assertThat(timeout.timer()).isSameAs(timer);
    assertThat(timeout.task()).isSameAs(task);
  }

  @Strategies.Each
  void manyTimeoutsEachRunNoEarlierThanTheirDelay(String strategy) throws InterruptedException {
    Timer timer = timers.of(strategy);
    long delayMillis = 50;
    int count = 10_000;
    BlockingQueue<Long> elapsedNanos = new LinkedBlockingQueue<>();
    for (int i = 0; i < count; i++) {
      long scheduledAt = System.nanoTime();
      timer.newTimeout(t -> elapsedNanos.add(System.nanoTime() - scheduledAt),
          delayMillis, MILLISECONDS);
    }

    for (int i = 0; i < count; i++) {
      assertThat(elapsedNanos.take()).isGreaterThanOrEqualTo(MILLISECONDS.toNanos(delayMillis));
    }
  }

  @Strategies.Each
  void aDelayOfZeroOrLessRunsAtOnce(String strategy) throws InterruptedException {
    Timer timer = timers.of(strategy);
    CountDownLatch ran = new CountDownLatch(2);
    timer.newTimeout(t -> ran.countDown(), 0, MILLISECONDS);
    timer.newTimeout(t -> ran.countDown(), -5, SECONDS);

    ran.await();
  }

  @Strategies.Each
  void theLongestDelayNeitherOverflowsNorRuns(String strategy) throws InterruptedException {
    NettyTimer timer = timers.of(strategy);
    CountDownLatch ran = new CountDownLatch(1);
    Timeout timeout = timer.newTimeout(t -> ran.countDown(), Long.MAX_VALUE, MILLISECONDS);

    assertThat(ran.await(200, MILLISECONDS)).isFalse();
    assertThat(timer.pendingTimeouts()).isOne();
    assertThat(timeout.cancel()).isTrue();
    assertThat(timer.pendingTimeouts()).isZero();
  }

  @Strategies.Each
  void aTaskMayScheduleItsSuccessor(String strategy) throws InterruptedException {
    NettyTimer timer = timers.of(strategy);
    CountDownLatch three = new CountDownLatch(3);
    timer.newTimeout(new TimerTask() {
      @Override
      public void run(Timeout timeout) {
        timer.newTimeout(this, 10, MILLISECONDS);
        three.countDown();
      }
    }, 10, MILLISECONDS);

    three.await();
    assertThat(timer.stop()).isNotEmpty();
  }

  @Strategies.Each
  void tasksRunOnTheServicesTaskExecutor(String strategy) throws Exception {
    ExecutorService executor = Executors.newSingleThreadExecutor(r -> new Thread(r, "tasks"));
    try {
      Timer timer = timers.of(strategy, b -> b.taskExecutor(executor));
      BlockingQueue<String> ranOn = new LinkedBlockingQueue<>();
      timer.newTimeout(t -> ranOn.add(Thread.currentThread().getName()), 10, MILLISECONDS);

      assertThat(ranOn.take()).isEqualTo("tasks");
    } finally {
      executor.shutdownNow();
    }
  }

  @Strategies.Each
  void aTaskThatThrowsReachesTheHandlerAndTheTimerGoesOn(String strategy) throws Exception {
    BlockingQueue<Throwable> failures = new LinkedBlockingQueue<>();
    Timer timer = timers.of(strategy, b -> b.uncaughtExceptionHandler((t, e) -> failures.add(e)));
    IllegalStateException failure = new IllegalStateException("task failed");
    timer.newTimeout(t -> {
      throw failure;
    }, 5, MILLISECONDS);
    CountDownLatch next = new CountDownLatch(1);
    timer.newTimeout(t -> next.countDown(), 10, MILLISECONDS);

    assertThat(failures.take()).isSameAs(failure);
    next.await();
  }

  // ---- cancel ----

  @Strategies.Each
  void aCancelledTimeoutNeverRuns(String strategy) throws InterruptedException {
    NettyTimer timer = timers.of(strategy);
    CountDownLatch ran = new CountDownLatch(1);
    Timeout timeout = timer.newTimeout(t -> ran.countDown(), 50, MILLISECONDS);

    assertThat(timeout.cancel()).isTrue();
    assertThat(timeout.isCancelled()).isTrue();
    assertThat(timeout.isExpired()).isFalse();
    assertThat(timeout.cancel()).as("cancelled once only").isFalse();
    assertThat(ran.await(150, MILLISECONDS)).isFalse();
    assertThat(timer.pendingTimeouts()).isZero();
  }

  @Strategies.Each
  void anExpiredTimeoutCannotBeCancelled(String strategy) throws InterruptedException {
    Timer timer = timers.of(strategy);
    CountDownLatch ran = new CountDownLatch(1);
    Timeout timeout = timer.newTimeout(t -> ran.countDown(), 1, MILLISECONDS);
    ran.await();

    assertThat(timeout.cancel()).isFalse();
    assertThat(timeout.isExpired()).isTrue();
    assertThat(timeout.isCancelled()).isFalse();
  }

  @Strategies.Each
  void pendingTimeoutsCountsWhatIsScheduledAndNotYetRunOrCancelled(String strategy)
      throws InterruptedException {
    NettyTimer timer = timers.of(strategy);
    CountDownLatch ran = new CountDownLatch(1);
    Timeout first = timer.newTimeout(NO_OP, 100, MINUTES);
    Timeout second = timer.newTimeout(NO_OP, 100, MINUTES);
    timer.newTimeout(t -> ran.countDown(), 30, MILLISECONDS);
    assertThat(timer.pendingTimeouts()).isEqualTo(3);

    first.cancel();
    second.cancel();
    ran.await();
    awaitPending(timer, 0);
  }

  /**
   * Netty's case of timeouts cancelled while the batch they expire in is being run: each one
   * either ran (and is expired) or was cancelled (and never runs), and none stays counted.
   */
  @Strategies.Each
  void timeoutsCancelledWhileTheirBatchRunsEitherRanOrNeverWill(String strategy)
      throws InterruptedException {
    NettyTimer timer = timers.of(strategy);
    CountDownLatch blockerRunning = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    timer.newTimeout(t -> {
      blockerRunning.countDown();
      release.await();
    }, 20, MILLISECONDS);
    AtomicInteger[] runs = new AtomicInteger[10];
    List<Timeout> sameDeadline = new ArrayList<>();
    for (int i = 0; i < runs.length; i++) {
      AtomicInteger counter = runs[i] = new AtomicInteger();
      sameDeadline.add(timer.newTimeout(t -> counter.incrementAndGet(), 20, MILLISECONDS));
    }

    blockerRunning.await();
    boolean[] cancelled = new boolean[runs.length];
    for (int i = 0; i < runs.length; i++) {
      cancelled[i] = sameDeadline.get(i).cancel();
    }
    release.countDown();
    // Tasks run one after another on the timer thread: once a later timeout ran, so did the batch.
    CountDownLatch batchDone = new CountDownLatch(1);
    timer.newTimeout(t -> batchDone.countDown(), 1, MILLISECONDS);
    batchDone.await();
    assertThat(timer.pendingTimeouts()).isZero();

    for (int i = 0; i < runs.length; i++) {
      Timeout timeout = sameDeadline.get(i);
      assertThat(runs[i].get()).as("runs of timeout %d", i).isEqualTo(cancelled[i] ? 0 : 1);
      assertThat(timeout.isCancelled()).isEqualTo(cancelled[i]);
      assertThat(timeout.isExpired()).isNotEqualTo(cancelled[i]);
    }
  }

  // ---- the limit of pending timeouts ----

  @Strategies.Each
  void newTimeoutIsRejectedWhenTheLimitIsReached(String strategy) {
    Timer timer = timers.of(strategy, b -> b.maxPendingTimeouts(2));
    timer.newTimeout(NO_OP, 5, SECONDS);
    timer.newTimeout(NO_OP, 5, SECONDS);

    assertThatThrownBy(() -> timer.newTimeout(NO_OP, 1, MILLISECONDS))
        .isInstanceOf(RejectedExecutionException.class)
        .hasMessageContaining("2");
  }

  @Strategies.Each
  void aCancelledTimeoutFreesItsPlaceUnderTheLimit(String strategy) throws InterruptedException {
    Timer timer = timers.of(strategy, b -> b.maxPendingTimeouts(2));
    timer.newTimeout(NO_OP, 5, SECONDS);
    Timeout toCancel = timer.newTimeout(NO_OP, 5, SECONDS);
    assertThat(toCancel.cancel()).isTrue();

    CountDownLatch ran = new CountDownLatch(1);
    timer.newTimeout(t -> ran.countDown(), 10, MILLISECONDS);
    ran.await();
  }

  @Strategies.Each
  void aTimeoutThatRanFreesItsPlaceUnderTheLimit(String strategy) throws InterruptedException {
    NettyTimer timer = timers.of(strategy, b -> b.maxPendingTimeouts(2));
    timer.newTimeout(NO_OP, 5, SECONDS);
    CountDownLatch first = new CountDownLatch(1);
    timer.newTimeout(t -> first.countDown(), 10, MILLISECONDS);
    first.await();
    awaitPending(timer, 1);

    CountDownLatch second = new CountDownLatch(1);
    timer.newTimeout(t -> second.countDown(), 10, MILLISECONDS);
    second.await();
  }

  // ---- stop ----

  @Strategies.Each
  void stopReturnsNothingWhenEveryTimeoutRan(String strategy) throws InterruptedException {
    Timer timer = timers.of(strategy);
    CountDownLatch ran = new CountDownLatch(3);
    for (int i = 0; i < 3; i++) {
      timer.newTimeout(t -> ran.countDown(), 1, MILLISECONDS);
    }
    ran.await();

    assertThat(timer.stop()).isEmpty();
  }

  @Strategies.Each
  void stopCancelsAndReturnsExactlyTheTimeoutsThatNeverRan(String strategy)
      throws InterruptedException {
    Timer timer = timers.of(strategy);
    CountDownLatch ran = new CountDownLatch(1);
    timer.newTimeout(t -> ran.countDown(), 1, MILLISECONDS);
    AtomicInteger lateRuns = new AtomicInteger();
    List<Timeout> pending = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      pending.add(timer.newTimeout(t -> lateRuns.incrementAndGet(), 100, MILLISECONDS));
    }
    Timeout cancelledBefore = timer.newTimeout(NO_OP, 100, MILLISECONDS);
    cancelledBefore.cancel();
    ran.await();

    Set<Timeout> unrun = timer.stop();

    assertThat(unrun).containsExactlyInAnyOrderElementsOf(pending);
    assertThat(unrun).allSatisfy(t -> {
      assertThat(t.isCancelled()).isTrue();
      assertThat(t.isExpired()).isFalse();
      assertThat(t.timer()).isSameAs(timer);
    });
    Thread.sleep(150);
    assertThat(lateRuns).hasValue(0);
    assertThat(timer.stop()).as("a second stop").isEmpty();
  }

  @Strategies.Each
  void newTimeoutAfterStopThrowsIllegalStateException(String strategy)
      throws InterruptedException {
    Timer timer = timers.of(strategy);
    CountDownLatch ran = new CountDownLatch(3);
    for (int i = 0; i < 3; i++) {
      timer.newTimeout(t -> ran.countDown(), 1, MILLISECONDS);
    }
    ran.await();
    timer.stop();

    AtomicInteger runs = new AtomicInteger();
    assertThatThrownBy(() -> timer.newTimeout(t -> runs.incrementAndGet(), 1, MILLISECONDS))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("stopped");
    Thread.sleep(20);
    assertThat(runs).hasValue(0);
  }

  @Strategies.Each
  void aTaskMayStopItsOwnTimer(String strategy) throws InterruptedException {
    Timer timer = timers.of(strategy);
    Timeout later = timer.newTimeout(NO_OP, 10, SECONDS);
    BlockingQueue<Set<Timeout>> returned = new LinkedBlockingQueue<>();
    timer.newTimeout(t -> returned.add(t.timer().stop()), 5, MILLISECONDS);

    assertThat(returned.take()).containsExactly(later);
    assertThatThrownBy(() -> timer.newTimeout(NO_OP, 1, MILLISECONDS))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void nullArgumentsAreRejected() {
    NettyTimer timer = timers.of("heap");
    assertThatThrownBy(() -> timer.newTimeout(null, 1, SECONDS))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("task");
    assertThatThrownBy(() -> timer.newTimeout(NO_OP, 1, null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("unit");
    assertThatThrownBy(() -> NettyTimer.create(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("builder");
  }

  @Test
  void anUnknownStrategyIsRejectedWhenTheTimerIsCreated() {
    assertThatThrownBy(() -> timers.of("no-such-strategy"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no-such-strategy");
  }

  @Test
  void theTimerSaysWhichStrategyItRuns() {
    assertThat(timers.of("wheel").strategy()).isEqualTo("wheel");
  }

  /** Waits until the count of pending timeouts is {@code expected}; the class timeout bounds it. */
  private static void awaitPending(NettyTimer timer, long expected) throws InterruptedException {
    while (timer.pendingTimeouts() != expected) {
      Thread.sleep(1);
    }
    assertThat(timer.stats().pending()).isEqualTo(expected);
  }
}
