package io.github.timerqueue.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;

/**
 * The floors do the work of the workloads they stand under: each cancel and reschedule returns
 * what the exact heap returns, the population is kept, and the two benchmarks run them through the
 * same harness as the contenders; they refuse what they cannot do.
 */
class BucketFloorTest {
  private static final List<String> FLOORS =
      List.of(BucketFloor.TOUCHES, BucketFloor.BINNED, BucketFloor.COUNTED, BucketFloor.COMPACTED);
  private static final int TIMERS = 2_000;
  private static final long R = Scenario.RESOLUTION;

  @Test
  void everyFloorReturnsWhatTheHeapReturnsWhileTheClockStandsStill() {
    List<Long> reference = trace(Contenders.create("heap", TIMERS));
    assertThat(reference).as("the script cancels pending and idle timers alike")
        .contains(0L, 1L);
    for (String floor : FLOORS) {
      assertThat(trace(Contenders.create(floor, TIMERS))).as(floor).isEqualTo(reference);
    }
  }

  @Test
  void theWorkloadsWithAStillClockRunOnEveryFloor() throws RunnerException {
    for (Class<? extends TimerBenchmark> benchmark :
        List.of(ScheduleCancelBenchmark.class, RescheduleBenchmark.class)) {
      Collection<RunResult> runs = new Runner(BriefRuns.of(benchmark)
          .param("strategy", FLOORS.toArray(String[]::new))
          .param("pending", "1000")
          .build()).run();

      assertThat(runs).as(benchmark.getSimpleName()).hasSize(FLOORS.size());
    }
  }

  @Test
  void theCompactedFloorKeepsEachTimerInTheSlotItsHandleNames() {
    BucketFloor floor = new BucketFloor(BucketFloor.COMPACTED, TIMERS);
    SplittableRandom random = new SplittableRandom(11);
    long now = Scenario.START_TIME;
    for (int slot = 0; slot < TIMERS; slot++) {
      floor.schedule(slot, now + random.nextLong(R, Scenario.WIDE_RANGE));
    }
    // Half of the deadlines fall in the highest bin they fill, which holds about TIMERS / 2 timers
    // in TIMERS slots: it fills and makes room about every TIMERS of these steps, with a cancel
    // left unsettled or a reschedule within the bin among them.
    for (int step = 0; step < 20 * TIMERS; step++) {
      int slot = random.nextInt(TIMERS);
      long deadline = now + random.nextLong(R, Scenario.WIDE_RANGE);
      if (random.nextBoolean()) {
        floor.reschedule(slot, deadline);
      } else if (floor.cancel(slot)) {
        floor.schedule(slot, deadline);
      }
      floor.checkSlots();
    }
    assertThat(floor.size()).isEqualTo(TIMERS);
  }

  @Test
  void aFloorRefusesToFireATimer() {
    Timers floor = Contenders.create(BucketFloor.COUNTED, 4);
    floor.schedule(0, Scenario.START_TIME + 3 * R);

    assertThat(floor.advance(Scenario.START_TIME + 2 * R, null)).isZero();
    assertThatThrownBy(() -> floor.advance(Scenario.START_TIME + 3 * R, null))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("schedule+cancel and reschedule");
    assertThatThrownBy(floor::nextExpiryDelay).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void aFloorIsNamedByItsDepth() {
    assertThatThrownBy(() -> new BucketFloor("floor-sorted", 4))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'floor-sorted'")
        .hasMessageContaining(String.join(", ", FLOORS));
    assertThat(Contenders.names()).as("floors run only when named")
        .doesNotContainAnyElementsOf(FLOORS);
  }

  /**
   * Schedules every slot over the workloads' range, then cancels, reschedules and schedules again
   * at random, some slots twice over; returns what each call returned and the sizes.
   */
  private static List<Long> trace(Timers timers) {
    List<Long> trace = new ArrayList<>();
    SplittableRandom random = new SplittableRandom(7);
    long now = Scenario.START_TIME;
    for (int slot = 0; slot < TIMERS; slot++) {
      timers.schedule(slot, now + random.nextLong(R, Scenario.WIDE_RANGE));
    }
    boolean[] pending = new boolean[TIMERS];
    Arrays.fill(pending, true);
    for (int step = 0; step < 20 * TIMERS; step++) {
      int slot = random.nextInt(TIMERS);
      long deadline = now + random.nextLong(R, Scenario.WIDE_RANGE);
      switch (random.nextInt(3)) {
        case 0 -> {
          trace.add(timers.cancel(slot) ? 1L : 0L);
          pending[slot] = false;
        }
        case 1 -> {
          trace.add(timers.reschedule(slot, deadline) ? 1L : 0L);
          pending[slot] = true;
        }
        default -> {
          if (!pending[slot]) {
            timers.schedule(slot, deadline);
            pending[slot] = true;
          }
        }
      }
      trace.add(timers.size());
    }
    return trace;
  }
}
