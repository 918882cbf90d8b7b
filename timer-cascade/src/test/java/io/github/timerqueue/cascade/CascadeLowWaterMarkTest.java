package io.github.timerqueue.cascade;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.timerqueue.TimerConfig;
import org.junit.jupiter.api.Test;

/**
 * A low-water mark, a level's or the far bucket's, only goes down as timers are filed, comparing
 * ticks unsigned, and its witness is the timer that set it.
 */
class CascadeLowWaterMarkTest {

  @Test
  void aMarkGoesDownUnsignedAndKeepsTheTimerThatSetIt() {
    CascadeTimerQueue<Integer> queue = new CascadeTimerQueue<>(TimerConfig.defaults(), 8);
    CascadeTimer<Integer> first = new CascadeTimer<>(queue, 1);
    CascadeTimer<Integer> lower = new CascadeTimer<>(queue, 2);
    CascadeTimer<Integer> same = new CascadeTimer<>(queue, 3);
    CascadeTimer<Integer> huge = new CascadeTimer<>(queue, 4);
    LowWaterMark mark = new LowWaterMark();
    assertThat(mark.lowWater).isEqualTo(CascadeTimerQueue.NO_TICK);

    mark.lower(500, first);
    assertThat(mark.lowWater).isEqualTo(500);
    assertThat(mark.witness).isSameAs(first);

    mark.lower(-1L, huge);
    assertThat(mark.lowWater).as("the largest unsigned tick is not below 500").isEqualTo(500);
    assertThat(mark.witness).isSameAs(first);

    mark.lower(300, lower);
    assertThat(mark.lowWater).isEqualTo(300);
    assertThat(mark.witness).isSameAs(lower);

    mark.lower(300, same);
    assertThat(mark.witness).as("a timer at the mark witnesses it as well").isSameAs(same);

    mark.reset();
    assertThat(mark.lowWater).isEqualTo(CascadeTimerQueue.NO_TICK);
    assertThat(mark.witness).isNull();
    mark.lower(-1L, huge);
    assertThat(mark.lowWater).as("an empty mark takes any tick").isEqualTo(-1L);
    assertThat(mark.witness).isSameAs(huge);
  }

  /** Timers filed in the far bucket lower its mark, as those filed in a level lower the level's. */
  @Test
  void filingLowersTheMarkOfTheFarBucketAndOfTheLevel() {
    CascadeTimerQueue<Integer> queue = new CascadeTimerQueue<>(TimerConfig.defaults(), 8);
    long resolution = TimerConfig.defaults().resolution();
    queue.schedule(1000 * resolution, 1);
    queue.schedule(700 * resolution, 2);
    assertThat(queue.levelCount).as("no level before the far bucket is swept").isZero();
    assertThat(queue.farMark.lowWater).isEqualTo(700);
    assertThat(queue.farMark.witness.payload()).isEqualTo(2);

    queue.advance(resolution, timer -> {});
    assertThat(queue.farMark.lowWater).isEqualTo(CascadeTimerQueue.NO_TICK);
    assertThat(queue.levels[1].lowWater).isEqualTo(700);
    queue.schedule(600 * resolution, 3);
    assertThat(queue.levels[1].lowWater).isEqualTo(600);
    assertThat(queue.levels[1].witness.payload()).isEqualTo(3);
    CascadeInvariants.check(queue);
  }
}
