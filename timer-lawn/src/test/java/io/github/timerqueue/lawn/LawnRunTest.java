package io.github.timerqueue.lawn;

import static io.github.timerqueue.lawn.LawnTimerQueueTest.lawn;
import static io.github.timerqueue.lawn.LawnTimerQueueTest.queueOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.github.timerqueue.TimerHandle;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A lawn whose index holds one TTL queue hands out its due heads in a run, which re-keys and
 * retires the queue only when it ends: what a handler sees and does in between must not tell.
 */
class LawnRunTest {

  /**
   * A lawn with resolution 1 and one TTL, 100: the timers named {@code due}, armed at 0, due at
   * 100 in that order, and, if {@code later} is not {@code null}, one armed at 10, due at 110.
   */
  private static LawnTimerQueue<String> oneTtl(String later, String... due) {
    var lawn = lawn(0, 1);
    for (String name : due) {
      lawn.schedule(100, name);
    }
    if (later != null) {
      lawn.advance(10, timer -> { });
      lawn.schedule(110, later);
    }
    return lawn;
  }

  @ParameterizedTest(name = "start {0}")
  @ValueSource(longs = {0, 3, -1, Long.MAX_VALUE - 20, Long.MIN_VALUE})
  void aRunFiresAHeadExactlyWhenItsDeadlineRoundedUpToTheResolutionIsReached(long start) {
    var lawn = lawn(start, 10);
    lawn.schedule(start + 44, "a");
    lawn.schedule(start + 50, "b");
    lawn.advance(start + 13, timer -> { });
    lawn.schedule(start + 60, "c");
    assertThat(LawnTimerQueueTest.ttls(lawn)).containsExactly(5L);
    List<String> fired = new ArrayList<>();

    lawn.advance(start + 49, timer -> fired.add(timer.payload()));
    assertThat(fired).isEmpty();
    lawn.advance(start + 59, timer -> fired.add(timer.payload()));
    assertThat(fired).containsExactly("a", "b");
    LawnInvariants.check(lawn);
    assertThat(lawn.nextExpiryDelay()).isEqualTo(1);
    lawn.advance(start + 60, timer -> fired.add(timer.payload()));
    assertThat(fired).containsExactly("a", "b", "c");
  }

  @Test
  void aHandlerAskingForTheNextExpiryDelayMidRunGetsTheExactDistance() {
    var lawn = oneTtl("c", "a", "b");
    List<Long> delays = new ArrayList<>();

    int fired = lawn.advance(100, timer -> delays.add(lawn.nextExpiryDelay()));

    assertThat(fired).isEqualTo(2);
    assertThat(delays).containsExactly(0L, 10L);
    LawnInvariants.check(lawn);
  }

  @Test
  void aHandlerThatThrowsMidRunLeavesTheQueueKeyedByItsHead() {
    var lawn = oneTtl("c", "a", "b");

    Throwable thrown = catchThrowable(() -> lawn.advance(100, timer -> {
      throw new IllegalStateException(timer.payload());
    }));

    assertThat(thrown).hasMessage("a");
    LawnInvariants.check(lawn);
    assertThat(lawn.nextExpiryDelay()).isZero();
    assertThat(LawnTimerQueueTest.advance(lawn, 100)).containsExactly("b");
    assertThat(lawn.nextExpiryDelay()).isEqualTo(10);
  }

  @Test
  void theLastTimerReArmedWithTheSameTtlJoinsTheQueueItLeft() {
    var lawn = lawn(0, 1);
    TimerHandle<String> only = lawn.schedule(100, "only");
    TtlQueue<?> queue = queueOf(only);

    lawn.advance(100, timer -> lawn.reschedule(timer, lawn.now() + 100));

    LawnInvariants.check(lawn);
    assertThat(queueOf(only)).isSameAs(queue);
    assertThat(lawn.index.size()).isEqualTo(1);
    assertThat(lawn.nextExpiryDelay()).isEqualTo(100);
  }

