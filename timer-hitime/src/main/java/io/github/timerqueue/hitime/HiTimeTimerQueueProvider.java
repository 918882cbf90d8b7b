package io.github.timerqueue.hitime;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerQueue;
import io.github.timerqueue.spi.TimerQueueProvider;
import java.util.Set;

/**
 * Provides the {@code hitime} strategy: the xor-bin hierarchical timeout manager (see {@code
 * HiTimeTimerQueue} for the design). It accepts no options: 64 bins cover every {@code long}
 * distance, so there is nothing to size, and the granularity is the configuration's {@linkplain
 * TimerConfig#resolution() resolution}.
 */
public final class HiTimeTimerQueueProvider implements TimerQueueProvider {

  /** The strategy's name: {@value}. */
  public static final String NAME = "hitime";

  /** Creates the provider; called by {@link java.util.ServiceLoader}. */
  public HiTimeTimerQueueProvider() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "xor-bin hierarchical timeout manager: 64 bins by the highest bit where deadline "
        + "and now differ; O(1) schedule, cancel, reschedule and nextExpiryDelay; bulk expiry";
  }

  @Override
  public Set<String> optionKeys() {
    return Set.of();
  }

  @Override
  public <T> TimerQueue<T> create(TimerConfig config) {
    return new HiTimeTimerQueue<>(config);
  }
}
