package io.github.timerqueue.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The workloads do the same work on every contender: driven through {@link Timers} by the same
 * operations, every registered strategy and Agrona's wheel agree with the exact heap on what each
 * cancel and reschedule returns, on how many timers each advance fires, and on the population.
 * Agreement is exact because every advance lands on a whole resolution, where the contract's
 * bounded lateness and Agrona's ticks coincide.
 */
class TimersAgreementTest {
  private static final int TIMERS = 3_000;
  private static final long R = Scenario.RESOLUTION;

  @Test
  void everyContenderFiresTheSameNumberOfTimersAtEveryAdvance() {
    Map<String, List<Long>> traces = new LinkedHashMap<>();
    for (String contender : Contenders.names()) {
      traces.put(contender, trace(Contenders.create(contender, TIMERS)));
    }

    List<Long> reference = traces.get("heap");
    assertThat(reference.stream().mapToLong(Long::longValue).sum())
        .as("the script fires timers at all").isGreaterThan(TIMERS);
    traces.forEach((contender, trace) -> assertThat(trace).as(contender).isEqualTo(reference));
  }

  @Test
  void unknownContenderIsRejectedWithTheListOfContenders() {
    assertThatThrownBy(() -> Contenders.create("sundial", 10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'sundial' is not registered")
        .hasMessageContaining(Contenders.names().toString());
  }

  @Test
  void agronaWheelIsSizedForItsPopulation() {
    assertThat(AgronaWheels.spokesFor(1_000)).isEqualTo(64);
    assertThat(AgronaWheels.spokesFor(100_000)).isEqualTo(8_192);
    assertThat(AgronaWheels.spokesFor(1_000_000)).isEqualTo(65_536);
    assertThat(AgronaWheels.spokesFor(100_000_000)).isEqualTo(65_536);
  }

  /**
   * Schedules, cancels and reschedules by a fixed script, then advances one resolution at a time
   * with re-arming; returns what every call returned, fired counts and sizes included.
   */
  private static List<Long> trace(Timers timers) {
    List<Long> trace = new ArrayList<>();
    SplittableRandom random = new SplittableRandom(42);
    long now = Scenario.START_TIME;
    for (int slot = 0; slot < TIMERS; slot++) {
      // Nanosecond deadlines: most between resolutions, some on them, some due at once.
      long deadline = slot % 10 == 3 ? now + random.nextLong(0, 200) * R
          : now + random.nextLong(0, 200 * R);
      timers.schedule(slot, deadline);
    }
    for (int slot = 0; slot < TIMERS; slot += 5) {
      trace.add(timers.cancel(slot) ? 1L : 0L);
    }
    for (int slot = 1; slot < TIMERS; slot += 7) {
      if (slot % 5 != 0) {
        trace.add(timers.reschedule(slot, now + random.nextLong(R, 300 * R)) ? 1L : 0L);
      }
    }
    trace.add(timers.size());
    DelaySequence rearm = DelaySequence.among(
        1_000, new long[] {R, 2 * R, 3 * R / 2, 10 * R + 1, 50 * R, 99 * R - 1, 250 * R}, 7);
    for (int step = 0; step < 600; step++) {
      now += R;
      trace.add((long) timers.advance(now, rearm));
      trace.add(timers.size());
    }
    return trace;
  }
}