  @Test
  void aQueueThatARunEmptiesIsRetiredWhenTheRunEnds() {
    var lawn = oneTtl(null, "a", "b");

    assertThat(LawnTimerQueueTest.advance(lawn, 100)).containsExactly("a", "b");

    assertThat(lawn.index.isEmpty()).isTrue();
    assertThat(lawn.queuesByTtl.size()).isZero();
    assertThat(lawn.nextExpiryDelay()).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void aTtlArmedMidRunThatExpiresBeforeTheQueuesNextHeadGoesFirstInTheIndex() {
    var lawn = lawn(0, 1);
    lawn.schedule(100, "a");
    lawn.advance(50, timer -> { });
    lawn.schedule(150, "c");

    lawn.advance(100, timer -> lawn.schedule(lawn.now() + 5, "x"));

    LawnInvariants.check(lawn);
    assertThat(lawn.nextExpiryDelay()).isEqualTo(5);
    assertThat(LawnTimerQueueTest.advance(lawn, 105)).containsExactly("x");
    assertThat(LawnTimerQueueTest.advance(lawn, 150)).containsExactly("c");
  }

  @Test
  void aHeadCancelledMidRunNeverFiresAndTheRunGoesOnPastIt() {
    var lawn = lawn(0, 1);
    lawn.schedule(100, "a");
    TimerHandle<String> b = lawn.schedule(100, "b");
    lawn.schedule(100, "c");
    lawn.advance(10, timer -> { });
    lawn.schedule(110, "d");
    List<String> fired = new ArrayList<>();

    int count = lawn.advance(100, timer -> {
      fired.add(timer.payload());
      lawn.cancel(b);
    });

    assertThat(count).isEqualTo(2);
    assertThat(fired).containsExactly("a", "c");
    LawnInvariants.check(lawn);
    assertThat(lawn.nextExpiryDelay()).isEqualTo(10);
  }

  @Test
  void aHandlerThatEmptiesTheQueueAndReArmsItsTimerWithTheSameTtlEndsTheRun() {
    var lawn = lawn(0, 1);
    lawn.schedule(100, "a");
    TimerHandle<String> b = lawn.schedule(100, "b");
    List<String> fired = new ArrayList<>();

    int count = lawn.advance(100, timer -> {
      fired.add(timer.payload());
      lawn.cancel(b);
      lawn.reschedule(timer, lawn.now() + 100);
    });

    assertThat(count).isEqualTo(1);
    assertThat(fired).containsExactly("a");
    LawnInvariants.check(lawn);
    assertThat(lawn.size()).isEqualTo(1);
    assertThat(lawn.nextExpiryDelay()).isEqualTo(100);
  }

  @Test
  void aHandlerThatClearsMidRunEndsIt() {
    var lawn = oneTtl(null, "a", "b", "c");
    List<String> fired = new ArrayList<>();

    int count = lawn.advance(100, timer -> {
      fired.add(timer.payload());
      lawn.clear();
    });

    assertThat(count).isEqualTo(1);
    assertThat(fired).containsExactly("a");
    LawnInvariants.check(lawn);
    assertThat(lawn.size()).isZero();
    lawn.schedule(200, "again");
    assertThat(LawnTimerQueueTest.advance(lawn, 200)).containsExactly("again");
  }

  @Test
  void aRunStopsAtTheLimitAndLeavesTheRestDueAndKeyedByTheirHead() {
    var lawn = oneTtl(null, "a", "b", "c");
    List<String> fired = new ArrayList<>();

    assertThat(lawn.advance(100, timer -> fired.add(timer.payload()), 2)).isEqualTo(2);

    assertThat(fired).containsExactly("a", "b");
    LawnInvariants.check(lawn);
    assertThat(lawn.nextExpiryDelay()).isZero();
    assertThat(LawnTimerQueueTest.advance(lawn, 100)).containsExactly("c");
  }
}
