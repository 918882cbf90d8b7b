package io.github.timerqueue.wheel;

import static io.github.timerqueue.wheel.WheelProbe.timersInLevel;
import static io.github.timerqueue.wheel.WheelProbe.wheel;
import static io.github.timerqueue.wheel.WheelProbe.where;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.timerqueue.TimerHandle;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Long seeded random runs: the structure's invariants after every operation, timers firing exactly
 * in the advance that enters the interval after their key, first in first out among equal
 * deadlines, and the cost bound of advancing. {@code -Dtimerqueue.soak=true} makes the runs 50
 * times longer.
 */
// Each run in a thread of its own: a structure broken into a loop never sees an interrupt.
@Timeout(value = 10, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TimingWheelRandomizedTest {
  private static final int SCALE = Boolean.getBoolean("timerqueue.soak") ? 50 : 1;

  static Stream<Arguments> configurations() {
    return Stream.of(
        Arguments.of("1", 1L),
        Arguments.of("2,2,2", 1L),
        Arguments.of("2,2,2", 7L),
        Arguments.of("3,1,2", 64L),
        Arguments.of("5,4,3,2,1", 3L),
        Arguments.of("11,10,10,10,10,10,1", 1L),
        Arguments.of("11,10,10,10,10,10,1", 1_000L));
  }

  @ParameterizedTest
  @MethodSource("configurations")
  void randomOperationsKeepTheInvariantsAndFireEachTimerInItsInterval(
      String levelBits, long resolution) {
    new ModelRun(levelBits, resolution, 31L * levelBits.hashCode() + resolution, false)
        .run(10_000 * SCALE);
  }

  /**
   * The same checks on flows of a few TTLs, most fired timers re-armed by their handler with one
   * of them and some other timer cancelled there: slots of level 1 fill in key order and stand in
   * for level 0's (the sorted bucket), and runs of timers armed into one slot file without a
   * lookup, while cancels empty the buckets they file into and advances pass them.
   */
  @ParameterizedTest
  @MethodSource("configurations")
  void ttlFlowsKeepTheInvariantsAndFireEachTimerInItsInterval(String levelBits, long resolution) {
    new ModelRun(levelBits, resolution, 17L * levelBits.hashCode() + resolution, true)
        .run(10_000 * SCALE);
  }

  @ParameterizedTest
  @ValueSource(strings = {"11,10,10,10,10,10,1", "8,8,8,8", "4,4,4,4,4,4", "2,2,2", "1"})
  void advancingByRandomAmountsNeverVisitsMoreSlotsThanOneRotationPerNonEmptyLevel(
      String levelBits) {
    SplittableRandom random = new SplittableRandom(levelBits.hashCode());
    TimingWheel<Long> wheel = wheel(levelBits, random.nextLong(), 1);
    long[] rearmed = {0};
    for (int i = 0; i < 3_000; i++) {
      wheel.schedule(wheel.now() + logUniform(random, 41), (long) i);
    }
    for (int advance = 0; advance < 5_000 * SCALE; advance++) {
      long oneRotationPerNonEmptyLevel = 0;
      long timersInLevels = 0;
      for (int level = 0; level < wheel.levels.length; level++) {
        int timers = timersInLevel(wheel, level);
        timersInLevels += timers;
        if (timers > 0) {
          oneRotationPerNonEmptyLevel += 1L << wheel.levels[level].bits;
        }
      }
      long visitsBefore = wheel.slotVisits;

      wheel.advance(wheel.now() + logUniform(random, 40), timer -> {
        rearmed[0]++;
        wheel.reschedule(timer, wheel.now() + logUniform(random, 41));
      });

      long visits = wheel.slotVisits - visitsBefore;
      assertThat(visits).as("advance %d", advance)
          .isLessThanOrEqualTo(oneRotationPerNonEmptyLevel)
          .isLessThanOrEqualTo(timersInLevels);
    }
    assertThat(wheel.size()).isEqualTo(3_000);
    assertThat(rearmed[0]).as("timers fired and were re-armed").isGreaterThan(5_000);
    TimingWheelInvariants.check(wheel);
  }

  /** A random value from 1 to 2^bits, each power of two about as likely as the others. */
  private static long logUniform(SplittableRandom random, int bits) {
    int bit = random.nextInt(bits);
    return (1L << bit) + random.nextLong(1L << bit);
  }

  /** A random mix of operations, each checked against what the wheel must do exactly. */
  private static final class ModelRun {
    private static final long MAX_ELAPSED = 1L << 61;

    private final TimingWheel<Long> wheel;
    private final long resolution;
    private final SplittableRandom random;
    private final boolean checkEveryOperation;
    /**
     * The TTLs of a TTL flow, or empty: most distances are one of them, and handlers re-arm most
     * fired timers with one, the way a service's sessions and leases flow.
     */
    private final long[] ttls;
    /** The timers the run still uses; stale ones are forgotten at random to keep it bounded. */
    private final List<Expected> known = new ArrayList<>();
    private final Map<Long, Expected> byPayload = new HashMap<>();
    private long nextPayload;
    private long elapsed;
    private long nextSequence;
    private int pending;

    /** What the model knows of one timer. */
    private static final class Expected {
      final TimerHandle<Long> handle;
      boolean pending;
      /** Armed with a deadline at or before the clock: due at the next advance. */
      boolean armedDue;
      boolean coarse;
      String coarseSlot;
      long key;
      long deadline;
      long sequence;

      Expected(TimerHandle<Long> handle) {
        this.handle = handle;
      }
    }

    ModelRun(String levelBits, long resolution, long seed, boolean ttlFlow) {
      this.random = new SplittableRandom(seed);
      this.wheel = wheel(levelBits, random.nextLong(), resolution);
      this.resolution = resolution;
      this.checkEveryOperation = WheelProbe.slots(wheel) < 4_096;
      this.ttls = ttlFlow ? ttlsOf(wheel) : new long[0];
    }

    /**
     * A TTL that lands in level 1 and one a slot of level 1 further (or in level 0 and the
     * overflow bucket for a wheel of one level), one in the top level and one in level 0, in
     * resolutions: runs of one key, and keys in order within a slot of level 1.
     */
    private long[] ttlsOf(TimingWheel<Long> wheel) {
      Level<Long>[] levels = wheel.levels;
      int shift1 = levels.length > 1 ? levels[1].shift : levels[0].bits;
      int shiftTop = levels[levels.length - 1].shift;
      long[] ticks = {(1L << shift1) + 1, (3L << shift1) - 1, (1L << shiftTop) + 5, 2};
      long[] result = new long[ticks.length];
      for (int i = 0; i < ticks.length; i++) {
        result[i] = ticks[i] * resolution;
      }
      return result;
    }

    void run(int operations) {
      for (int op = 0; op < operations; op++) {
        int roll = random.nextInt(100);
        if (roll < 30 && pending < 1_000) {
          schedule();
        } else if (roll < 40 && pending < 1_000) {
          scheduleWithin();
        } else if (roll < 52) {
          reschedule();
        } else if (roll < 62) {
          cancel();
        } else if (roll < 90) {
          advance();
        } else if (roll < 99) {
          checkNextExpiryDelay();
        } else if (random.nextBoolean()) {
          wheel.clear();
          known.forEach(model -> model.pending = false);
          pending = 0;
        } else {
          wheel.drain(timer -> byPayload.get(timer.payload()).pending = false);
          pending = 0;
        }
        assertThat(wheel.size()).isEqualTo(pending);
        if (checkEveryOperation || op % 50 == 0) {
          TimingWheelInvariants.check(wheel);
          checkCoarseTimersStayPut();
        }
      }
    }

    private void schedule() {
      long deadline = wheel.now() + randomDistance();
      TimerHandle<Long> timer = wheel.schedule(deadline, nextPayload++);
      arm(remember(timer), timer, deadline);
    }

    private void scheduleWithin() {
      long earliest = wheel.now() + randomDistance();
      long latest = earliest + Math.min(logUniform(random, 40) - 1, Long.MAX_VALUE / 4);
      TimerHandle<Long> timer = wheel.scheduleWithin(earliest, latest, nextPayload++);
      assertThat(timer.deadline() - earliest).as("chosen before earliest").isNotNegative();
      assertThat(latest - timer.deadline()).as("chosen after latest").isNotNegative();
      arm(remember(timer), timer, timer.deadline());
    }

    private Expected remember(TimerHandle<Long> timer) {
      Expected model = new Expected(timer);
      known.add(model);
      byPayload.put(timer.payload(), model);
      if (known.size() > 4_000) {
        int victim = random.nextInt(known.size());
        Expected forgotten = known.get(victim);
        if (!forgotten.pending && forgotten != model) {
          known.set(victim, known.get(known.size() - 1));
          known.remove(known.size() - 1);
          byPayload.remove(forgotten.handle.payload());
        }
      }
      return model;
    }

    private void reschedule() {
      if (known.isEmpty()) {
        return;
      }
      Expected model = known.get(random.nextInt(known.size()));
      TimerHandle<Long> timer = model.handle;
      long deadline = wheel.now() + randomDistance();
      assertThat(wheel.reschedule(timer, deadline)).isEqualTo(model.pending);
      if (model.pending) {
        pending--;
      }
      arm(model, timer, deadline);
    }

    private void cancel() {
      if (known.isEmpty()) {
        return;
      }
      Expected model = known.get(random.nextInt(known.size()));
      TimerHandle<Long> timer = model.handle;
      assertThat(wheel.cancel(timer)).isEqualTo(model.pending);
      if (model.pending) {
        pending--;
        model.pending = false;
      }
    }

    private void arm(Expected model, TimerHandle<Long> timer, long deadline) {
      long distance = deadline - wheel.now();
      model.pending = true;
      model.deadline = deadline;
      model.sequence = nextSequence++;
      model.armedDue = distance <= 0;
      model.key = model.armedDue ? 0 : Long.divideUnsigned(elapsed + distance - 1, resolution);
      String where = where(wheel, timer);
      model.coarse = where.startsWith("coarse");
      model.coarseSlot = WheelProbe.slotOf(timer);
      assertThat(where.equals("due")).as("%s armed %d ahead", where, distance)
          .isEqualTo(model.armedDue);
      pending++;
    }

    private void advance() {
      long step;
      int kind = random.nextInt(100);
      if (kind < 5) {
        step = -random.nextLong(1, 1_000);
      } else if (kind < 10) {
        step = 0;
      } else if (kind < 70) {
        step = random.nextLong(1, 4 * resolution + 2);
      } else if (kind < 97 || elapsed > MAX_ELAPSED / 2) {
        step = random.nextLong(1, 1L << 16);
      } else {
        step = logUniform(random, 40);
      }
      if (step > 0) {
        elapsed += step;
      }
      long intervalNum = Long.divideUnsigned(elapsed, resolution);
      List<Fired> fired = new ArrayList<>();

      wheel.advance(wheel.now() + step, timer -> {
        assertThat(timer.isPending()).isFalse();
        Expected model = byPayload.get(timer.payload());
        assertThat(model.pending).as("fired a timer that was not pending").isTrue();
        assertThat(model.armedDue || Long.compareUnsigned(model.key, intervalNum) < 0)
            .as("fired timer #%d with key %d in interval %d", timer.payload(), model.key,
                intervalNum)
            .isTrue();
        model.pending = false;
        pending--;
        fired.add(new Fired(model));
        if (ttls.length > 0) {
          handleInFlow(model);
        }
      });

      for (Expected model : known) {
        if (model.pending
            && (model.armedDue || Long.compareUnsigned(model.key, intervalNum) < 0)) {
          throw new AssertionError(
              "a timer with key " + model.key + " did not fire in interval " + intervalNum);
        }
      }
      checkFirstInFirstOut(fired);
    }

    /**
     * What a handler of a TTL flow does with a fired timer: re-arms it with a TTL most of the
     * time, and now and then cancels another timer, which may empty a bucket that filing by key
     * has cached or the sorted bucket being handed out.
     */
    private void handleInFlow(Expected model) {
      TimerHandle<Long> timer = model.handle;
      if (random.nextInt(10) < 8) {
        long deadline = wheel.now() + ttls[random.nextInt(ttls.length)];
        assertThat(wheel.reschedule(timer, deadline)).isFalse();
        arm(model, timer, deadline);
      }
      if (random.nextInt(10) == 0) {
        cancel();
      }
    }

    /** A fired timer as it was when it fired, before its handler re-armed it. */
    private static final class Fired {
      final String kind;
      final long sequence;

      Fired(Expected model) {
        kind = model.deadline + (model.armedDue ? " due" : model.coarse ? " coarse" : "");
        sequence = model.sequence;
      }
    }

    /** Timers with the same deadline and kind fire in arming order. */
    private static void checkFirstInFirstOut(List<Fired> fired) {
      Map<String, Long> lastSequence = new HashMap<>();
      for (Fired timer : fired) {
        Long previous = lastSequence.put(timer.kind, timer.sequence);
        assertThat(previous == null || previous < timer.sequence)
            .as("timers with deadline %s fired out of arming order", timer.kind).isTrue();
      }
    }

    private void checkNextExpiryDelay() {
      long delay = wheel.nextExpiryDelay();
      long expectedDelay = Long.MAX_VALUE;
      for (Expected model : known) {
        if (!model.pending) {
          continue;
        }
        long firesIn = model.armedDue ? 0 : (model.key + 1) * resolution - elapsed;
        if (Long.compareUnsigned(firesIn, Long.MAX_VALUE - 1) > 0) {
          firesIn = Long.MAX_VALUE - 1;
        }
        expectedDelay = Math.min(expectedDelay, firesIn);
      }
      assertThat(delay).isEqualTo(expectedDelay);
    }

    private void checkCoarseTimersStayPut() {
      for (Expected model : known) {
        if (model.pending && model.coarse
            && !WheelProbe.slotOf(model.handle).equals(model.coarseSlot)) {
          throw new AssertionError("a coarse timer moved: " + model.handle);
        }
      }
    }

    private long randomDistance() {
      if (ttls.length > 0 && random.nextInt(4) != 0) {
        return ttls[random.nextInt(ttls.length)];
      }
      int kind = random.nextInt(100);
      if (kind < 5) {
        return -random.nextLong(0, 1L << random.nextInt(1, 63));
      } else if (kind < 8) {
        return 0;
      } else if (kind < 10) {
        return Long.MAX_VALUE - random.nextLong(0, 4);
      } else if (kind < 55) {
        return random.nextLong(1, 8 * resolution + 8);
      } else if (kind < 80) {
        return random.nextLong(1, 1L << 16);
      } else if (kind < 95) {
        return random.nextLong(1, 1L << 32);
      }
      return random.nextLong(1, 1L << 60);
    }
  }
}
