package io.github.timerqueue.heap;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerQueue;
import io.github.timerqueue.spi.TimerQueueProvider;
import java.util.Set;

/**
 * Provides the {@code heap} strategy: the exact reference queue, a 4-ary indexed min-heap. It
 * accepts no options.
 */
public final class HeapTimerQueueProvider implements TimerQueueProvider {

  /** The strategy's name: {@value}. */
  public static final String NAME = "heap";

  /** Creates the provider; called by {@link java.util.ServiceLoader}. */
  public HeapTimerQueueProvider() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "exact 4-ary indexed min-heap: O(log n) schedule, cancel and reschedule; "
        + "fires in deadline order, FIFO among equal deadlines";
  }

  @Override
  public Set<String> optionKeys() {
    return Set.of();
  }

  @Override
  public <T> TimerQueue<T> create(TimerConfig config) {
    return new HeapTimerQueue<>(config);
  }
}
