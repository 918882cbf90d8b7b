package io.github.timerqueue.wheel;

import io.github.timerqueue.conformance.TimerQueueConformanceTest;
import java.util.Map;

/**
 * The whole conformance suite with three levels of four slots: the levels hold only 64 intervals,
 * so most timers start in the overflow list and cascade through every level, and coarse slots of
 * {@code scheduleWithin} are common.
 */
class TinyWheelConformanceTest extends TimerQueueConformanceTest {

  @Override
  protected String strategy() {
    return TimingWheelProvider.NAME;
  }

  @Override
  protected Map<String, String> options() {
    return Map.of(TimingWheel.LEVEL_BITS_OPTION, "2,2,2");
  }
}
