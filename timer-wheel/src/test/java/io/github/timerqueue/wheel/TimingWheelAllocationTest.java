package io.github.timerqueue.wheel;

import static io.github.timerqueue.wheel.WheelProbe.wheel;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.timerqueue.TimerHandle;
import io.github.timerqueue.conformance.AllocationCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * With handles reused, moving timers around and moving the clock allocate nothing: reschedule,
 * cancel, advance (with a handler that re-arms what fires) and nextExpiryDelay. Counted with
 * HotSpot's per-thread allocation counter, so it says nothing about speed; skipped on a JVM
 * without that counter.
 */
class TimingWheelAllocationTest {

  @ParameterizedTest
  @ValueSource(strings = {"11,10,10,10,10,10,1", "2,2,2"})
  void reschedulingCancellingAndAdvancingAllocateNothing(String levelBits) {
    TimingWheel<String> wheel = wheel(levelBits, 0, 1);
    List<TimerHandle<String>> handles = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      handles.add(wheel.schedule(1 + i * 7_919L, "t" + i));
    }
    SplittableRandom random = new SplittableRandom(5);
    long[] distances = new long[4_096];
    for (int i = 0; i < distances.length; i++) {
      distances[i] = random.nextLong(-100, 1L << random.nextInt(1, 45));
    }
    int[] turn = {0};
    Consumer<TimerHandle<String>> rearm =
        timer -> wheel.reschedule(timer, wheel.now() + 1 + (distances[turn[0]++ & 4_095] & 0xFFFF));

    long allocated = 0;
    for (int round = 0; round < 4; round++) {
      allocated = AllocationCounter.bytesAllocatedBy(() -> {
        for (int i = 0; i < 20_000; i++) {
          TimerHandle<String> timer = handles.get(i % handles.size());
          wheel.reschedule(timer, wheel.now() + distances[i & 4_095]);
          if ((i & 7) == 0) {
            wheel.cancel(handles.get((i * 31) % handles.size()));
          }
          if ((i & 3) == 0) {
            wheel.advance(wheel.now() + (distances[(i >> 2) & 4_095] & 0x3FF), rearm);
            wheel.nextExpiryDelay();
          }
        }
      });
    }
    assertThat(allocated).as("bytes allocated by the last round").isZero();
  }
}
