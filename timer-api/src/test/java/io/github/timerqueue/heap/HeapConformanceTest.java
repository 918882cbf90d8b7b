package io.github.timerqueue.heap;

import io.github.timerqueue.conformance.TimerQueueConformanceTest;

class HeapConformanceTest extends TimerQueueConformanceTest {

  @Override
  protected String strategy() {
    return HeapTimerQueueProvider.NAME;
  }
}
