package com.example.sortedlist;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerQueue;
import io.github.timerqueue.spi.TimerQueueProvider;
import java.util.Set;

/**
 * Registers the {@code sorted-list} strategy with {@link java.util.ServiceLoader}, in this module's
 * test resources ({@code META-INF/services/io.github.timerqueue.spi.TimerQueueProvider}).
 */
public final class SortedListProvider implements TimerQueueProvider {
  static final String NAME = "sorted-list";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "exact sorted list: O(n) schedule, cancel and reschedule (an example)";
  }

  @Override
  public Set<String> optionKeys() {
    return Set.of();
  }

  @Override
  public <T> TimerQueue<T> create(TimerConfig config) {
    return new SortedListTimerQueue<>(config);
  }
}
