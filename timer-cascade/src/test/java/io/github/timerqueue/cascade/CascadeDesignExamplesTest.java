package io.github.timerqueue.cascade;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerHandle;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The worked examples of the design text (ccan-timer-design.txt), in a power-of-two base.
 *
 * <p>The text counts in decimal: offset 500,000,001, timers at 500,000,006 and 500,000,123, and
 * cascades at 500,000,010, ...020, ...100 and ...1000. Here the same numbers are written digit for
 * digit in base 2<sup>levelBits</sup>: with {@code levelBits} 4 they are the hexadecimal literals
 * 0x5000001, 0x5000006, 0x5000123 and so on, and with the default 8 every decimal digit becomes a
 * byte. The digits, and so the levels and buckets, are exactly those of the text. The clock starts
 * at 0 with resolution 1, so ticks are times.
 */
class CascadeDesignExamplesTest {

  private int bits;
  private CascadeTimerQueue<String> queue;
  private final List<String> fired = new ArrayList<>();

  /** The number whose base-2^bits digits, most significant first, are {@code digits}. */
  private long at(int... digits) {
    long value = 0;
    for (int digit : digits) {
      value = (value << bits) | digit;
    }
    return value;
  }

  /** The largest digit, 9 in the text's decimal. */
  private int nine() {
    return (1 << bits) - 1;
  }

  /** 500,000,000 plus the given last three digits, in the test's base. */
  private long offset(int hundreds, int tens, int units) {
    return at(5, 0, 0, 0, hundreds, tens, units);
  }

  private void start(int levelBits) {
    bits = levelBits;
    queue = new CascadeTimerQueue<>(TimerConfig.defaults(), levelBits);
  }

  private void advanceTo(long time) {
    queue.advance(time, timer -> fired.add(timer.payload()));
    CascadeInvariants.check(queue);
  }

  /** Advances one tick at a time, recording "payload@tick" for each timer fired. */
  private void stepTo(long time) {
    while (queue.now() < time) {
      long tick = queue.now() + 1;
      queue.advance(tick, timer -> fired.add(timer.payload() + "@" + Long.toHexString(tick)));
      CascadeInvariants.check(queue);
    }
  }

  private static CascadeTimer<String> timer(TimerHandle<String> handle) {
    return (CascadeTimer<String>) handle;
  }

  /** Asserts the level and bucket a timer is filed in. */
  private void assertFiled(TimerHandle<String> handle, int level, int bucket) {
    CascadeTimer<String> timer = timer(handle);
    assertThat(queue.where(timer)).as("level of %s", timer.payload()).isEqualTo(level);
    Bucket filed = queue.levels[level].buckets[bucket];
    assertThat(filed.holds(queue.slotOf(timer.position), timer)).as("%s is in level %d bucket %d", timer.payload(), level, bucket).isTrue();
  }

  /**
   * Creates the levels the examples use: a timer 2000 away (base-2^bits digits) from 500,000,000
   * waits in the far list until the base first moves, which creates the four levels it needs.
   */
  private TimerHandle<String> startAt500000000WithFourLevels(int levelBits) {
    start(levelBits);
    TimerHandle<String> keeper = queue.schedule(at(5, 0, 0, 2, 0, 0, 0), "keeper");
    assertThat(queue.levelCount).isZero();
    assertThat(queue.where(timer(keeper))).isEqualTo(CascadeTimer.FAR);
    advanceTo(offset(0, 0, 0));
    assertThat(queue.levelCount).isEqualTo(4);
    assertFiled(keeper, 3, 2);
    return keeper;
  }

  @ParameterizedTest(name = "levelBits {0}")
  @ValueSource(ints = {4, 8})
  void timersAreFiledByTheSizeOfTheirDistanceAndTheDigitOfTheirDeadline(int levelBits) {
    startAt500000000WithFourLevels(levelBits);
    advanceTo(offset(0, 0, 1));

    // "our timer is set to go off in 5 seconds, ie. 500,000,006 ... it's in bucket 6"
    TimerHandle<String> six = queue.schedule(offset(0, 0, 6), "006");
    assertFiled(six, 0, 6);
    // "Adding a timer at 500,000,123? ... it's in the third level. The bucket is 1."
    TimerHandle<String> oneTwoThree = queue.schedule(offset(1, 2, 3), "123");
    assertFiled(oneTwoThree, 2, 1);
    // Digits of the deadline, not of the distance: 500,000,011 is 10 away, level 1, bucket 1.
    assertFiled(queue.schedule(offset(0, 1, 1), "011"), 1, 1);
    // 500,000,100 is 99 (in the test's base) away: level 1, and its tens digit is 0.
    assertFiled(queue.schedule(offset(1, 0, 0), "100"), 1, 0);
  }

