package com.example.sortedlist;

import io.github.timerqueue.conformance.TimerQueueConformanceTest;

class SortedListConformanceTest extends TimerQueueConformanceTest {

  @Override
  protected String strategy() {
    return "sorted-list";
  }
}
