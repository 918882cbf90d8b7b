package io.github.timerqueue.bench.runtime;

import io.github.timerqueue.TimerQueues;
import java.util.ArrayList;
import java.util.List;

/**
 * The contenders of the runtime benchmarks: a {@code TimerService} over every strategy that
 * {@link TimerQueues#strategies()} finds (named by the strategy), then the peers.
 */
final class RuntimeContenders {
  /** Netty's {@code HashedWheelTimer}. */
  static final String NETTY = "netty";
  /** Kafka's {@code SystemTimer} with its reaper. */
  static final String KAFKA = "kafka";
  /** The JDK's {@code ScheduledThreadPoolExecutor} with {@code removeOnCancel}. */
  static final String STPE = "stpe";
  static final List<String> PEERS = List.of(NETTY, KAFKA, STPE);

  private RuntimeContenders() {}

  /** The registered strategies in alphabetical order, then the peers. */
  static List<String> names() {
    List<String> names = new ArrayList<>(TimerQueues.strategies());
    names.addAll(PEERS);
    return names;
  }

  /** Whether {@code name} is a strategy run through {@code TimerService}, not a peer. */
  static boolean isStrategy(String name) {
    return !PEERS.contains(name);
  }

  /**
   * Starts the contender {@code name}, its timer thread named {@code "tq-" + name} (Linux shows
   * the first 15 characters of a thread's name; these stay within them).
   *
   * @throws IllegalArgumentException if no contender has that name; the message lists those there
   *     are
   */
  static RuntimeTimer start(String name) {
    String threadName = "tq-" + name;
    switch (name) {
      case NETTY:
        return new NettyTimer(threadName);
      case KAFKA:
        return new KafkaTimer(threadName);
      case STPE:
        return new ExecutorTimer(threadName);
      default:
        if (!TimerQueues.strategies().contains(name)) {
          throw new IllegalArgumentException("runtime contender '" + name
              + "' is not known on this class path; contenders are " + names()
              + ". Run timer-bench/run-runtime, or pass -p impl=" + String.join(",", names())
              + " to the JMH jar.");
        }
        return new ServiceTimer(name, threadName);
    }
  }
}
