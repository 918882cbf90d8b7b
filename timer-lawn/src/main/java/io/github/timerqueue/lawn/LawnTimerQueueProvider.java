package io.github.timerqueue.lawn;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerQueue;
import io.github.timerqueue.spi.TimerQueueProvider;
import java.util.Set;

/**
 * Provides the {@code lawn} strategy: a TTL-bucketed timer store after Lev-Libfeld's "Lawn" (2018),
 * one first-in, first-out queue per distinct TTL with the queues' heads in a heap. Choose it when
 * many timers share few distinct TTLs (timeouts, retransmissions, expiry policies); it then
 * schedules, cancels and expires in {@code O(1)} whatever the range of the deadlines. It accepts no
 * options.
 */
public final class LawnTimerQueueProvider implements TimerQueueProvider {

  /** The strategy's name: {@value}. */
  public static final String NAME = "lawn";

  /** Creates the provider; called by {@link java.util.ServiceLoader}. */
  public LawnTimerQueueProvider() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "TTL-bucketed lawn: a FIFO queue per distinct TTL, queue heads in a heap; "
        + "O(1) schedule, cancel and expiry while distinct TTLs are few";
  }

  @Override
  public Set<String> optionKeys() {
    return Set.of();
  }

  @Override
  public <T> TimerQueue<T> create(TimerConfig config) {
    return new LawnTimerQueue<>(config);
  }
}
