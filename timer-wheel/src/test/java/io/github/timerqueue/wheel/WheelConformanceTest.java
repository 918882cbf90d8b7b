package io.github.timerqueue.wheel;

import io.github.timerqueue.conformance.TimerQueueConformanceTest;

/** The whole conformance suite under the default level bits. */
class WheelConformanceTest extends TimerQueueConformanceTest {

  @Override
  protected String strategy() {
    return TimingWheelProvider.NAME;
  }
}
