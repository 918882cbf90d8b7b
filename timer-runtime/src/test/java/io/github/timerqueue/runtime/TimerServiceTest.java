package io.github.timerqueue.runtime;

import static io.github.timerqueue.runtime.ManualTimer.MS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The timer service, driven one loop turn at a time on a fake ticker, with every registered
 * strategy. Resolution is 1 ms; deadlines on whole milliseconds must therefore fire exactly then.
 */
class TimerServiceTest {

  /** Records the millisecond at which each run happened. */
  private static final class Runs implements TimerTask {
    final ManualTimer timer;
    final List<Long> at = new CopyOnWriteArrayList<>();
    final AtomicInteger cancellations = new AtomicInteger();

    Runs(ManualTimer timer) {
      this.timer = timer;
    }

    @Override
    public void run(Timeout timeout) {
      at.add(timer.millis());
    }

    @Override
    public void cancelled(Timeout timeout) {
      cancellations.incrementAndGet();
    }
  }

  @Strategies.Each
  void firesAtItsDeadlineAndNeverBefore(String strategy) {
    ManualTimer timer = new ManualTimer(strategy);
    Runs five = new Runs(timer);
    Runs ten = new Runs(timer);
    Runs alsoTen = new Runs(timer);
    timer.schedule(five, 5);
    Timeout tenTimeout = timer.schedule(ten, 10);
    timer.schedule(alsoTen, 10);

    timer.stepTo(9);
    assertThat(five.at).containsExactly(5L);
    assertThat(ten.at).isEmpty();
    assertThat(tenTimeout.isPending()).isTrue();

    timer.stepTo(12);
    assertThat(ten.at).containsExactly(10L);
    assertThat(alsoTen.at).containsExactly(10L);
    assertThat(tenTimeout.isExpired()).isTrue();
    assertThat(tenTimeout.isPending()).isFalse();
    assertThat(timer.service.stats().fired()).isEqualTo(3);
    assertThat(timer.service.stats().pending()).isZero();
  }

  @Strategies.Each
  void aDeadlineBetweenTicksFiresByTheNextMultipleOfTheResolution(String strategy) {
    ManualTimer timer = new ManualTimer(strategy);
    List<Long> ranAtNanos = new ArrayList<>();
    timer.service.newTimeout(t -> ranAtNanos.add(timer.ticker.read()), 2_500, TimeUnit.MICROSECONDS);

    for (long now = 0; now <= 3 * MS; now += MS / 2) {
      timer.ticker.advance(now - timer.ticker.read());
      timer.service.runOnce();
    }

    assertThat(ranAtNanos).hasSize(1);
    assertThat(ranAtNanos.get(0)).isBetween(2_500_000L, 3 * MS);
  }

  @Strategies.Each
  void sleepsUntilTheNextDeadlineAndIndefinitelyWhenEmpty(String strategy) {
    ManualTimer timer = new ManualTimer(strategy);
    assertThat(timer.service.runOnce()).isEqualTo(Long.MAX_VALUE);

    Runs runs = new Runs(timer);
    timer.schedule(runs, 40);
    long sleep = timer.service.runOnce();
    int turns = 1;
    while (runs.at.isEmpty()) {
      assertThat(sleep).as("sleep while a timer waits").isBetween(1L, 40 * MS);
      timer.ticker.advance(sleep);
      sleep = timer.service.runOnce();
      assertThat(++turns).as("turns to reach a timer 40 ms away").isLessThanOrEqualTo(64);
    }

    assertThat(runs.at).containsExactly(40L);
    assertThat(timer.ticker.read()).isEqualTo(40 * MS);
    assertThat(sleep).isEqualTo(Long.MAX_VALUE);
  }

