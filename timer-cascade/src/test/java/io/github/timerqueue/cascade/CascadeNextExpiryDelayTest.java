package io.github.timerqueue.cascade;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerHandle;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@code nextExpiryDelay} is exact to the resolution, though deleting a timer leaves the low-water
 * marks it is found through as they were; and timers fire in tick order.
 */
class CascadeNextExpiryDelayTest {
  private final List<String> fired = new ArrayList<>();

  @Test
  void isTheDistanceToTheEarliestTimerEvenAfterTheEarliestIsCancelled() {
    CascadeTimerQueue<String> queue = new CascadeTimerQueue<>(TimerConfig.defaults(), 8);
    TimerHandle<String> keeper = queue.schedule(1L << 40, "keeper");
    queue.advance(1, timer -> {});
    TimerHandle<String> five = queue.schedule(5, "5");
    TimerHandle<String> threeHundred = queue.schedule(300, "300");
    TimerHandle<String> threeHundredTen = queue.schedule(310, "310");
    TimerHandle<String> seventyThousand = queue.schedule(70_000, "70000");

    assertThat(queue.nextExpiryDelay()).isEqualTo(4);
    queue.cancel(five);
    assertThat(queue.nextExpiryDelay()).isEqualTo(299);
    queue.cancel(threeHundred);
    assertThat(queue.nextExpiryDelay()).as("310 shares 300's bucket").isEqualTo(309);
    queue.cancel(threeHundredTen);
    assertThat(queue.nextExpiryDelay()).isEqualTo(69_999);
    queue.reschedule(threeHundred, 400);
    assertThat(queue.nextExpiryDelay()).isEqualTo(399);
    queue.cancel(threeHundred);
    queue.cancel(seventyThousand);
    assertThat(queue.nextExpiryDelay()).isEqualTo((1L << 40) - 1);
    queue.cancel(keeper);
    assertThat(queue.nextExpiryDelay()).isEqualTo(Long.MAX_VALUE);
    CascadeInvariants.check(queue);
  }

  @Test
  void isExactToTheResolutionAndZeroForADeadlineDueMidTick() {
    CascadeTimerQueue<String> queue = new CascadeTimerQueue<>(
        TimerConfig.builder().resolution(1000).build(), 8);
    queue.advance(1500, timer -> {});
    queue.schedule(1501, "next tick");
    assertThat(queue.nextExpiryDelay()).as("1501 rounds up to 2000").isEqualTo(500);

    queue.schedule(1500, "now");
    assertThat(queue.nextExpiryDelay()).isZero();
    assertThat(queue.advance(1500, timer -> fired.add(timer.payload()))).isEqualTo(1);
    assertThat(fired).containsExactly("now");
    assertThat(queue.nextExpiryDelay()).isEqualTo(500);
    assertThat(queue.advance(1999, timer -> fired.add(timer.payload()))).isZero();
    assertThat(queue.nextExpiryDelay()).isEqualTo(1);
    assertThat(queue.advance(2000, timer -> fired.add(timer.payload()))).isEqualTo(1);
    assertThat(fired).containsExactly("now", "next tick");
  }

  @Test
  void isCappedBelowMaxValueWhenTheRoundedDeadlineIsFurtherAway() {
    CascadeTimerQueue<String> queue = new CascadeTimerQueue<>(
        TimerConfig.builder().resolution(1L << 62).build(), 8);
    // Long.MAX_VALUE rounds up to tick 2, which starts 2^63 units after the start.
    queue.schedule(Long.MAX_VALUE, "far");
    assertThat(queue.nextExpiryDelay()).isEqualTo(Long.MAX_VALUE - 1);
  }

  @Test
  void timersFiringInOneAdvanceComeInTickOrderDueOnesFirst() {
    long resolution = 10;
    CascadeTimerQueue<String> queue = new CascadeTimerQueue<>(
        TimerConfig.builder().resolution(resolution).build(), 3);
    queue.advance(12_345, timer -> {});
    SplittableRandom random = new SplittableRandom(42);
    for (int i = 0; i < 2000; i++) {
      long deadline = queue.now() + random.nextLong(-50, 100_000);
      queue.schedule(deadline, Long.toString(deadline));
    }
    List<Long> firedTicks = new ArrayList<>();
    long now = queue.now();

    assertThat(queue.advance(now + 200_000, timer -> {
      long distance = timer.deadline() - now;
      firedTicks.add(distance <= 0 ? 0 : (now + distance + resolution - 1) / resolution);
    })).isEqualTo(2000);

    assertThat(firedTicks).isSortedAccordingTo(Comparator.naturalOrder());
  }
}
