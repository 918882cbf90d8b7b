package io.github.timerqueue.hitime;

import io.github.timerqueue.conformance.TimerQueueConformanceTest;

/** The whole {@code TimerQueue} contract, under every clock origin and resolution of the suite. */
class HiTimeConformanceTest extends TimerQueueConformanceTest {

  @Override
  protected String strategy() {
    return HiTimeTimerQueueProvider.NAME;
  }
}
