package io.github.timerqueue.bench;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerQueues;
import java.util.ArrayList;
import java.util.List;

/**
 * The contenders of a run: every strategy that {@link TimerQueues#strategies()} finds, so that a
 * new strategy is benchmarked without a change here, and Agrona's {@code DeadlineTimerWheel}, the
 * peer. The floors of {@link BucketFloor} can be named too, but are not in a run unless named.
 */
final class Contenders {
  /** The peer's name in parameters and results. */
  static final String AGRONA = "agrona";

  private Contenders() {}

  /** The registered strategies in alphabetical order, then {@value #AGRONA}. */
  static List<String> names() {
    List<String> names = new ArrayList<>(TimerQueues.strategies());
    names.add(AGRONA);
    return names;
  }

  /**
   * Creates an empty timer structure for {@code capacity} timers, every strategy with the same
   * configuration: start time {@link Scenario#START_TIME}, resolution {@link Scenario#RESOLUTION},
   * default options.
   *
   * @throws IllegalArgumentException if no contender has that name; the message lists those there
   *     are, and says how to run only those
   */
  static Timers create(String name, int capacity) {
    if (AGRONA.equals(name)) {
      return new AgronaTimers(capacity);
    }
    if (BucketFloor.isFloor(name)) {
      return new BucketFloor(name, capacity);
    }
    if (!TimerQueues.strategies().contains(name)) {
      throw new IllegalArgumentException(
          "timer strategy '" + name + "' is not registered on this class path; contenders are "
              + names() + ". Run timer-bench/run, which passes -p strategy=<these>, or pass "
              + "-p strategy=" + String.join(",", names()) + " to the JMH jar.");
    }
    TimerConfig config = TimerConfig.builder()
        .startTime(Scenario.START_TIME)
        .resolution(Scenario.RESOLUTION)
        .build();
    return new QueueTimers(TimerQueues.create(name, config), capacity);
  }
}
