package io.github.timerqueue.cascade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** How timers are filed, how levels come to exist, and what deleting and jumping do. */
class CascadeStructureTest {

  private static int levelOf(long distance, int bits) {
    return (63 - Long.numberOfLeadingZeros(distance)) / bits;
  }

  private static CascadeTimer<String> timer(TimerHandle<String> handle) {
    return (CascadeTimer<String>) handle;
  }

  /**
   * From several bases, with the levels all there (a timer Long.MAX_VALUE away made them) or none
   * there yet, timers at every distance 2^k - 1, 2^k and 2^k + 1 go to the level the size of their
   * distance names, keep the invariants, and then fire exactly on time, in order, through the
   * earliest-deadline loop.
   */
  @ParameterizedTest(name = "levelBits {0}, levels made first: {1}")
  @CsvSource({"1, true", "3, true", "8, true", "3, false", "8, false"})
  void addingAtEveryDistanceAroundEachPowerOfTwoKeepsTheInvariants(int bits, boolean primed) {
    long buckets = 1L << bits;
    long[] bases = {
      1, buckets - 1, buckets, buckets + 1, buckets * buckets - 1, buckets * buckets,
      0x1234_5678_9ABCL, (1L << 61) + 12_345
    };
    for (long base : bases) {
      CascadeTimerQueue<String> queue = new CascadeTimerQueue<>(TimerConfig.defaults(), bits);
      queue.advance(base - 1, timer -> {});
      List<TimerHandle<String>> timers = new ArrayList<>();
      if (primed) {
        timers.add(queue.schedule(base - 1 + Long.MAX_VALUE, "primer"));
      }
      queue.advance(base, timer -> {});
      assertThat(queue.base).isEqualTo(base);
      int levels = primed ? levelOf(Long.MAX_VALUE - 1, bits) + 1 : 0;
      assertThat(queue.levelCount).as("levels made by the primer").isEqualTo(levels);

      for (int k = 0; k < 64; k++) {
        for (long delta = -1; delta <= 1; delta++) {
          long distance = (1L << k) + delta;
          if (k == 63 && delta != -1 || distance < 1) {
            continue;
          }
          TimerHandle<String> handle = queue.schedule(base + distance, "2^" + k + "+" + delta);
          timers.add(handle);
          int level = levelOf(distance, bits);
          int expected = level < queue.levelCount ? level : CascadeTimer.FAR;
          assertThat(queue.where(timer(handle))).as("%s from base %d", handle.payload(), base)
              .isEqualTo(expected);
          CascadeInvariants.check(queue);
        }
      }

      drainThroughTheEarliestDeadlineLoop(queue, timers);
    }
  }

  private static void drainThroughTheEarliestDeadlineLoop(
      CascadeTimerQueue<String> queue, List<TimerHandle<String>> timers) {
    List<TimerHandle<String>> byDeadline = new ArrayList<>(timers);
    long now = queue.now();
    byDeadline.sort(Comparator.comparingLong(timer -> timer.deadline() - now));
    List<TimerHandle<String>> fired = new ArrayList<>();
    int next = 0;
    while (true) {
      long delay = queue.nextExpiryDelay();
      if (next == byDeadline.size()) {
        assertThat(delay).isEqualTo(Long.MAX_VALUE);
        break;
      }
      assertThat(queue.now() + delay).as("exact delay to %s", byDeadline.get(next).payload())
          .isEqualTo(byDeadline.get(next).deadline());
      int count = queue.advance(queue.now() + delay, timer -> {
        assertThat(timer.deadline()).isEqualTo(queue.now());
        fired.add(timer);
      });
      assertThat(count).isPositive();
      next += count;
      CascadeInvariants.check(queue);
    }
    // Equal deadlines (2^0 + 1 and 2^1) fire together, in no specified order.
    assertThat(fired).containsExactlyInAnyOrderElementsOf(byDeadline)
        .isSortedAccordingTo(Comparator.comparingLong(timer -> timer.deadline() - now));
    assertThat(queue.size()).isZero();
  }

