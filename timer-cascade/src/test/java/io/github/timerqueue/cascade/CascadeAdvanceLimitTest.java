package io.github.timerqueue.cascade;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerHandle;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The limit rule of {@code advance(now, handler, limit)}: when it returns fewer than {@code limit},
 * no timer is left due at {@code now} except those armed by the running advance's handlers,
 * whatever the handlers cancelled or re-armed. A handler that cancels or moves timers of the firing
 * batch before their turn must not use up the quota.
 */
class CascadeAdvanceLimitTest {

  /** Twelve timers due together; the first handler call cancels three of the others. */
  @ParameterizedTest(name = "limit {0}")
  @CsvSource({"1", "2", "3", "4", "5", "11"})
  void cancellingTimersOfTheFiringBatchDoesNotSpendTheLimit(int limit) {
    CascadeTimerQueue<Integer> queue = new CascadeTimerQueue<>(TimerConfig.defaults(), 8);
    List<TimerHandle<Integer>> timers = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      timers.add(queue.schedule(10, i));
    }
    List<Integer> fired = new ArrayList<>();
    int returned = queue.advance(10, timer -> {
      if (fired.isEmpty()) {
        int cancelled = 0;
        for (TimerHandle<Integer> other : timers) {
          if (cancelled < 3 && other != timer && queue.cancel(other)) {
            cancelled++;
          }
        }
      }
      fired.add(timer.payload());
    }, limit);

    assertThat(returned).isEqualTo(fired.size()).isEqualTo(Math.min(limit, 9));
    assertThat(queue.size()).isEqualTo(9 - returned);
    CascadeInvariants.check(queue);
  }

  /** The same with handlers that re-arm timers of the batch, later or due again. */
  @Test
  void reArmingTimersOfTheFiringBatchDoesNotSpendTheLimit() {
    CascadeTimerQueue<Integer> queue = new CascadeTimerQueue<>(TimerConfig.defaults(), 8);
    List<TimerHandle<Integer>> timers = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      timers.add(queue.schedule(10, i));
    }
    List<TimerHandle<Integer>> rearmed = new ArrayList<>();
    int returned = queue.advance(10, timer -> {
      if (rearmed.isEmpty()) {
        for (TimerHandle<Integer> other : timers) {
          if (rearmed.size() < 4 && other != timer && other.isPending()) {
            queue.reschedule(other, rearmed.size() % 2 == 0 ? 50 : 10);
            rearmed.add(other);
          }
        }
      }
    }, 4);

    assertThat(returned).isEqualTo(4);
    assertThat(queue.size()).isEqualTo(8);
    CascadeInvariants.check(queue);
  }

  /**
   * A seeded random run against a model, with the setups where the rule was seen broken: a small
   * limit, many timers due in the same tick, and handlers that cancel and re-arm pending timers
   * (most of them due, so most of them in the firing batch).
   */
  @ParameterizedTest(name = "start {0}, resolution {1}, levelBits {2}")
  @CsvSource({
    "0, 1048576, 8",
    "-1, 1000, 8",
    "9223372036854775807, 8, 8",
    "-9223372036854775808, 1, 8",
    "0, 1, 3",
    "-1, 64, 2"
  })
  void randomHandlersThatCancelAndReArmNeverLeaveADueTimerBehindAShortAdvance(
      long start, long resolution, int bits) {
    new ModelRun(start, resolution, bits, 0x19L ^ start ^ resolution).run(20_000);
  }

  /** The model: each pending timer's unsigned distance from the start by which it must fire. */
  private static final class ModelRun {
    private final long start;
    private final long resolution;
    private final SplittableRandom random;
    private final CascadeTimerQueue<Integer> queue;
    private final Map<TimerHandle<Integer>, Long> mustFireBy = new IdentityHashMap<>();
    private final List<TimerHandle<Integer>> handles = new ArrayList<>();
    private final Map<TimerHandle<Integer>, Boolean> armedInThisAdvance = new IdentityHashMap<>();
    private int nextPayload;

    ModelRun(long start, long resolution, int bits, long seed) {
      this.start = start;
      this.resolution = resolution;
      this.random = new SplittableRandom(seed);
      this.queue = new CascadeTimerQueue<>(
          TimerConfig.builder().startTime(start).resolution(resolution).build(), bits);
    }

    void run(int operations) {
      for (int op = 0; op < operations; op++) {
        int roll = random.nextInt(10);
        if (roll < 5 || handles.isEmpty()) {
          TimerHandle<Integer> timer = queue.schedule(nearDeadline(), nextPayload++);
          handles.add(timer);
          arm(timer);
        } else if (roll < 6) {
          TimerHandle<Integer> timer = handles.get(random.nextInt(handles.size()));
          queue.cancel(timer);
          mustFireBy.remove(timer);
        } else {
          advance(op);
        }
        assertThat(queue.size()).isEqualTo(mustFireBy.size());
        CascadeInvariants.check(queue);
        if (handles.size() > 200) {
          handles.removeIf(timer -> !timer.isPending());
        }
      }
    }

    private void advance(int op) {
      long target = queue.now() + random.nextLong(0, 3 * resolution);
      long elapsed = target - start;
      int limit = 1 + random.nextInt(5);
      armedInThisAdvance.clear();
      int[] handedOut = {0};
      int returned = queue.advance(target, timer -> {
        handedOut[0]++;
        assertThat(mustFireBy.remove(timer)).as("fired a timer that is not pending").isNotNull();
        int reaction = random.nextInt(3);
        TimerHandle<Integer> other = handles.get(random.nextInt(handles.size()));
        if (reaction == 0) {
          queue.cancel(other);
          mustFireBy.remove(other);
        } else if (reaction == 1) {
          queue.reschedule(other, random.nextBoolean() ? queue.now() : nearDeadline());
          arm(other);
          armedInThisAdvance.put(other, true);
        }
      }, limit);

      assertThat(returned).isEqualTo(handedOut[0]).isLessThanOrEqualTo(limit);
      if (returned < limit) {
        mustFireBy.forEach((timer, fireBy) -> {
          if (Long.compareUnsigned(fireBy, elapsed) <= 0) {
            assertThat(armedInThisAdvance).as(
                "operation %d: advance(limit %d) returned %d but left %s due", op, limit,
                returned, timer).containsKey(timer);
          }
        });
      }
    }

    private long nearDeadline() {
      return queue.now() + random.nextLong(-2, 3 * resolution);
    }

    private void arm(TimerHandle<Integer> timer) {
      long elapsed = queue.now() - start;
      long distance = timer.deadline() - queue.now();
      long fireBy = elapsed;
      if (distance > 0) {
        long key = elapsed + distance;
        fireBy = Long.divideUnsigned(key + resolution - 1, resolution) * resolution;
      }
      mustFireBy.put(timer, fireBy);
    }
  }
}
