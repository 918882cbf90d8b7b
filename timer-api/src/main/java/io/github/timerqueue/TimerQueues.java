package io.github.timerqueue;

import io.github.timerqueue.spi.TimerQueueProvider;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Creates {@link TimerQueue}s by strategy name. Strategies are the {@link TimerQueueProvider}s that
 * {@link ServiceLoader} finds, on the class path or the module path, the first time this class is
 * used; {@code "heap"} is always there.
 *
 * <pre>{@code
 * TimerQueue<Runnable> timers = TimerQueues.create("wheel");
 * TimerHandle<Runnable> timeout = timers.schedule(timers.now() + 30_000, this::onTimeout);
 * ...
 * timers.advance(now, timer -> timer.payload().run());
 * }</pre>
 *
 * <p>All methods are thread-safe; the queues they create are not.
 */
public final class TimerQueues {

  private TimerQueues() {}

  /**
   * Creates a queue of the named strategy with the {@linkplain TimerConfig#defaults() default
   * configuration}: start time 0, resolution 1.
   *
   * @param strategy the strategy's name, one of {@link #strategies()}
   * @param <T> the payload type
   * @return a new, empty queue
   * @throws IllegalArgumentException if no strategy has that name; the message lists those there are
   * @throws NullPointerException if {@code strategy} is {@code null}
   */
  public static <T> TimerQueue<T> create(String strategy) {
    return create(strategy, TimerConfig.defaults());
  }

  /**
   * Creates a queue of the named strategy with the given configuration.
   *
   * @param strategy the strategy's name, one of {@link #strategies()}
   * @param config the start time, resolution and strategy-specific options
   * @param <T> the payload type
   * @return a new, empty queue whose clock starts at {@code config.startTime()}
   * @throws IllegalArgumentException if no strategy has that name, if an option key is not one the
   *     strategy accepts, or if an option's value is invalid; the message names the bad value and
   *     lists what is allowed
   * @throws NullPointerException if an argument is {@code null}
   */
  public static <T> TimerQueue<T> create(String strategy, TimerConfig config) {
    Objects.requireNonNull(config, "config");
    TimerQueueProvider provider = provider(strategy);
    for (String key : config.options().keySet()) {
      if (!provider.optionKeys().contains(key)) {
        throw new IllegalArgumentException(
            "strategy '" + strategy + "' does not accept option '" + key + "'; it accepts: "
                + new TreeSet<>(provider.optionKeys()));
      }
    }
    return provider.create(config);
  }

  /**
   * Returns the names of every strategy found, in alphabetical order.
   *
   * @return an unmodifiable sorted set of strategy names; contains at least {@code "heap"}
   */
  public static SortedSet<String> strategies() {
    return Collections.unmodifiableSortedSet(new TreeSet<>(Registry.PROVIDERS.keySet()));
  }

  /**
   * Returns the one-line description of a strategy.
   *
   * @param strategy the strategy's name, one of {@link #strategies()}
   * @return the provider's description
   * @throws IllegalArgumentException if no strategy has that name
   * @throws NullPointerException if {@code strategy} is {@code null}
   */
  public static String description(String strategy) {
    return provider(strategy).description();
  }

  private static TimerQueueProvider provider(String strategy) {
    Objects.requireNonNull(strategy, "strategy");
    TimerQueueProvider provider = Registry.PROVIDERS.get(strategy);
    if (provider == null) {
      throw new IllegalArgumentException(
          "unknown timer strategy '" + strategy + "'; available: " + strategies());
    }
    return provider;
  }

  /** The providers, loaded once on first use (the holder idiom makes that lazy and thread-safe). */
  private static final class Registry {
    static final Map<String, TimerQueueProvider> PROVIDERS = load();

    private static Map<String, TimerQueueProvider> load() {
      SortedMap<String, TimerQueueProvider> providers = new TreeMap<>();
      for (TimerQueueProvider provider : ServiceLoader.load(TimerQueueProvider.class)) {
        TimerQueueProvider previous = providers.putIfAbsent(provider.name(), provider);
        if (previous != null && previous.getClass() != provider.getClass()) {
          throw new IllegalStateException(
              "two timer strategies are named '" + provider.name() + "': "
                  + previous.getClass().getName() + " and " + provider.getClass().getName());
        }
      }
      return Collections.unmodifiableMap(providers);
    }
  }
}
