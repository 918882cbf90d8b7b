package io.github.timerqueue.cascade;

import io.github.timerqueue.conformance.TimerQueueConformanceTest;
import java.util.Map;

/**
 * The whole conformance suite with eight buckets per level: the suite's distances then span many
 * levels, so cascades, the far list and the creation of levels run all the time. Three bits do not
 * divide 64, so the last level is only partly used, which the suite's far deadlines reach.
 */
class CascadeNarrowLevelsConformanceTest extends TimerQueueConformanceTest {

  @Override
  protected String strategy() {
    return CascadeTimerQueueProvider.NAME;
  }

  @Override
  protected Map<String, String> options() {
    return Map.of(CascadeTimerQueueProvider.LEVEL_BITS, "3");
  }
}