  @Strategies.Each
  void onlyAnEarlierDeadlineWakesTheSleepingThread(String strategy) {
    ManualTimer timer = new ManualTimer(strategy);
    timer.schedule(t -> {}, 100);
    assertThat(timer.service.loop.wakeSignals()).as("awake threads are not signalled").isZero();
    timer.at(0);

    timer.schedule(t -> {}, 200);
    assertThat(timer.service.loop.wakeSignals()).isZero();
    timer.schedule(t -> {}, 50);
    assertThat(timer.service.loop.wakeSignals()).isEqualTo(1);
    timer.schedule(t -> {}, 60);
    assertThat(timer.service.loop.wakeSignals()).as("the thread already wakes by 50").isEqualTo(1);
    timer.schedule(t -> {}, 20);
    assertThat(timer.service.loop.wakeSignals()).isEqualTo(2);
  }

  @Strategies.Each
  void aDeadlineTheThreadWakesInTimeForDoesNotWakeIt(String strategy) {
    ManualTimer timer = new ManualTimer(strategy);
    timer.schedule(t -> {}, 50);
    long sleep = timer.at(0); // up to 50 ms: strategies that are not exact may wake earlier

    timer.service.newTimeout(t -> {}, sleep, TimeUnit.NANOSECONDS);
    assertThat(timer.service.loop.wakeSignals()).isZero();
    long lastTickBefore = (sleep - 1) / MS * MS;
    timer.service.newTimeout(t -> {}, lastTickBefore, TimeUnit.NANOSECONDS);
    assertThat(timer.service.loop.wakeSignals()).isEqualTo(1);
  }

  @Strategies.Each
  void anIdleLoopSleepsIndefinitelyOnceTimersAreGone(String strategy) {
    ManualTimer timer = new ManualTimer(strategy);
    Runs runs = new Runs(timer);
    timer.schedule(runs, 3);
    timer.stepTo(3);
    assertThat(runs.at).containsExactly(3L);
    assertThat(timer.at(4)).isEqualTo(Long.MAX_VALUE);
    assertThat(timer.service.loop.queuedTimers()).isZero();
  }

  @Strategies.Each
  void cancelBeforeExpiryStopsTheTaskAndRemovesItsTimer(String strategy) {
    ManualTimer timer = new ManualTimer(strategy);
    Runs runs = new Runs(timer);
    Timeout timeout = timer.schedule(runs, 100);
    timer.at(0);
    assertThat(timer.service.loop.queuedTimers()).isEqualTo(1);

    assertThat(timeout.cancel()).isTrue();
    assertThat(timeout.cancel()).isFalse();
    assertThat(timeout.isCancelled()).isTrue();
    assertThat(timeout.isPending()).isFalse();
    assertThat(runs.cancellations).hasValue(1);
    assertThat(timer.service.loop.wakeSignals()).as("a quiet loop is woken to remove it").isEqualTo(1);
    timer.at(1);
    assertThat(timer.service.loop.queuedTimers()).isZero();

    timer.stepTo(120);
    assertThat(runs.at).isEmpty();
    assertThat(timer.service.stats().cancelled()).isEqualTo(1);
    assertThat(timer.service.stats().pending()).isZero();
    assertThat(timer.service.stats().fired()).isZero();
  }

  @Strategies.Each
  void aCancellationDoesNotWakeAThreadThatWakesWithinTheSweepIntervalAnyway(String strategy) {
    ManualTimer timer = new ManualTimer(strategy);
    Timeout far = timer.schedule(t -> {}, 60_000);
    timer.schedule(t -> {}, 5);
    long sleep = timer.at(0);
    assertThat(sleep).isLessThanOrEqualTo(5 * ManualTimer.MS);

    far.cancel();
    assertThat(timer.service.loop.wakeSignals()).isZero();
    timer.stepTo(5);
    assertThat(timer.service.loop.queuedTimers()).as("taken when it woke").isZero();
  }

