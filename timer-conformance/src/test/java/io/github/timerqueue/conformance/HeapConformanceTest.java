package io.github.timerqueue.conformance;

/** The reference strategy, {@code heap} of timer-api, passes the suite. */
class HeapConformanceTest extends TimerQueueConformanceTest {

  @Override
  protected String strategy() {
    return "heap";
  }
}
