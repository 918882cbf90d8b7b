package io.github.timerqueue.wheel;

import static io.github.timerqueue.wheel.WheelProbe.wheel;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.timerqueue.TimerHandle;
import io.github.timerqueue.conformance.AllocationCounter;
import java.util.ArrayList;
import java.util.Arrays;
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

    long[] allocated = new long[8];
    for (int round = 0; round < allocated.length; round++) {
      allocated[round] = AllocationCounter.bytesAllocatedBy(() -> {
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
    // The first rounds grow the wheel to its working size. After them, a wheel that allocated
    // per operation would do so in every round of 20,000. The JVM may allocate once on its own,
    // not the wheel: when it deoptimizes compiled code it rebuilds the objects that compilation
    // had kept in registers (48 to 80 bytes were seen, in one round, at times that vary with the
    // load). So of the last four rounds, three must allocate nothing, and none a kilobyte or more.
    long[] measured = Arrays.copyOfRange(allocated, 4, 8);
    assertThat(Arrays.stream(measured).filter(bytes -> bytes == 0).count())
        .as("rounds of the last four that allocated nothing, of %s", Arrays.toString(measured))
        .isGreaterThanOrEqualTo(3);
    assertThat(Arrays.stream(measured).max().orElseThrow())
        .as("most bytes allocated by one of the last four rounds, of %s", Arrays.toString(measured))
        .isLessThan(1024);
  }
}
