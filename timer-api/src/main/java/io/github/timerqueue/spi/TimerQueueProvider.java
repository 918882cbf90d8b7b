package io.github.timerqueue.spi;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerQueue;
import java.util.Set;

/**
 * A timer strategy, found by {@link java.util.ServiceLoader}: the entry point through which {@link
 * io.github.timerqueue.TimerQueues} creates queues by name.
 *
 * <p>A strategy module registers its provider twice, so that it is found both on the class path and
 * on the module path: in {@code META-INF/services/io.github.timerqueue.spi.TimerQueueProvider}, and
 * with {@code provides io.github.timerqueue.spi.TimerQueueProvider with ...} in its {@code
 * module-info}. Implementations must be public, have a public no-argument constructor, and be
 * stateless and thread-safe.
 */
public interface TimerQueueProvider {

  /**
   * Returns the strategy's name, unique among providers: lower case, for example {@code "wheel"}.
   * Queues created by this provider return it from {@link TimerQueue#strategy()}.
   *
   * @return the strategy's name
   */
  String name();

  /**
   * Returns a one-line, human-readable description of the strategy.
   *
   * @return a description
   */
  String description();

  /**
   * Returns the option keys this strategy accepts in {@link TimerConfig#options()}. {@link
   * io.github.timerqueue.TimerQueues} rejects any other key before calling {@link #create}.
   *
   * @return the accepted option keys, possibly empty
   */
  Set<String> optionKeys();

  /**
   * Creates a new, empty queue. The configuration's option keys are among {@link #optionKeys()};
   * their values are validated here.
   *
   * @param config the configuration
   * @param <T> the payload type
   * @return a new queue whose clock starts at {@code config.startTime()}
   * @throws IllegalArgumentException if an option's value is invalid; the message names the option,
   *     the value and what is allowed
   */
  <T> TimerQueue<T> create(TimerConfig config);
}
