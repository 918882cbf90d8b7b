package io.github.timerqueue.wheel;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerQueue;
import io.github.timerqueue.spi.TimerQueueProvider;
import java.util.Set;

/**
 * Provides the {@code wheel} strategy: the leveled timing wheel, {@link TimingWheel}. It accepts
 * one option, {@value TimingWheel#LEVEL_BITS_OPTION}, the level sizes in bits (default {@value
 * TimingWheel#DEFAULT_LEVEL_BITS}).
 */
public final class TimingWheelProvider implements TimerQueueProvider {

  /** The strategy's name: {@value}. */
  public static final String NAME = "wheel";

  /** Creates the provider; called by {@link java.util.ServiceLoader}. */
  public TimingWheelProvider() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "leveled timing wheel (Jane Street): O(1) schedule, cancel and reschedule; "
        + "exact to the resolution interval; FIFO among equal deadlines; option levelBits";
  }

  @Override
  public Set<String> optionKeys() {
    return Set.of(TimingWheel.LEVEL_BITS_OPTION);
  }

  /**
   * {@inheritDoc}
   *
   * <p>The queue is a {@link TimingWheel}; cast it to reach {@code Timing_wheel}'s vocabulary.
   */
  @Override
  public <T> TimerQueue<T> create(TimerConfig config) {
    return TimingWheel.create(config);
  }
}
