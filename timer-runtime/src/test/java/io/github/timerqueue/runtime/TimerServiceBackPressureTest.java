package io.github.timerqueue.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.base.Ticker;
import com.google.common.util.concurrent.Uninterruptibles;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Back-pressure: while the timer thread has more requests queued than it applies in a turn, other
 * threads' calls to schedule wait for it (for at most a millisecond each), and the timer thread
 * itself never does. The timer thread is held at chosen points by a task that waits on a latch and
 * by a ticker that stalls it once it is behind, so that each state is reached deterministically.
 */
class TimerServiceBackPressureTest {
  private static final long GENEROUS_SECONDS = 10;
  private static final String THREAD_NAME = "back-pressure-timer";
  /** More requests than one turn applies, so that the first turn leaves some queued. */
  private static final int FLOOD = TimerLoop.REQUEST_BATCH + 10;

  private final AtomicBoolean stallWhenBehind = new AtomicBoolean();
  private final CountDownLatch releaseStall = new CountDownLatch(1);
  private TimerService timers;

  @AfterEach
  void stop() {
    releaseStall.countDown();
    if (timers != null) {
      timers.stop();
    }
  }

  /** A system ticker that holds the timer thread while it is behind, once asked to. */
  private final Ticker stallingTicker = new Ticker() {
    @Override
    public long read() {
      if (stallWhenBehind.get() && Thread.currentThread().getName().equals(THREAD_NAME)
          && timers.loop.behind()) {
        Uninterruptibles.awaitUninterruptibly(releaseStall);
      }
      return System.nanoTime();
    }
  };

  private void start() {
    timers = TimerService.builder()
        .strategy("wheel")
        .resolution(Duration.ofMillis(1))
        .ticker(stallingTicker)
        .threadName(THREAD_NAME)
        .build();
  }

  /** Occupies the timer thread with a task until the returned latch is counted down. */
  private CountDownLatch occupyTimerThread() throws InterruptedException {
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch gate = new CountDownLatch(1);
    timers.newTimeout(t -> {
      started.countDown();
      Uninterruptibles.awaitUninterruptibly(gate);
    }, 0, TimeUnit.MILLISECONDS);
    assertThat(started.await(GENEROUS_SECONDS, TimeUnit.SECONDS)).isTrue();
    return gate;
  }

  private void flood() {
    for (int i = 0; i < FLOOD; i++) {
      timers.newTimeout(t -> {}, 1, TimeUnit.HOURS);
    }
  }

  private static void awaitTrue(BooleanSupplier condition) throws InterruptedException {
    long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(GENEROUS_SECONDS);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime() - giveUp).as("waited too long").isNegative();
      Thread.sleep(1);
    }
  }

  @Test
  void aCallerWaitsWhileTheTimerThreadIsBehindAndNotOnceItHasCaughtUp() throws Exception {
    start();
    CountDownLatch gate = occupyTimerThread();
    flood(); // the thread is busy, not behind: nobody waits yet
    assertThat(timers.stats().throttled()).isZero();

    stallWhenBehind.set(true);
    gate.countDown();
    awaitTrue(timers.loop::behind);

    long before = System.nanoTime();
    Timeout waited = timers.newTimeout(t -> {}, 1, TimeUnit.HOURS);
    long waitedNanos = System.nanoTime() - before;

    assertThat(timers.stats().throttled()).isEqualTo(1);
    // The thread stays stalled, so the caller waits out the whole bound, then goes ahead anyway.
    assertThat(waitedNanos).isGreaterThanOrEqualTo(TimerLoop.MAX_THROTTLE_NANOS);
    assertThat(waited.isPending()).isTrue();

    stallWhenBehind.set(false);
    releaseStall.countDown();
    awaitTrue(() -> !timers.loop.behind());
    timers.newTimeout(t -> {}, 1, TimeUnit.HOURS).reschedule(2, TimeUnit.HOURS);

    assertThat(timers.stats().throttled()).isEqualTo(1);
    assertThat(timers.stats().pending()).isEqualTo(FLOOD + 2);
  }

  @Test
  void aTaskOnTheTimerThreadNeverWaitsForItself() throws Exception {
    start();
    CountDownLatch gate = occupyTimerThread();
    CompletableFuture<Boolean> behindWhileTaskRan = new CompletableFuture<>();
    CompletableFuture<Timeout> scheduledByTask = new CompletableFuture<>();
    // Queued first, so applied in the first batch and fired in the turn that marks the thread
    // behind: the task schedules while its own thread is behind.
    timers.newTimeout(t -> {
      behindWhileTaskRan.complete(timers.loop.behind());
      scheduledByTask.complete(timers.newTimeout(u -> {}, 1, TimeUnit.HOURS));
    }, 0, TimeUnit.MILLISECONDS);
    flood();

    gate.countDown();

    assertThat(behindWhileTaskRan.get(GENEROUS_SECONDS, TimeUnit.SECONDS)).isTrue();
    assertThat(scheduledByTask.get(GENEROUS_SECONDS, TimeUnit.SECONDS).isPending()).isTrue();
    assertThat(timers.stats().throttled()).isZero();
  }

  @Test
  void aTurnMarksTheThreadBehindOnlyWhileItLeavesRequestsQueued() {
    timers = TimerService.builder().strategy("wheel").manualLoop().build();
    flood();

    timers.loop.turn();
    assertThat(timers.loop.behind()).isTrue();

    timers.loop.turn();
    assertThat(timers.loop.behind()).isFalse();
    assertThat(timers.loop.queuedTimers()).isEqualTo(FLOOD);
  }
}
