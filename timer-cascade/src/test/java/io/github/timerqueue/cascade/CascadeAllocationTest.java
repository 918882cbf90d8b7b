package io.github.timerqueue.cascade;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerHandle;
import io.github.timerqueue.conformance.AllocationCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Once its levels exist and its buckets' arrays have reached the sizes the churn needs, the queue
 * allocates nothing to reschedule, cancel, advance (cascades included) or compute the next delay:
 * an emptied or outgrown bucket's array goes to the queue's pool, and the next bucket that needs
 * room takes it from there. Counts bytes, not time.
 */
class CascadeAllocationTest {
  @Test
  void rescheduleCancelAdvanceAndNextExpiryDelayAllocateNothing() {
    CascadeTimerQueue<String> queue = new CascadeTimerQueue<>(
        TimerConfig.builder().resolution(3).build(), 4);
    List<TimerHandle<String>> handles = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      handles.add(queue.schedule(Long.MAX_VALUE - i, "timer " + i));
    }
    queue.advance(1, timer -> {});
    Consumer<TimerHandle<String>> rearm = timer -> queue.reschedule(timer, queue.now() + 1000);
    SplittableRandom random = new SplittableRandom(7);
    long[] distances = new long[4096];
    for (int i = 0; i < distances.length; i++) {
      distances[i] = random.nextLong(-10, 1L << random.nextInt(1, 40));
    }
    // Buckets leave holes on cancel and grow only when a full one holds few: the arrays reach the
    // sizes this churn needs after about 20,000 to 40,000 rounds.
    churn(queue, handles, rearm, distances, 40_000);

    long allocated = AllocationCounter.bytesAllocatedBy(
        () -> churn(queue, handles, rearm, distances, 200_000));

    // Even one small object per operation would be megabytes.
    assertThat(allocated).as("bytes allocated by 200,000 rounds").isLessThan(1024);
    CascadeInvariants.check(queue);
  }

  private static void churn(CascadeTimerQueue<String> queue, List<TimerHandle<String>> handles,
      Consumer<TimerHandle<String>> rearm, long[] distances, int rounds) {
    for (int round = 0; round < rounds; round++) {
      TimerHandle<String> handle = handles.get(round % handles.size());
      long distance = distances[round % distances.length];
      if (round % 3 == 0) {
        queue.cancel(handle);
      } else {
        queue.reschedule(handle, queue.now() + distance);
      }
      if (round % 7 == 0) {
        queue.advance(queue.now() + queue.nextExpiryDelay() % 10_000, rearm);
      }
    }
  }
}
