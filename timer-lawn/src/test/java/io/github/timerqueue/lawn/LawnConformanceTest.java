package io.github.timerqueue.lawn;

import io.github.timerqueue.conformance.TimerQueueConformanceTest;

class LawnConformanceTest extends TimerQueueConformanceTest {

  @Override
  protected String strategy() {
    return LawnTimerQueueProvider.NAME;
  }
}