  @ParameterizedTest(name = "levelBits {0}")
  @ValueSource(ints = {4, 8})
  void aSecondPassingLooksOnlyAtTheBucketOfTheNewOffset(int levelBits) {
    startAt500000000WithFourLevels(levelBits);
    advanceTo(offset(0, 0, 1));
    TimerHandle<String> six = queue.schedule(offset(0, 0, 6), "006");

    stepTo(offset(0, 0, 5));
    assertThat(fired).isEmpty();
    assertFiled(six, 0, 6);
    stepTo(offset(0, 0, 9));
    assertThat(fired).containsExactly("006@" + Long.toHexString(offset(0, 0, 6)));
    assertThat(queue.size()).isEqualTo(1);
  }

  @ParameterizedTest(name = "levelBits {0}")
  @ValueSource(ints = {4, 8})
  void at500000010Bucket1OfTheSecondLevelIsEmptiedIntoTheFirst(int levelBits) {
    startAt500000000WithFourLevels(levelBits);
    // "a timer at 500,000,010 added when the offset was 500,000,000 would have gone up there"
    TimerHandle<String> ten = queue.schedule(offset(0, 1, 0), "010");
    TimerHandle<String> fifteen = queue.schedule(offset(0, 1, 5), "015");
    TimerHandle<String> nineteen = queue.schedule(offset(0, 1, nine()), "019");
    assertFiled(ten, 1, 1);
    assertFiled(fifteen, 1, 1);
    assertFiled(nineteen, 1, 1);

    stepTo(offset(0, 0, nine()));
    assertFiled(ten, 1, 1);
    assertFiled(fifteen, 1, 1);
    stepTo(offset(0, 1, 0));

    // The bucket held 500,000,010 to ...019, now all less than one level-0 span away.
    assertThat(fired).containsExactly("010@" + Long.toHexString(offset(0, 1, 0)));
    assertThat(ten.isPending()).isFalse();
    assertFiled(fifteen, 0, 5);
    assertFiled(nineteen, 0, nine());
    assertThat(queue.levels[1].buckets[1].isEmpty()).isTrue();
  }

  @ParameterizedTest(name = "levelBits {0}")
  @ValueSource(ints = {4, 8})
  void at500000020Bucket2NotBucket1OfTheSecondLevelIsEmptied(int levelBits) {
    startAt500000000WithFourLevels(levelBits);
    advanceTo(offset(0, 0, 1));
    // The text says "at 500,000,020 we will empty bucket 1 of the second level"; the rule it
    // follows at 500,000,010 empties the bucket of the new offset's digit, which is 2.
    TimerHandle<String> twentyFive = queue.schedule(offset(0, 2, 5), "025");
    TimerHandle<String> thirtyFive = queue.schedule(offset(0, 3, 5), "035");
    assertFiled(twentyFive, 1, 2);
    assertFiled(thirtyFive, 1, 3);

    stepTo(offset(0, 1, nine()));
    assertFiled(twentyFive, 1, 2);
    stepTo(offset(0, 2, 0));
    assertFiled(twentyFive, 0, 5);
    assertFiled(thirtyFive, 1, 3);

    stepTo(offset(0, 2, 5));
    assertThat(fired).containsExactly("025@" + Long.toHexString(offset(0, 2, 5)));
  }

