package io.github.timerqueue.bench.replay;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerQueues;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One configuration a trace is replayed on: a registered strategy with options, or Agrona's wheel.
 *
 * @param strategy the strategy name, or {@value #AGRONA}
 * @param options the strategy's options, empty for its defaults
 */
record Contender(String strategy, Map<String, String> options) {
  /** The peer's name. */
  static final String AGRONA = "agrona";

  /** The name in tables: the strategy, then its options. */
  String label() {
    StringBuilder label = new StringBuilder(strategy);
    new TreeMap<>(options).forEach((k, v) -> label.append(' ').append(k).append('=').append(v));
    return label.toString();
  }

  /**
   * Every registered strategy at its defaults, the level sizes of the wheels that trade memory
   * against cascading ({@code wheel} with 8-bit levels, {@code cascade} with 6-bit ones), and
   * Agrona's wheel.
   */
  static List<Contender> all() {
    List<Contender> all = new ArrayList<>();
    for (String strategy : TimerQueues.strategies()) {
      all.add(new Contender(strategy, Map.of()));
      if (strategy.equals("wheel")) {
        all.add(new Contender(strategy, Map.of("levelBits", "8,8,8,8,8,8,8")));
      } else if (strategy.equals("cascade")) {
        all.add(new Contender(strategy, Map.of("levelBits", "6")));
      }
    }
    all.add(new Contender(AGRONA, Map.of()));
    return all;
  }

  /** Creates an empty structure whose times are replay ticks: start 0, resolution 1 tick. */
  ReplayTarget create(long peakTimers) {
    if (strategy.equals(AGRONA)) {
      return new AgronaTarget(peakTimers);
    }
    TimerConfig.Builder config = TimerConfig.builder().startTime(0).resolution(1);
    options.forEach(config::option);
    return new QueueTarget(TimerQueues.create(strategy, config.build()));
  }
}