  @Strategies.Each
  void cancelAfterExpiryReturnsFalseAndCallsNoCallback(String strategy) {
    ManualTimer timer = new ManualTimer(strategy);
    Runs runs = new Runs(timer);
    Timeout timeout = timer.schedule(runs, 1);
    timer.stepTo(1);

    assertThat(timeout.cancel()).isFalse();
    assertThat(timeout.isExpired()).isTrue();
    assertThat(runs.cancellations).hasValue(0);
    assertThat(timer.service.stats().cancelled()).isZero();
  }

  @Strategies.Each
  void cancellationsWakeTheThreadAtMostOncePerSweepInterval(String strategy) {
    ManualTimer timer = new ManualTimer(strategy);
    List<Timeout> far = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      far.add(timer.schedule(t -> {}, 60_000));
    }
    timer.at(0);

    far.get(0).cancel();
    assertThat(timer.service.loop.wakeSignals()).isEqualTo(1);
    long sleep = timer.at(0);
    assertThat(timer.service.loop.queuedTimers()).isEqualTo(3);
    assertThat(sleep).as("wakes by the end of the sweep interval").isBetween(1L, 10 * MS);

    far.get(1).cancel();
    far.get(2).cancel();
    assertThat(timer.service.loop.wakeSignals()).as("no wake-up within the interval").isEqualTo(1);
    assertThat(timer.service.loop.queuedTimers()).isEqualTo(3);

    sleep = timer.at(10);
    assertThat(timer.service.loop.queuedTimers()).isEqualTo(1);
    assertThat(sleep).as("sleeping towards the timer").isBetween(1L, 59_990 * MS);

