package io.github.timerqueue.lawn;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerHandle;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The {@code limit} rule of {@code advance}: if {@code advance(now, handler, limit)} returns fewer
 * than {@code limit}, no timer is left that was to fire by {@code now}, whatever the handler
 * cancelled or re-armed; only timers armed by the handler itself wait for the next advance. The
 * setups include those where differential fuzzing first caught the lawn breaking it.
 */
class LawnAdvanceLimitTest {

  private static LawnTimerQueue<String> lawn(long start, long resolution) {
    return new LawnTimerQueue<>(
        TimerConfig.builder().startTime(start).resolution(resolution).build());
  }

  /** Schedules {@code count} timers named 0, 1, ... all due at {@code deadline}, in that order. */
  private static List<TimerHandle<String>> batch(
      LawnTimerQueue<String> lawn, int count, long deadline) {
    List<TimerHandle<String>> timers = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      timers.add(lawn.schedule(deadline, Integer.toString(i)));
    }
    return timers;
  }

  @ParameterizedTest(name = "start {0}, resolution {1}")
  @CsvSource({
    "9223372036853727231, 8", // Long.MAX_VALUE - 2^20
    "-1, 1000",
    "0, 1",
    "9223372036854775807, 8",
    "-9223372036854775808, 64",
  })
  void aHandlerThatCancelsAndReArmsTimersOfTheBatchDoesNotEndTheAdvanceShortOfItsLimit(
      long start, long resolution) {
    LawnTimerQueue<String> lawn = lawn(start, resolution);
    long deadline = start + 5 * resolution;
    List<TimerHandle<String>> timers = batch(lawn, 12, deadline);
    List<String> fired = new ArrayList<>();

    // Each timer handed out cancels the next one of the batch and re-arms the one after it for
    // later, so that the batch taken for the limit runs out after two timers.
    int count = lawn.advance(deadline, timer -> {
      fired.add(timer.payload());
      int next = Integer.parseInt(timer.payload()) + 1;
      if (next + 1 < timers.size()) {
        lawn.cancel(timers.get(next));
        lawn.reschedule(timers.get(next + 1), lawn.now() + 3 * resolution);
      }
    }, 4);
    LawnInvariants.check(lawn);

    assertThat(fired).containsExactly("0", "3", "6", "9");
    assertThat(count).isEqualTo(4);
    assertThat(lawn.size()).isEqualTo(4);
    assertThat(lawn.advance(deadline, timer -> fired.add("again " + timer.payload()))).isZero();
  }

  @ParameterizedTest(name = "start {0}, resolution {1}")
  @CsvSource({
    "9223372036853727231, 8",
    "-1, 1000",
    "0, 1",
  })
  void aHandlerThatCancelsTheWholeRestOfTheBatchLeavesNothingDueBehindAShortCount(
      long start, long resolution) {
    LawnTimerQueue<String> lawn = lawn(start, resolution);
    long deadline = start + 7 * resolution;
    List<TimerHandle<String>> timers = batch(lawn, 10, deadline);
    lawn.schedule(deadline + resolution, "later");
    List<String> fired = new ArrayList<>();

    int count = lawn.advance(deadline, timer -> {
      fired.add(timer.payload());
      if (timer.payload().equals("0")) {
        for (int i = 1; i < 8; i++) {
          lawn.cancel(timers.get(i));
        }
      }
    }, 4);
    LawnInvariants.check(lawn);

    assertThat(fired).containsExactly("0", "8", "9");
    assertThat(count).isEqualTo(3);
    assertThat(lawn.nextExpiryDelay()).isEqualTo(resolution);
  }

  @ParameterizedTest(name = "start {0}, resolution {1}")
  @CsvSource({
    "9223372036853727231, 8",
    "-1, 1000",
    "0, 1",
  })
  void timersTheHandlerArmsAlreadyDueWaitForTheNextAdvanceAndDoNotCountAsLeftBehind(
      long start, long resolution) {
    LawnTimerQueue<String> lawn = lawn(start, resolution);
    long deadline = start + 3 * resolution;
    List<TimerHandle<String>> timers = batch(lawn, 6, deadline);
    List<String> fired = new ArrayList<>();

    // Each timer handed out re-arms the next one of the batch in the past: it is due at once, but
    // armed by the handler, so it must wait.
    int count = lawn.advance(deadline, timer -> {
      fired.add(timer.payload());
      int next = Integer.parseInt(timer.payload()) + 1;
      if (next < timers.size()) {
        lawn.reschedule(timers.get(next), lawn.now() - 1);
      }
      lawn.schedule(lawn.now(), "armed by " + timer.payload());
    }, 4);
    LawnInvariants.check(lawn);

    assertThat(fired).containsExactly("0", "2", "4");
    assertThat(count).isEqualTo(3);
    assertThat(lawn.nextExpiryDelay()).isZero();
    List<String> next = new ArrayList<>();
    assertThat(lawn.advance(deadline, timer -> next.add(timer.payload()))).isEqualTo(6);
    assertThat(next)
        .containsExactly("1", "armed by 0", "3", "armed by 2", "5", "armed by 4");
    LawnInvariants.check(lawn);
  }

  @ParameterizedTest(name = "start {0}, resolution {1}")
  @CsvSource({
    "-1, 1000",
    "0, 1",
  })
  void aTimerThatReArmsItselfDueFiresOnceAnAdvanceEvenAfterItsBatchRanOut(
      long start, long resolution) {
    LawnTimerQueue<String> lawn = lawn(start, resolution);
    lawn.schedule(start, "periodic");
    TimerHandle<String> cancelled = lawn.schedule(start, "cancelled");
    int[] handed = {0};

    // The first one cancels the other of its batch: the advance looks for more, and must not find
    // the timer it has just re-armed.
    int count = lawn.advance(start, timer -> {
      if (++handed[0] > 1) {
        throw new AssertionError("handed out " + timer + " again in the same advance");
      }
      lawn.cancel(cancelled);
      lawn.reschedule(timer, lawn.now());
    });
    LawnInvariants.check(lawn);

    assertThat(count).isEqualTo(1);
    assertThat(lawn.size()).isEqualTo(1);
    assertThat(lawn.nextExpiryDelay()).isZero();
  }
}
