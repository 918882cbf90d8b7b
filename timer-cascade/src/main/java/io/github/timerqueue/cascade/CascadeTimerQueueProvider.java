package io.github.timerqueue.cascade;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerQueue;
import io.github.timerqueue.spi.TimerQueueProvider;
import java.util.Set;

/**
 * Provides the {@code cascade} strategy: a cascading timer wheel after the ccan design, with levels
 * of 2<sup>levelBits</sup> buckets and a far bucket for what lies beyond the last level.
 *
 * <p>It accepts one option, {@value #LEVEL_BITS}: the number of bits of a tick that each level
 * resolves, an integer from {@value #MIN_LEVEL_BITS} to {@value #MAX_LEVEL_BITS}, by default {@value
 * #DEFAULT_LEVEL_BITS} (256 buckets per level, as in ccan). Wider levels mean fewer levels and fewer
 * cascades, but each level costs 2<sup>levelBits</sup> bucket objects and a longer bitmap scan when
 * its earliest timer has to be found again.
 *
 * <p>A queue holds at most 2<sup>27</sup> (134,217,728) timers with the default {@value
 * #LEVEL_BITS} and from 5 to 12 bits, 2<sup>24</sup> with 1 bit, 2<sup>25</sup> with 2,
 * 2<sup>26</sup> with 3 or 4, and 2<sup>28</sup> from 13 to 16; arming a timer in a full queue
 * throws {@link IllegalStateException}.
 */
public final class CascadeTimerQueueProvider implements TimerQueueProvider {

  /** The strategy's name: {@value}. */
  public static final String NAME = "cascade";

  /** The option that sets how many bits of a tick each level resolves: {@value}. */
  public static final String LEVEL_BITS = "levelBits";

  static final int DEFAULT_LEVEL_BITS = 8;
  static final int MIN_LEVEL_BITS = 1;
  static final int MAX_LEVEL_BITS = 16;

  /** Creates the provider; called by {@link java.util.ServiceLoader}. */
  public CascadeTimerQueueProvider() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "cascading timer wheel (ccan design): levels of 2^levelBits buckets plus a far bucket; "
        + "O(1) schedule and cancel, timers re-filed a level at a time as the clock nears them";
  }

  @Override
  public Set<String> optionKeys() {
    return Set.of(LEVEL_BITS);
  }

  /**
   * {@inheritDoc}
   *
   * @throws IllegalArgumentException if {@value #LEVEL_BITS} is not an integer from {@value
   *     #MIN_LEVEL_BITS} to {@value #MAX_LEVEL_BITS}
   */
  @Override
  public <T> TimerQueue<T> create(TimerConfig config) {
    return new CascadeTimerQueue<>(config, levelBits(config));
  }

  private static int levelBits(TimerConfig config) {
    String value = config.option(LEVEL_BITS).orElse(null);
    if (value == null) {
      return DEFAULT_LEVEL_BITS;
    }
    int bits;
    try {
      bits = Integer.parseInt(value);
    } catch (NumberFormatException notANumber) {
      throw outOfRange(value);
    }
    if (bits < MIN_LEVEL_BITS || bits > MAX_LEVEL_BITS) {
      throw outOfRange(value);
    }
    return bits;
  }

  private static IllegalArgumentException outOfRange(String value) {
    return new IllegalArgumentException(
        "option " + LEVEL_BITS + " must be an integer from " + MIN_LEVEL_BITS + " to "
            + MAX_LEVEL_BITS + " (buckets per level = 2^" + LEVEL_BITS + "), but was '" + value
            + "'");
  }
}
