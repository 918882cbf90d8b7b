package io.github.timerqueue.cascade;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerHandle;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@code scheduleWithin} chooses the tick in the range with the most trailing zero digits (base
 * 2^levelBits, here 16, so hexadecimal literals show the digits), the earliest of equals: such a
 * timer is due as soon as the base enters its group at that level, so it waits in the highest level
 * it can and is not cascaded through the levels below.
 */
class CascadeScheduleWithinTest {
  private static final long OFFSET = 0x5000_0001L;

  private final List<String> fired = new ArrayList<>();

  /** A queue at OFFSET with all its levels made (by a timer far away), 16 buckets per level. */
  private CascadeTimerQueue<String> queueAtOffset(long resolution) {
    CascadeTimerQueue<String> queue = new CascadeTimerQueue<>(
        TimerConfig.builder().resolution(resolution).build(), 4);
    queue.schedule(Long.MAX_VALUE, "keeper");
    queue.advance(OFFSET, timer -> {});
    return queue;
  }

  @Test
  void choosesTheRoundestTickSoTheTimerStaysInItsLevelUntilItIsDue() {
    CascadeTimerQueue<String> queue = queueAtOffset(1);
    TimerHandle<String> within = queue.scheduleWithin(0x5000_01F3L, 0x5000_02A7L, "within");
    TimerHandle<String> plain = queue.schedule(0x5000_01F3L, "plain");
    assertThat(within.deadline()).isEqualTo(0x5000_0200L);
    Set<Integer> withinLevels = new LinkedHashSet<>();
    Set<Integer> plainLevels = new LinkedHashSet<>();

    while (queue.now() < 0x5000_0200L) {
      withinLevels.add(queue.where((CascadeTimer<String>) within));
      if (plain.isPending()) {
        plainLevels.add(queue.where((CascadeTimer<String>) plain));
      }
      queue.advance(queue.now() + 1, timer -> fired.add(timer.payload() + "@"
          + Long.toHexString(queue.now())));
      CascadeInvariants.check(queue);
    }

    assertThat(withinLevels).as("levels the chosen deadline waited in").containsExactly(2);
    assertThat(plainLevels).as("levels 0x500001F3 went through").containsExactly(2, 1, 0);
    assertThat(fired).containsExactly("plain@500001f3", "within@50000200");
  }

  @Test
  void prefersAMultipleOfAHigherPowerWhenTheRangeHoldsOne() {
    CascadeTimerQueue<String> queue = queueAtOffset(1);
    assertThat(queue.scheduleWithin(0x5000_0FFEL, 0x5000_1001L, "t").deadline())
        .isEqualTo(0x5000_1000L);
    assertThat(queue.scheduleWithin(0x5000_0002L, 0x7000_0000L, "t").deadline())
        .isEqualTo(0x6000_0000L);
  }

  @Test
  void countsZeroDigitsNotZeroBitsAndTakesTheEarliestOfEquals() {
    CascadeTimerQueue<String> queue = queueAtOffset(1);
    // 0x...24 and 0x...28 end in more zero bits, but no more zero hexadecimal digits.
    assertThat(queue.scheduleWithin(0x5000_0021L, 0x5000_002FL, "t").deadline())
        .isEqualTo(0x5000_0021L);
    assertThat(queue.scheduleWithin(0x5000_0110L, 0x5000_01F0L, "t").deadline())
        .isEqualTo(0x5000_0110L);
    assertThat(queue.scheduleWithin(0x5000_0005L, 0x5000_0005L, "t").deadline())
        .isEqualTo(0x5000_0005L);
  }

  @Test
  void aRangeBeginningInThePastIsGivenATickAfterTheClock() {
    CascadeTimerQueue<String> queue = queueAtOffset(1);
    TimerHandle<String> timer = queue.scheduleWithin(OFFSET - 100, OFFSET + 0x4F, "t");
    assertThat(timer.deadline()).isEqualTo(0x5000_0010L);
    assertThat(queue.nextExpiryDelay()).isEqualTo(0xF);
  }

  @Test
  void aRangeAlreadyDueIsDueAtTheNextAdvanceWithItsLatestDeadline() {
    CascadeTimerQueue<String> queue = queueAtOffset(1);
    TimerHandle<String> timer = queue.scheduleWithin(OFFSET - 10, OFFSET, "due");
    assertThat(timer.deadline()).isEqualTo(OFFSET);
    assertThat(queue.nextExpiryDelay()).isZero();
    assertThat(queue.advance(OFFSET, timer1 -> fired.add(timer1.payload()))).isEqualTo(1);
    assertThat(fired).containsExactly("due");
  }

  @Test
  void aLatestMoreThanLongMaxValueAheadEndsTheRangeThere() {
    CascadeTimerQueue<String> queue = queueAtOffset(1);
    long earliest = OFFSET + 10;
    // Ticks 0x5000000B to 0x8000000050000000: the roundest is 2^60, fifteen zero digits.
    TimerHandle<String> timer = queue.scheduleWithin(earliest, earliest + Long.MAX_VALUE, "t");
    assertThat(timer.deadline()).isEqualTo(1L << 60);
  }

  @Test
  void countsInTicksOfTheResolution() {
    CascadeTimerQueue<String> queue = new CascadeTimerQueue<>(
        TimerConfig.builder().resolution(10).build(), 4);
    // Ticks 3 to 100 start inside the range; the earliest multiple of 16 is tick 16, at 160.
    assertThat(queue.scheduleWithin(25, 1000, "wide").deadline()).isEqualTo(160);
    // No tick starts inside 91..95: tick 10 follows, as for latest itself, and latest is reported.
    TimerHandle<String> narrow = queue.scheduleWithin(91, 95, "narrow");
    assertThat(narrow.deadline()).isEqualTo(95);
    assertThat(queue.advance(99, timer -> fired.add(timer.payload()))).isZero();
    assertThat(queue.advance(100, timer -> fired.add(timer.payload()))).isEqualTo(1);
    assertThat(fired).containsExactly("narrow");
  }
}
