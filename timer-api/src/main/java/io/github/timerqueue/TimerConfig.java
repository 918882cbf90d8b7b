package io.github.timerqueue;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The immutable settings a {@link TimerQueue} is created with: its start time, its resolution, and
 * strategy-specific options.
 *
 * <pre>{@code
 * TimerConfig config = TimerConfig.builder()
 *     .startTime(System.nanoTime())
 *     .resolution(1_000_000)            // one millisecond, when times are nanoseconds
 *     .option("levelBits", "8,8,8,8")   // understood by the "wheel" strategy
 *     .build();
 * }</pre>
 *
 * <p>Instances are values: equal when their start time, resolution and options are equal.
 */
public final class TimerConfig {

  private static final TimerConfig DEFAULTS = new Builder().build();

  private final long startTime;
  private final long resolution;
  private final Map<String, String> options;

  private TimerConfig(Builder builder) {
    this.startTime = builder.startTime;
    this.resolution = builder.resolution;
    this.options = Map.copyOf(builder.options);
  }

  /**
   * Returns the default configuration: start time 0, resolution 1, no options.
   *
   * @return the shared default configuration
   */
  public static TimerConfig defaults() {
    return DEFAULTS;
  }

  /**
   * Returns a new builder, initialized to the {@linkplain #defaults() defaults}.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns the time the queue's clock starts at; {@link TimerQueue#now()} returns it until the
   * first advance. Any {@code long}, including values near the wrap of the clock.
   *
   * @return the start time
   */
  public long startTime() {
    return startTime;
  }

  /**
   * Returns the resolution, at least 1: the granularity, counted from the start time, to which a
   * strategy may round deadlines up. A timer fires at the latest in the first advance at or past its
   * deadline rounded up to a multiple of the resolution; with 1 every timer fires exactly when due.
   *
   * @return the resolution, in the queue's time units
   */
  public long resolution() {
    return resolution;
  }

  /**
   * Returns the strategy-specific options as an unmodifiable map. {@link TimerQueues#create(String,
   * TimerConfig)} rejects keys the chosen strategy does not accept.
   *
   * @return the options, keyed by name
   */
  public Map<String, String> options() {
    return options;
  }

  /**
   * Returns the value of one option, if it was set.
   *
   * @param key the option's name
   * @return its value, or empty if it was not set
   * @throws NullPointerException if {@code key} is {@code null}
   */
  public Optional<String> option(String key) {
    return Optional.ofNullable(options.get(Objects.requireNonNull(key, "key")));
  }

  /**
   * Returns a builder initialized to this configuration's values.
   *
   * @return a new builder
   */
  public Builder toBuilder() {
    Builder builder = new Builder().startTime(startTime).resolution(resolution);
    builder.options.putAll(options);
    return builder;
  }

  @Override
  public boolean equals(Object other) {
    if (this == other) {
      return true;
    }
    if (!(other instanceof TimerConfig)) {
      return false;
    }
    TimerConfig that = (TimerConfig) other;
    return startTime == that.startTime
        && resolution == that.resolution
        && options.equals(that.options);
  }

  @Override
  public int hashCode() {
    return Objects.hash(startTime, resolution, options);
  }

  @Override
  public String toString() {
    return "TimerConfig{startTime=" + startTime + ", resolution=" + resolution
        + ", options=" + new TreeMap<>(options) + "}";
  }

  /**
   * Builds a {@link TimerConfig}. Each setter validates its argument at once, so an invalid value
   * is reported where it is set. Not thread-safe.
   */
  public static final class Builder {
    private long startTime;
    private long resolution = 1;
    private final Map<String, String> options = new TreeMap<>();

    private Builder() {}

    /**
     * Sets the start time of the queue's clock (default 0). Any {@code long} is allowed.
     *
     * @param startTime the start time
     * @return this builder
     */
    public Builder startTime(long startTime) {
      this.startTime = startTime;
      return this;
    }

    /**
     * Sets the resolution (default 1).
     *
     * @param resolution the resolution, at least 1
     * @return this builder
     * @throws IllegalArgumentException if {@code resolution < 1}
     */
    public Builder resolution(long resolution) {
      if (resolution < 1) {
        throw new IllegalArgumentException(
            "resolution must be at least 1, but was " + resolution);
      }
      this.resolution = resolution;
      return this;
    }

    /**
     * Sets a strategy-specific option, replacing any earlier value for the same key. Which keys are
     * accepted, and which values, is up to the strategy; see its documentation.
     *
     * @param key the option's name, not empty
     * @param value its value
     * @return this builder
     * @throws IllegalArgumentException if {@code key} is empty
     * @throws NullPointerException if {@code key} or {@code value} is {@code null}
     */
    public Builder option(String key, String value) {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(value, "value");
      if (key.isEmpty()) {
        throw new IllegalArgumentException("option key must not be empty");
      }
      options.put(key, value);
      return this;
    }

    /**
     * Returns a new configuration with this builder's values. The builder may be reused.
     *
     * @return a new immutable configuration
     */
    public TimerConfig build() {
      return new TimerConfig(this);
    }
  }
}
