package io.github.timerqueue.heap;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerHandle;
import io.github.timerqueue.TimerQueue;
import io.github.timerqueue.TimerQueues;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** What the heap promises beyond the contract: exact firing in deadline order, FIFO on ties. */
class HeapTimerQueueTest {

  private static final long START = Long.MAX_VALUE - 1_000;

  private final TimerQueue<Integer> queue =
      TimerQueues.create("heap", TimerConfig.builder().startTime(START).resolution(1_000).build());

  @Test
  void firesInDeadlineOrderWithTiesInSchedulingOrder() {
    SplittableRandom random = new SplittableRandom(42);
    List<TimerHandle<Integer>> timers = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      timers.add(queue.schedule(START + random.nextLong(-50, 2_000), i));
    }
    List<TimerHandle<Integer>> expected = new ArrayList<>(timers);
    expected.sort(Comparator.comparingLong((TimerHandle<Integer> timer) ->
            Math.max(timer.deadline() - START, 0))
        .thenComparing(TimerHandle::payload));

    List<TimerHandle<Integer>> fired = new ArrayList<>();
    queue.advance(START + 2_000, fired::add);

    assertThat(fired).containsExactlyElementsOf(expected);
  }

  @Test
  void isExactWhateverTheResolution() {
    TimerHandle<Integer> timer = queue.schedule(START + 1_001, 1);
    List<TimerHandle<Integer>> fired = new ArrayList<>();

    queue.advance(START + 1_000, fired::add);
    assertThat(fired).isEmpty();
    assertThat(queue.nextExpiryDelay()).isEqualTo(1);
    queue.advance(START + 1_001, fired::add);
    assertThat(fired).containsExactly(timer);
  }

  @Test
  void rescheduledTimerGoesBehindOthersWithTheSameDeadline() {
    TimerHandle<Integer> first = queue.schedule(START + 10, 1);
    TimerHandle<Integer> second = queue.schedule(START + 10, 2);
    TimerHandle<Integer> third = queue.schedule(START + 10, 3);
    queue.reschedule(first, START + 10);

    List<TimerHandle<Integer>> fired = new ArrayList<>();
    queue.advance(START + 10, fired::add);

    assertThat(fired).containsExactly(second, third, first);
  }

  @Test
  void timersLeftByAThrowingHandlerKeepTheirOrder() {
    for (int i = 0; i < 6; i++) {
      queue.schedule(START + 6 - i, i);
    }
    List<Integer> fired = new ArrayList<>();
    try {
      queue.advance(START + 6, timer -> {
        fired.add(timer.payload());
        if (fired.size() == 2) {
          throw new IllegalStateException("stop");
        }
      });
    } catch (IllegalStateException expected) {
      // the remaining four stay pending
    }
    queue.advance(START + 6, timer -> fired.add(timer.payload()));

    assertThat(fired).containsExactly(5, 4, 3, 2, 1, 0);
  }

  @Test
  void randomOperationsKeepDeadlineOrder() {
    SplittableRandom random = new SplittableRandom(7);
    List<TimerHandle<Integer>> timers = new ArrayList<>();
    long now = START;
    long lastFired = Long.MIN_VALUE;
    for (int op = 0; op < 200_000; op++) {
      int roll = random.nextInt(10);
      if (roll < 4 || timers.isEmpty()) {
        timers.add(queue.schedule(now + random.nextLong(0, 100_000), op));
      } else if (roll < 6) {
        queue.cancel(timers.get(random.nextInt(timers.size())));
      } else if (roll < 8) {
        queue.reschedule(timers.get(random.nextInt(timers.size())),
            now + random.nextLong(0, 100_000));
      } else {
        now += random.nextLong(0, 5_000);
        List<TimerHandle<Integer>> fired = new ArrayList<>();
        queue.advance(now, fired::add);
        for (TimerHandle<Integer> timer : fired) {
          long distance = timer.deadline() - START;
          assertThat(distance).isGreaterThanOrEqualTo(lastFired);
          lastFired = distance;
        }
      }
      if (timers.size() > 5_000) {
        timers.remove(random.nextInt(timers.size()));
      }
    }
  }
}