  /** The walk-through of the class description, four buckets per level, base 5 = 11 in base 4. */
  @Test
  void theCascadeOfTheClassDescription() {
    CascadeTimerQueue<String> queue = new CascadeTimerQueue<>(TimerConfig.defaults(), 2);
    queue.schedule(40, "makes three levels");
    queue.advance(5, timer -> {});
    assertThat(queue.levelCount).isEqualTo(3);
    CascadeTimer<String> seven = timer(queue.schedule(7, "7"));
    CascadeTimer<String> thirteen = timer(queue.schedule(13, "13"));
    CascadeTimer<String> twentyTwo = timer(queue.schedule(22, "22"));
    assertThat(queue.where(seven)).isZero();
    assertThat(queue.levels[0].buckets[3].slots).startsWith(seven);
    assertThat(queue.where(thirteen)).isEqualTo(1);
    assertThat(queue.levels[1].buckets[3].slots).startsWith(thirteen);
    assertThat(queue.where(twentyTwo)).isEqualTo(2);
    assertThat(queue.levels[2].buckets[1].slots).startsWith(twentyTwo);
    List<String> fired = new ArrayList<>();

    queue.advance(7, timer -> fired.add(timer.payload()));
    assertThat(fired).containsExactly("7");
    queue.advance(11, timer -> fired.add(timer.payload()));
    assertThat(queue.where(thirteen)).isEqualTo(1);
    queue.advance(12, timer -> fired.add(timer.payload()));
    assertThat(queue.where(thirteen)).isZero();
    assertThat(queue.levels[0].buckets[1].slots).startsWith(thirteen);
    queue.advance(13, timer -> fired.add(timer.payload()));
    assertThat(fired).containsExactly("7", "13");

    queue.advance(15, timer -> fired.add(timer.payload()));
    assertThat(queue.where(twentyTwo)).isEqualTo(2);
    queue.advance(16, timer -> fired.add(timer.payload()));
    assertThat(queue.where(twentyTwo)).isEqualTo(1);
    assertThat(queue.levels[1].buckets[1].slots).startsWith(twentyTwo);
    queue.advance(19, timer -> fired.add(timer.payload()));
    assertThat(queue.where(twentyTwo)).isEqualTo(1);
    queue.advance(20, timer -> fired.add(timer.payload()));
    assertThat(queue.where(twentyTwo)).isZero();
    assertThat(queue.levels[0].buckets[2].slots).startsWith(twentyTwo);
    queue.advance(21, timer -> fired.add(timer.payload()));
    assertThat(fired).containsExactly("7", "13");
    queue.advance(22, timer -> fired.add(timer.payload()));
    assertThat(fired).containsExactly("7", "13", "22");
    CascadeInvariants.check(queue);
  }

  /**
   * A jump of the base that enters a new level-3 group in mid level-1 group (base 65 = 1001 in base
   * 4) files a timer 15 ticks ahead (at 80 = 1100) in level 1, four groups ahead, in the very
   * bucket of the base's level-1 digit that the same jump empties next: that sweep must file it in
   * level 1 again, not in level 0, where it would fire at 68.
   */
  @Test
  void aLevelOneSweepFilesATimerFourGroupsAheadBackInLevelOne() {
    CascadeTimerQueue<String> queue = new CascadeTimerQueue<>(TimerConfig.defaults(), 2);
    queue.schedule(255, "makes four levels");
    queue.advance(1, timer -> {});
    assertThat(queue.levelCount).isEqualTo(4);
    queue.schedule(65, "65");
    CascadeTimer<String> eighty = timer(queue.schedule(80, "80"));
    assertThat(queue.where(eighty)).isEqualTo(3);
    List<String> fired = new ArrayList<>();

    queue.advance(65, timer -> fired.add(timer.payload()));

    assertThat(fired).containsExactly("65");
    assertThat(queue.where(eighty)).isEqualTo(1);
    assertThat(queue.levels[1].buckets[0].slots).startsWith(eighty);
    CascadeInvariants.check(queue);
    queue.advance(79, timer -> fired.add(timer.payload()));
    assertThat(fired).containsExactly("65");
    queue.advance(80, timer -> fired.add(timer.payload()));
    assertThat(fired).containsExactly("65", "80");
    CascadeInvariants.check(queue);
  }

