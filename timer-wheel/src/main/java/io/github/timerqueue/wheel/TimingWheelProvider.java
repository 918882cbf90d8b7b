package io.github.timerqueue.wheel;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerQueue;
import io.github.timerqueue.spi.TimerQueueProvider;
import java.util.Set;

/**
 * Provides the {@code wheel} strategy: the leveled timing wheel, {@link TimingWheel}. It accepts
 * one option, {@value TimingWheel#LEVEL_BITS_OPTION}, the level sizes in bits (default {@value
 * TimingWheel#DEFAULT_LEVEL_BITS}).
 *
 * <p>A wheel's buckets hold at most 2<sup>30</sup> slots in all. A pending timer takes one (none
 * while its slot of the wheel holds four timers or fewer), and a bucket keeps some of the slots
 * that cancels empty until it compacts: at most three per timer once it has 32 filled slots. Arming
 * a timer when no slot is left throws {@link IllegalStateException}. That failure is not yet
 * atomic: the wheel may count the timer that could not be filed, or lose track of a timer it was
 * moving, so a wheel that reaches the bound is to be discarded.
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