    far.get(3).cancel();
    assertThat(timer.service.loop.wakeSignals()).isEqualTo(2);
  }

  @Strategies.Each
  void rescheduleMovesAPendingTimeout(String strategy) {
    ManualTimer timer = new ManualTimer(strategy);
    Runs later = new Runs(timer);
    Runs sooner = new Runs(timer);
    Timeout laterTimeout = timer.schedule(later, 10);
    Timeout soonerTimeout = timer.schedule(sooner, 10);
    timer.at(0);

    assertThat(laterTimeout.reschedule(20, TimeUnit.MILLISECONDS)).isTrue();
    assertThat(soonerTimeout.reschedule(5, TimeUnit.MILLISECONDS)).isTrue();
    timer.stepTo(25);

    assertThat(sooner.at).containsExactly(5L);
    assertThat(later.at).containsExactly(20L);
    assertThat(timer.service.stats().fired()).isEqualTo(2);
  }

  @Strategies.Each
  void rescheduleReArmsAnExpiredOrCancelledTimeout(String strategy) {
    ManualTimer timer = new ManualTimer(strategy);
    Runs runs = new Runs(timer);
    Timeout timeout = timer.schedule(runs, 5);
    timer.stepTo(5);

    assertThat(timeout.reschedule(5, TimeUnit.MILLISECONDS)).isFalse();
    assertThat(timeout.isPending()).isTrue();
    timer.stepTo(10);
    assertThat(runs.at).containsExactly(5L, 10L);

    timeout.reschedule(5, TimeUnit.MILLISECONDS);
    timeout.cancel();
    assertThat(timeout.reschedule(5, TimeUnit.MILLISECONDS)).isFalse();
    assertThat(timeout.isCancelled()).isFalse();
    timer.stepTo(20);
    assertThat(runs.at).containsExactly(5L, 10L, 15L);
    assertThat(timer.service.stats().fired()).isEqualTo(3);
    assertThat(timer.service.stats().cancelled()).isEqualTo(1);
  }

  @Strategies.Each
  void aTaskMayReArmItsOwnTimeout(String strategy) {
    ManualTimer timer = new ManualTimer(strategy);
    List<Long> at = new ArrayList<>();
    timer.schedule(timeout -> {
      at.add(timer.millis());
      timeout.reschedule(3, TimeUnit.MILLISECONDS);
    }, 3);

    timer.stepTo(13);

    assertThat(at).containsExactly(3L, 6L, 9L, 12L);
    assertThat(timer.service.stats().pending()).isEqualTo(1);
  }

  @Strategies.Each
  void changesMadeBeforeTheThreadLooksAreAppliedAsTheLastOne(String strategy) {
    ManualTimer timer = new ManualTimer(strategy);
    Runs runs = new Runs(timer);
    Timeout timeout = timer.schedule(runs, 50);
    timeout.reschedule(40, TimeUnit.MILLISECONDS);
    timeout.reschedule(30, TimeUnit.MILLISECONDS);
    timeout.cancel();
    timeout.reschedule(7, TimeUnit.MILLISECONDS);

    timer.at(0);
    assertThat(timer.service.loop.queuedTimers()).isEqualTo(1);
    timer.stepTo(60);

    assertThat(runs.at).containsExactly(7L);
    assertThat(runs.cancellations).hasValue(1);
  }

  @Strategies.Each
  void aTimeoutMovedBackBeforeTheThreadLooksDoesNotFireAtItsOldDeadline(String strategy) {
    ManualTimer timer = new ManualTimer(strategy);
    Runs runs = new Runs(timer);
    Timeout timeout = timer.schedule(runs, 5);
    timer.at(0);

    timer.ticker.advance(5 * MS); // due now, but the thread has not looked yet
    timeout.reschedule(10, TimeUnit.MILLISECONDS);
    timer.service.runOnce();

    assertThat(runs.at).isEmpty();
    timer.stepTo(15);
    assertThat(runs.at).containsExactly(15L);
  }

  @Strategies.Each
  void aDueTimeoutMovedByATaskInTheSameTurnDoesNotFireAtItsOldDeadline(String strategy) {
    ManualTimer timer = new ManualTimer(strategy);
    List<String> ran = new ArrayList<>();
    Timeout[] timeouts = new Timeout[2];
    for (int i = 0; i < 2; i++) {
      int self = i;
      timeouts[i] = timer.schedule(t -> {
        ran.add(self + "@" + timer.millis());
        timeouts[1 - self].reschedule(5, TimeUnit.MILLISECONDS); // the other, due now too
      }, 5);
    }

    timer.stepTo(12);

    // Whichever ran first moved the other to 10, before its turn in the same advance.
    assertThat(ran).hasSize(2);
    assertThat(ran.get(0)).endsWith("@5");
    assertThat(ran.get(1)).endsWith("@10");
  }

  @Strategies.Each
  void aDueTimeoutCancelledByATaskInTheSameTurnNeverRuns(String strategy) {
    ManualTimer timer = new ManualTimer(strategy);
    List<Integer> ran = new ArrayList<>();
    Timeout[] timeouts = new Timeout[2];
    for (int i = 0; i < 2; i++) {
      int self = i;
      timeouts[i] = timer.schedule(t -> {
        ran.add(self);
        timeouts[1 - self].cancel();
      }, 5);
    }

    timer.stepTo(12);

    assertThat(ran).hasSize(1);
    assertThat(timer.service.stats().cancelled()).isEqualTo(1);
  }

  @Strategies.Each
  void aThrowingTaskGoesToTheHandlerAndTheOtherTimeoutsStillFire(String strategy) {
    ManualTimer timer = new ManualTimer(strategy);
    IllegalStateException boom = new IllegalStateException("boom");
    Runs first = new Runs(timer);
    Runs second = new Runs(timer);
    Runs later = new Runs(timer);
    timer.schedule(first, 5);
    timer.schedule(t -> {
      throw boom;
    }, 5);
    timer.schedule(second, 5);
    timer.schedule(later, 6);

    timer.stepTo(6);

    assertThat(timer.failures).containsExactly(boom);
    assertThat(first.at).containsExactly(5L);
    assertThat(second.at).containsExactly(5L);
    assertThat(later.at).containsExactly(6L);
    assertThat(timer.service.stats().fired()).isEqualTo(4);
  }

  @Strategies.Each
  void aThrowingCancellationCallbackGoesToTheHandler(String strategy) {
    ManualTimer timer = new ManualTimer(strategy);
    IllegalStateException boom = new IllegalStateException("boom");
    Timeout timeout = timer.schedule(new TimerTask() {
      @Override
      public void run(Timeout timeout) {}

      @Override
      public void cancelled(Timeout timeout) {
        throw boom;
      }
    }, 5);

    assertThat(timeout.cancel()).isTrue();
    assertThat(timer.failures).containsExactly(boom);
  }

  @Strategies.Each
  void timeoutsScheduledByATaskFireInALaterTurn(String strategy) {
    ManualTimer timer = new ManualTimer(strategy);
    Runs inner = new Runs(timer);
    timer.schedule(t -> timer.schedule(inner, 0), 2);

    timer.at(2);
    assertThat(inner.at).isEmpty();
    timer.at(2);
    assertThat(inner.at).containsExactly(2L);
  }

  @Strategies.Each
  void stopReturnsTheTimeoutsThatNeverRanAndRejectsFurtherRequests(String strategy) {
    ManualTimer timer = new ManualTimer(strategy);
    Runs runs = new Runs(timer);
    Timeout ran = timer.schedule(runs, 5);
    Timeout waiting = timer.schedule(runs, 10);
    Timeout cancelled = timer.schedule(runs, 10);
    cancelled.cancel();
    timer.stepTo(5);
    Timeout notYetSeen = timer.schedule(runs, 1); // still in the request queue

    List<Timeout> unrun = timer.service.stop();

    assertThat(unrun).containsExactlyInAnyOrder(waiting, notYetSeen);
    assertThat(waiting.isCancelled()).isTrue();
    assertThat(notYetSeen.isCancelled()).isTrue();
    assertThat(runs.cancellations).as("stop calls no callbacks").hasValue(1);
    assertThat(timer.service.isStopped()).isTrue();
    assertThatThrownBy(() -> timer.schedule(runs, 1))
        .isInstanceOf(RejectedExecutionException.class)
        .hasMessageContaining("stopped");
    assertThatThrownBy(() -> ran.reschedule(1, TimeUnit.MILLISECONDS))
        .isInstanceOf(RejectedExecutionException.class);
    assertThat(ran.isExpired()).isTrue();
    assertThat(timer.service.stop()).isEmpty();
    TimerStats stats = timer.service.stats();
    assertThat(stats.pending()).isZero();
    assertThat(stats.rejected()).isEqualTo(2);
    assertThat(stats.fired()).isEqualTo(1);
    assertThat(runs.at).containsExactly(5L);
  }

  @Strategies.Each
  void theLimitOnPendingTimeoutsRejectsBeyondIt(String strategy) {
    ManualTimer timer = new ManualTimer(strategy, 0, TimerService.builder().maxPendingTimeouts(2));
    Timeout first = timer.schedule(t -> {}, 5);
    Timeout second = timer.schedule(t -> {}, 50);
    assertThatThrownBy(() -> timer.schedule(t -> {}, 5))
        .isInstanceOf(RejectedExecutionException.class)
        .hasMessageContaining("maximum of 2 pending");
    assertThat(first.reschedule(6, TimeUnit.MILLISECONDS)).as("moving is not adding").isTrue();

    timer.stepTo(6);
    assertThat(first.isExpired()).isTrue();
    Timeout third = timer.schedule(t -> {}, 50);
    assertThatThrownBy(() -> first.reschedule(1, TimeUnit.MILLISECONDS))
        .isInstanceOf(RejectedExecutionException.class);
    assertThat(first.isExpired()).as("a rejected re-arm changes nothing").isTrue();

    third.cancel();
    assertThat(first.reschedule(1, TimeUnit.MILLISECONDS)).isFalse();
    assertThat(second.isPending()).isTrue();
    assertThat(timer.service.stats().rejected()).isEqualTo(2);
    assertThat(timer.service.stats().pending()).isEqualTo(2);
  }

  @Strategies.Each
  void aTaskExecutorRunsTheTasksAndLatenessCountsItsQueueing(String strategy) {
    List<Runnable> handedOver = new ArrayList<>();
    ManualTimer timer =
        new ManualTimer(strategy, 0, TimerService.builder().taskExecutor(handedOver::add));
    Runs runs = new Runs(timer);
    timer.schedule(runs, 5);

    timer.stepTo(5);
    assertThat(runs.at).isEmpty();
    assertThat(handedOver).hasSize(1);
    assertThat(timer.service.stats().fired()).isEqualTo(1);

    timer.ticker.advance(3 * MS);
    handedOver.get(0).run();
    assertThat(runs.at).containsExactly(8L);
    assertThat(timer.service.stats().maxLatenessNanos()).isEqualTo(3 * MS);
  }

  @Strategies.Each
  void aTaskTheExecutorRejectsGoesToTheHandler(String strategy) {
    RejectedExecutionException full = new RejectedExecutionException("full");
    ManualTimer timer = new ManualTimer(strategy, 0, TimerService.builder().taskExecutor(task -> {
      throw full;
    }));
    timer.schedule(t -> {}, 1);

    timer.stepTo(1);

    assertThat(timer.failures).containsExactly(full);
  }

  @Strategies.Each
  void latenessPercentilesDescribeWhenTasksStarted(String strategy) {
    ManualTimer timer = new ManualTimer(strategy);
    for (int i = 0; i < 90; i++) {
      timer.schedule(t -> {}, 10);
    }
    for (int i = 0; i < 10; i++) {
      timer.schedule(t -> {}, 3);
    }

    timer.at(10); // the ten due at 3 ms start 7 ms late

    TimerStats stats = timer.service.stats();
    assertThat(stats.tasksRun()).isEqualTo(100);
    assertThat(stats.latenessNanos(50)).isZero();
    assertThat(stats.latenessNanos(90)).isZero();
    assertThat(stats.latenessNanos(91)).isEqualTo(7 * MS);
    assertThat(stats.latenessNanos(99.9)).isEqualTo(7 * MS);
    assertThat(stats.maxLatenessNanos()).isEqualTo(7 * MS);
  }

  @Strategies.Each
  void anyDelayIsAccepted(String strategy) {
    ManualTimer timer = new ManualTimer(strategy);
    Runs past = new Runs(timer);
    Runs never = new Runs(timer);
    timer.service.newTimeout(past, -5, TimeUnit.SECONDS);
    Timeout far = timer.service.newTimeout(never, Long.MAX_VALUE, TimeUnit.DAYS);

    timer.at(0);
    timer.at(1_000_000);

    assertThat(past.at).containsExactly(0L);
    assertThat(never.at).isEmpty();
    assertThat(far.isPending()).isTrue();
  }

  @Strategies.Each
  void worksAcrossTheWrapOfTheTicker(String strategy) {
    ManualTimer timer = new ManualTimer(strategy, Long.MAX_VALUE - 5 * MS, TimerService.builder());
    Runs runs = new Runs(timer);
    timer.schedule(runs, 10);
    timer.schedule(runs, 3);

    timer.stepTo(12);

    assertThat(runs.at).containsExactly(3L, 10L);
  }

  @Strategies.Each
  void theTaskAndStatesOfATimeoutAreVisible(String strategy) {
    ManualTimer timer = new ManualTimer(strategy);
    TimerTask task = t -> {};
    Timeout timeout = timer.schedule(task, 1);

    assertThat(timeout.task()).isSameAs(task);
    assertThat(timeout.toString()).contains("pending");
    assertThat(timer.service.strategy()).isEqualTo(strategy);
    assertThat(timer.service.toString()).contains(strategy);
  }
}