  @Test
  void levelsAreCreatedOnlyAsFarAsTheDeadlinesInUseRequire() {
    CascadeTimerQueue<String> queue = new CascadeTimerQueue<>(TimerConfig.defaults(), 4);
    assertThat(queue.levelCount).isZero();

    TimerHandle<String> soon = queue.schedule(5, "soon");
    assertThat(queue.where(timer(soon))).isEqualTo(CascadeTimer.FAR);
    queue.advance(1, timer -> {});
    assertThat(queue.levelCount).as("a timer 4 ticks away needs level 0 only").isEqualTo(1);
    assertThat(queue.where(timer(soon))).isZero();

    TimerHandle<String> later = queue.schedule(0x301, "later");
    assertThat(queue.where(timer(later))).as("level 2 is not there yet").isEqualTo(CascadeTimer.FAR);
    queue.advance(0xF, timer -> {});
    assertThat(queue.levelCount).as("the far list waits for the last level's group to change")
        .isEqualTo(1);
    queue.advance(0x10, timer -> {});
    assertThat(queue.levelCount).isEqualTo(3);
    assertThat(queue.where(timer(later))).isEqualTo(2);

    TimerHandle<String> muchLater = queue.schedule(0x10_0010, "much later");
    assertThat(queue.where(timer(muchLater))).isEqualTo(CascadeTimer.FAR);
    queue.advance(0x1000, timer -> {});
    assertThat(queue.levelCount).as("0xFF010 from the new base needs level 4").isEqualTo(5);
    assertThat(queue.where(timer(muchLater))).isEqualTo(4);
    CascadeInvariants.check(queue);

    queue.cancel(muchLater);
    queue.advance(0x20_0000, timer -> {});
    assertThat(queue.levelCount).as("levels are never taken away").isEqualTo(5);
    CascadeInvariants.check(queue);
  }

  @Test
  void deletingClearsOneSlotWithNoOtherBookkeeping() {
    CascadeTimerQueue<String> queue = new CascadeTimerQueue<>(TimerConfig.defaults(), 8);
    queue.schedule(1 << 20, "keeps the levels");
    queue.advance(1, timer -> {});
    TimerHandle<String> first = queue.schedule(300, "first");
    TimerHandle<String> second = queue.schedule(310, "second");
    Level levelOne = queue.levels[1];
    assertThat(queue.where(timer(first))).isEqualTo(1);
    assertThat(levelOne.lowWater).isEqualTo(300);
    assertThat(levelOne.witness).isSameAs(first);

    assertThat(queue.cancel(first)).isTrue();
    CascadeInvariants.checkNotPending(queue, timer(first));
    assertThat(levelOne.lowWater).as("the low-water mark is left as it was").isEqualTo(300);
    assertThat(levelOne.witness).isSameAs(first);
    assertThat(queue.cancel(second)).isTrue();
    assertThat(levelOne.buckets[1].isEmpty()).isTrue();
    assertThat(levelOne.mayBeOccupied(1)).as("the bucket's bit is left set").isTrue();
    CascadeInvariants.check(queue);

    // The next search for the earliest timer finds the marks stale and puts them right.
    assertThat(queue.nextExpiryDelay()).isEqualTo((1 << 20) - 1);
    assertThat(levelOne.lowWater).isEqualTo(CascadeTimerQueue.NO_TICK);
    assertThat(levelOne.mayBeOccupied(1)).isFalse();
  }

  @Test
  void jumpingFarAheadVisitsOnlyTheTicksThatHoldTimers() {
    // With two buckets per level there are 64 levels; stepping through 2^62 ticks would not end.
    assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
      CascadeTimerQueue<String> queue = new CascadeTimerQueue<>(TimerConfig.defaults(), 1);
      long[] deadlines = {1L << 20, (1L << 40) + 3, 1L << 61, (1L << 62) + 1};
      for (long deadline : deadlines) {
        queue.schedule(deadline, Long.toString(deadline));
      }
      List<Long> firedAt = new ArrayList<>();

      int count = queue.advance((1L << 62) + 5, timer -> firedAt.add(timer.deadline()));

      assertThat(count).isEqualTo(4);
      assertThat(firedAt).containsExactly(deadlines[0], deadlines[1], deadlines[2], deadlines[3]);
      assertThat(queue.base).isEqualTo((1L << 62) + 5);
      CascadeInvariants.check(queue);
      for (int i = 0; i < 100; i++) {
        queue.schedule(queue.now() + (1L << 49) + i, "again");
        assertThat(queue.advance(queue.now() + (1L << 50), timer -> {})).isEqualTo(1);
      }
      CascadeInvariants.check(queue);
    });
  }
}
