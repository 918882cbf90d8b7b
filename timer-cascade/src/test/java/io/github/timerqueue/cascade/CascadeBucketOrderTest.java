package io.github.timerqueue.cascade;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A bucket of a level records, as timers join it, whether they came in tick order, so that the
 * clock stepping into its group can keep it as the sorted bucket without reading its timers: the
 * record restarts when the bucket empties and is lost for good, until then, by a timer before the
 * one added last or by a compaction.
 */
class CascadeBucketOrderTest {

  private static Bucket bucket(CascadeTimerQueue<Integer> queue) {
    return new Bucket(7, queue.levels.length, queue.pool);
  }

  private static void add(Bucket bucket, CascadeTimerQueue<Integer> queue, long tick) {
    bucket.add(new CascadeTimer<>(queue, (int) tick));
    bucket.addedTick(tick);
  }

  @Test
  void ticksAddedInOrderTiesIncludedKeepTheOrderAndOneBeforeTheLastLosesItUntilEmpty() {
    CascadeTimerQueue<Integer> queue = new CascadeTimerQueue<>(TimerConfig.defaults(), 8);
    Bucket bucket = bucket(queue);
    add(bucket, queue, 600);
    add(bucket, queue, 600);
    add(bucket, queue, 601);
    assertThat(bucket.inTickOrder()).isTrue();

    add(bucket, queue, 599);
    assertThat(bucket.inTickOrder()).isFalse();
    add(bucket, queue, 700);
    assertThat(bucket.inTickOrder()).as("lost until the bucket empties").isFalse();

    for (int slot = 0; slot < 5; slot++) {
      bucket.remove(slot);
    }
    add(bucket, queue, 10);
    assertThat(bucket.inTickOrder()).as("the first timer after emptying restarts it").isTrue();
  }

  @ParameterizedTest(name = "around 2^{0}")
  @ValueSource(ints = {31, 32, 40})
  void ticksCompareAcrossAWrapOfTheirLowBits(int bit) {
    CascadeTimerQueue<Integer> queue = new CascadeTimerQueue<>(TimerConfig.defaults(), 8);
    Bucket bucket = bucket(queue);
    add(bucket, queue, (1L << bit) - 2);
    add(bucket, queue, (1L << bit) + 5);
    assertThat(bucket.inTickOrder()).isTrue();
    add(bucket, queue, (1L << bit) + 5);
    assertThat(bucket.inTickOrder()).as("a tie").isTrue();
    add(bucket, queue, (1L << bit) - 1);
    assertThat(bucket.inTickOrder()).isFalse();
    add(bucket, queue, (1L << bit) + 6);
    assertThat(bucket.inTickOrder()).as("lost until the bucket empties").isFalse();
  }

  @Test
  void aRunRecordsItsFirstAndLastTicksAndItsOwnOrderAndRestartsAnEmptyBucket() {
    CascadeTimerQueue<Integer> queue = new CascadeTimerQueue<>(TimerConfig.defaults(), 8);
    CascadeTimer<?>[] source = new CascadeTimer<?>[4];
    for (int i = 0; i < source.length; i++) {
      source[i] = new CascadeTimer<>(queue, i);
    }

    Bucket bucket = bucket(queue);
    bucket.tickOrder = Bucket.OUT_OF_ORDER;
    bucket.addRun(source, 0, 4);
    bucket.addedRun(4, 5, 12, true);
    assertThat(bucket.inTickOrder()).as("an empty bucket forgets what it held").isTrue();
    bucket.addRun(source, 0, 2);
    bucket.addedRun(2, 12, 14, true);
    assertThat(bucket.inTickOrder()).isTrue();
    bucket.addRun(source, 0, 2);
    bucket.addedRun(2, 11, 20, true);
    assertThat(bucket.inTickOrder()).as("a run starting before the last tick").isFalse();

    Bucket unordered = bucket(queue);
    unordered.addRun(source, 0, 4);
    unordered.addedRun(4, 5, 12, false);
    assertThat(unordered.inTickOrder()).as("a run out of order within").isFalse();

    Bucket backwards = bucket(queue);
    backwards.addRun(source, 0, 2);
    backwards.addedRun(2, 12, 5, true);
    assertThat(backwards.inTickOrder()).as("a run ending before it starts").isFalse();
  }

  /**
   * Cancels that leave a bucket mostly holes compact it, moving its last timers into the first
   * holes: its timers are then out of tick order, and the clock stepping into its group sweeps it
   * into level 0, from where they still fire in tick order.
   */
  @Test
  void aCompactedBucketIsSweptAndItsTimersFireInTickOrder() {
    TimerConfig config = TimerConfig.builder().startTime(0).resolution(1).build();
    CascadeTimerQueue<Integer> queue = new CascadeTimerQueue<>(config, 8);
    queue.schedule(1 << 20, -1);
    queue.advance(1, timer -> {});
    List<TimerHandle<Integer>> timers = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      timers.add(queue.schedule(512 + i / 4, i));
    }
    Bucket bucket = queue.levels[1].buckets[2];
    assertThat(bucket.inTickOrder()).isTrue();
    for (int i = 0; i < 800; i++) {
      queue.cancel(timers.get(i));
    }
    assertThat(bucket.end).as("compacted").isEqualTo(200);
    assertThat(bucket.inTickOrder()).isFalse();
    for (long now = 2; now <= 511; now++) {
      queue.advance(now, timer -> {});
    }

    List<Integer> fired = new ArrayList<>();
    for (long now = 512; now < 800; now++) {
      long at = now;
      queue.advance(now, timer -> {
        assertThat(512 + timer.payload() / 4).as("tick of %s", timer.payload()).isEqualTo(at);
        fired.add(timer.payload());
      });
      if (now == 512) {
        assertThat(queue.sorted).as("swept, not kept").isNull();
        assertThat(queue.levels[0].mayBeOccupied(201)).isTrue();
      }
      CascadeInvariants.check(queue);
    }
    assertThat(fired).containsExactlyInAnyOrderElementsOf(
        IntStream.range(800, 1000).boxed().toList());
  }

  /**
   * With 16 bits per level, level 1's buckets hold ticks up to 2<sup>32</sup> apart, more than the
   * low 31 bits of a tick order: a bucket of that level is swept even in tick order.
   */
  @Test
  void aLevelWhoseTicksSpanMoreThan30BitsIsSweptEvenInTickOrder() {
    TimerConfig config = TimerConfig.builder().startTime(0).resolution(1).build();
    CascadeTimerQueue<Integer> queue = new CascadeTimerQueue<>(config, 16);
    long group = 1L << 16;
    queue.schedule(1L << 33, -1);
    queue.advance(1, timer -> {});
    for (int i = 0; i < 128; i++) {
      queue.schedule(2 * group + i / 2, i);
    }
    assertThat(queue.levels[1].buckets[2].inTickOrder()).isTrue();
    queue.advance(2 * group - 1, timer -> {});

    List<Integer> fired = new ArrayList<>();
    queue.advance(2 * group, timer -> fired.add(timer.payload()));

    assertThat(queue.sorted).as("swept, not kept").isNull();
    assertThat(fired).containsExactly(0, 1);
    CascadeInvariants.check(queue);
  }
}
