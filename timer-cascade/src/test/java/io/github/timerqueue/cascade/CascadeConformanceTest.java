package io.github.timerqueue.cascade;

import io.github.timerqueue.conformance.TimerQueueConformanceTest;

/** The whole conformance suite, under the default configuration: 256 buckets per level. */
class CascadeConformanceTest extends TimerQueueConformanceTest {

  @Override
  protected String strategy() {
    return CascadeTimerQueueProvider.NAME;
  }
}