  @ParameterizedTest(name = "levelBits {0}")
  @ValueSource(ints = {4, 8})
  void at500000100TheThirdLevelIsEmptiedThenTheSecond(int levelBits) {
    startAt500000000WithFourLevels(levelBits);
    // Two timers at 500,000,100 that reach it from different levels show the order of the cascade.
    TimerHandle<String> hundredFromThirdLevel = queue.schedule(offset(1, 0, 0), "100 via level 2");
    assertFiled(hundredFromThirdLevel, 2, 1);
    advanceTo(offset(0, 0, 1));
    TimerHandle<String> oneTwoThree = queue.schedule(offset(1, 2, 3), "123");
    TimerHandle<String> oneOhFive = queue.schedule(offset(1, 0, 5), "105");
    TimerHandle<String> twoHundred = queue.schedule(offset(2, 0, 0), "200");
    assertFiled(oneTwoThree, 2, 1);
    assertFiled(oneOhFive, 2, 1);
    assertFiled(twoHundred, 2, 2);
    advanceTo(offset(0, 3, 0));
    // Filed from 500,000,030, 500,000,102 is less than 100 away: second level, bucket 0.
    TimerHandle<String> oneOhTwo = queue.schedule(offset(1, 0, 2), "102");
    assertFiled(oneOhTwo, 1, 0);
    TimerHandle<String> hundredFromSecondLevel = queue.schedule(offset(1, 0, 0), "100 via level 1");
    assertFiled(hundredFromSecondLevel, 1, 0);

    advanceTo(offset(0, nine(), nine()));
    assertFiled(oneTwoThree, 2, 1);
    assertFiled(oneOhFive, 2, 1);
    assertFiled(oneOhTwo, 1, 0);
    advanceTo(offset(1, 0, 0));

    assertThat(fired).as("the third level's bucket is emptied before the second's")
        .containsExactly("100 via level 2", "100 via level 1");
    fired.clear();
    // Bucket 1 of the third level (500,000,100 - ...199) went first; each of its timers went to
    // the level its new distance calls for: 123 to the second level, 105 straight to the first.
    assertFiled(oneTwoThree, 1, 2);
    assertFiled(oneOhFive, 0, 5);
    // Then bucket 0 of the second level (500,000,100 - ...109).
    assertFiled(oneOhTwo, 0, 2);
    assertFiled(twoHundred, 2, 2);
    assertThat(queue.levels[2].buckets[1].isEmpty()).isTrue();
    assertThat(queue.levels[1].buckets[0].isEmpty()).isTrue();

    stepTo(offset(1, 2, 3));
    assertThat(fired).containsExactly(
        "102@" + Long.toHexString(offset(1, 0, 2)),
        "105@" + Long.toHexString(offset(1, 0, 5)),
        "123@" + Long.toHexString(offset(1, 2, 3)));
  }

  @ParameterizedTest(name = "levelBits {0}")
  @ValueSource(ints = {4, 8})
  void at500001000TheFourthLevelIsEmptied(int levelBits) {
    TimerHandle<String> keeper = startAt500000000WithFourLevels(levelBits);
    advanceTo(offset(0, 0, 1));
    TimerHandle<String> twelveThirtyFour = queue.schedule(at(5, 0, 0, 1, 2, 3, 4), "1234");
    assertFiled(twelveThirtyFour, 3, 1);

    advanceTo(at(5, 0, 0, 0, nine(), nine(), nine()));
    assertFiled(twelveThirtyFour, 3, 1);
    advanceTo(at(5, 0, 0, 1, 0, 0, 0));

    assertFiled(twelveThirtyFour, 2, 2);
    assertFiled(keeper, 3, 2);
    assertThat(fired).isEmpty();
  }

  @ParameterizedTest(name = "levelBits {0}")
  @ValueSource(ints = {4, 8})
  void withoutAFourthLevelTheFarListIsSortedThroughAt500001000(int levelBits) {
    start(levelBits);
    // A timer 200 away creates three levels and no more when the base first moves.
    queue.schedule(offset(2, 0, 0), "keeper");
    advanceTo(offset(0, 0, 0));
    assertThat(queue.levelCount).isEqualTo(3);

    // "If there's no third level, we just add it to the 'far' list": here there is no fourth.
    TimerHandle<String> fifteenHundred = queue.schedule(at(5, 0, 0, 1, 5, 0, 0), "1500");
    TimerHandle<String> twentyFiveHundred = queue.schedule(at(5, 0, 0, 2, 5, 0, 0), "2500");
    assertThat(queue.where(timer(fifteenHundred))).isEqualTo(CascadeTimer.FAR);
    assertThat(queue.where(timer(twentyFiveHundred))).isEqualTo(CascadeTimer.FAR);

    // The far list is left alone while the base stays in the last level's group.
    advanceTo(at(5, 0, 0, 0, nine(), nine(), nine()));
    assertThat(queue.where(timer(fifteenHundred))).isEqualTo(CascadeTimer.FAR);
    assertThat(queue.levelCount).isEqualTo(3);

    advanceTo(at(5, 0, 0, 1, 0, 0, 0));
    // "sort through the 'far' list and empty any which are less than 500,002,000": 1500 comes in.
    assertFiled(fifteenHundred, 2, 5);
    // And rather than keep checking it, the level that 2500 needs is added.
    assertThat(queue.levelCount).isEqualTo(4);
    assertFiled(twentyFiveHundred, 3, 2);
    assertThat(queue.far.isEmpty()).isTrue();
  }
}
