package io.github.timerqueue.hitime;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerHandle;
import io.github.timerqueue.conformance.AllocationCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The hot paths allocate nothing: with handles reused, {@code reschedule}, {@code cancel}, {@code
 * advance} (including bulk expiry, re-examination, low bins held by id and a handler that re-arms
 * its timer) and {@code
 * nextExpiryDelay} leave this thread's allocation counter where it was. Measured with the JDK's
 * per-thread allocation counter, which counts bytes, not time.
 */
class HiTimeAllocationTest {
  private static final int TIMERS = 4_096;
  private static final int ROUNDS = 200;
  /**
   * Stretches of churn tried before one must allocate nothing. The churn's distances reach 2^63
   * and its clock jumps, so the bins that hold many timers keep changing, and with them the arrays
   * the queue needs: with this seed the first four stretches take new ones (about 119 KB, 6 KB,
   * 4 KB and 8 KB), the fifth to the eighth none, the ninth one more. (A bin that fills again
   * takes at once the room it used before, TimerBucket.lastFill, sizes the kept arrays may not
   * have yet: growing from the smallest array instead, the second stretch was already clean.) The
   * JIT can also charge its own bytes to whichever stretch it happens in (1,208 bytes in about
   * half the runs on JDK 25 with C2, never with the interpreter or C1 alone), so one stretch at the
   * working size is not enough.
   */
  private static final int ATTEMPTS = 10;

  @Test
  void rescheduleCancelAdvanceAndNextExpiryDelayAllocateNothing() {
    HiTimeTimerQueue<Integer> queue = new HiTimeTimerQueue<>(
        TimerConfig.builder().startTime(-7).resolution(3).build());
    @SuppressWarnings("unchecked")
    TimerHandle<Integer>[] handles = new TimerHandle[TIMERS];
    for (int i = 0; i < TIMERS; i++) {
      handles[i] = queue.schedule(queue.now() + i, i);
    }
    Consumer<TimerHandle<Integer>> rearm = timer -> {
      if ((timer.payload() & 3) == 0) {
        queue.reschedule(timer, queue.now() + timer.payload());
      }
    };

    List<Long> allocated = new ArrayList<>();
    long fewest = Long.MAX_VALUE;
    for (int attempt = 0; attempt < ATTEMPTS && fewest > 0; attempt++) {
      long bytes = AllocationCounter.bytesAllocatedBy(() -> churn(queue, handles, rearm));
      allocated.add(bytes);
      fewest = Math.min(fewest, bytes);
    }

    assertThat(queue.size()).isPositive();
    assertThat(queue.low.ids()).as("ids the low bins have used").isPositive();
    assertThat(fewest)
        .as("bytes allocated by %d rounds of churn, fewest of %s", ROUNDS, allocated)
        .isZero();
  }

  private static void churn(HiTimeTimerQueue<Integer> queue, TimerHandle<Integer>[] handles,
      Consumer<TimerHandle<Integer>> rearm) {
    long seed = 0x9E3779B97F4A7C15L;
    for (int round = 0; round < ROUNDS; round++) {
      for (int i = 0; i < handles.length; i++) {
        seed = seed * 6364136223846793005L + 1442695040888963407L;
        long distance = (seed >>> 1) >>> (seed & 63);
        if ((seed & 0x700) == 0) {
          queue.cancel(handles[i]);
        } else {
          queue.reschedule(handles[i], queue.now() + distance - 8);
        }
      }
      if (queue.nextExpiryDelay() < 0) {
        throw new AssertionError("negative delay");
      }
      queue.advance(queue.now() + (seed >>> 40), rearm, 1 + (round & 1023));
    }
  }
}
