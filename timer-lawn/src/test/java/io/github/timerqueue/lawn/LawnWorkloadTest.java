package io.github.timerqueue.lawn;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerHandle;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Seeded random workloads, with the structure checked by {@link LawnInvariants} as they run: one
 * that keeps to the paper's assumption and mixes in every operation and every kind of handler
 * behaviour, and one that breaks the assumption with thousands of distinct TTLs.
 */
class LawnWorkloadTest {
  /** Operations per randomized run; the soak property raises it as for the conformance suite. */
  private static final int OPERATIONS =
      Math.max(1_000, Integer.getInteger("timerqueue.conformance.ops", 100_000) / 5);

  @ParameterizedTest(name = "start {0}, resolution {1}")
  @CsvSource({
    "0, 1",
    "9223372036854770000, 1",
    "-9223372036854775808, 10",
    "-3, 64",
    "12345, 1000",
  })
  void randomOperationsKeepTheInvariantsAndHandOutInExpiryOrder(long start, long resolution) {
    new RandomRun(start, resolution, start * 31 + resolution).run(OPERATIONS);
  }

  @ParameterizedTest(name = "resolution {0}")
  @CsvSource({"1", "7", "1000"})
  void thousandsOfDistinctTtlsStillMeetTheContract(long resolution) {
    SplittableRandom random = new SplittableRandom(resolution);
    LawnTimerQueue<Integer> lawn = new LawnTimerQueue<>(
        TimerConfig.builder().startTime(-1_000_000).resolution(resolution).build());
    Map<TimerHandle<Integer>, Boolean> live = new IdentityHashMap<>();
    Set<Long> distances = new HashSet<>();
    for (int i = 0; i < 5_000; i++) {
      long distance;
      do {
        distance = random.nextLong(1, 1L << 30);
      } while (!distances.add(distance));
      live.put(lawn.schedule(lawn.now() + distance, i), true);
      if (i % 500 == 499) {
        lawn.advance(lawn.now() + random.nextLong(resolution), timer -> live.remove(timer));
      }
    }
    LawnInvariants.check(lawn);
    // Over 4,000 distinct TTLs, in random order: the map's TTL queues, and shared queues for the
    // rest, about two per square root of their timers (patience sorting), not one per TTL.
    assertThat(lawn.queuesByTtl.size()).isEqualTo(LawnTimerQueue.TTL_QUEUES);
    assertThat(lawn.shared.count()).as("shared queues").isBetween(2, 300);

    List<TimerHandle<Integer>> all = new ArrayList<>(live.keySet());
    int steps = 0;
    while (lawn.size() > 0) {
      long delay = lawn.nextExpiryDelay();
      assertThat(delay).isBetween(1L, Long.MAX_VALUE - 1);
      if (delay > 1) {
        assertThat(lawn.advance(lawn.now() + delay - 1, timer -> live.remove(timer)))
            .as("fired before the delay ran out").isZero();
      }
      long target = lawn.now() + 1;
      List<TimerHandle<Integer>> fired = new ArrayList<>();
      int count = lawn.advance(target, fired::add);
      assertThat(count).as("the delay is exact, so advancing by it fires something").isPositive();
      for (TimerHandle<Integer> timer : fired) {
        assertThat(live.remove(timer)).as("fired once, and only a pending timer").isTrue();
        assertThat(target - timer.deadline()).as("fired early").isGreaterThanOrEqualTo(0);
        assertThat(target - timer.deadline()).as("fired later than the resolution allows")
            .isLessThan(resolution);
      }
      if (++steps % 50 == 0) {
        // Keep the TTLs churning: move a few timers, cancel a few.
        for (int i = 0; i < 20; i++) {
          TimerHandle<Integer> timer = all.get(random.nextInt(all.size()));
          if (random.nextBoolean()) {
            lawn.reschedule(timer, lawn.now() + random.nextLong(1, 1L << 30));
            live.put(timer, true);
          } else if (lawn.cancel(timer)) {
            live.remove(timer);
          }
        }
        LawnInvariants.check(lawn);
      }
    }
    assertThat(live).isEmpty();
    assertThat(lawn.index.size()).isZero();
    assertThat(lawn.queuesByTtl.size()).isZero();
    assertThat(lawn.shared.count()).isZero();
  }

  /** One seeded run of random operations, checking the structure after each. */
  private static final class RandomRun {
    private static final int MAX_HANDLES = 2_000;

    private final LawnTimerQueue<Long> lawn;
    private final long resolution;
    private final SplittableRandom random;
    private final long[] commonTtls;
    private final List<TimerHandle<Long>> handles = new ArrayList<>();
    private long nextPayload;
    private final long start;
    /**
     * The timers last armed with a deadline already due (TTL 0), each with a number counting the
     * armings, so that their order can be checked when they fire.
     */
    private final Map<TimerHandle<Long>, Long> armedDue = new IdentityHashMap<>();
    private long armings;
    /**
     * When each timer must have fired, as an unsigned distance from the start time (its deadline
     * rounded up to the resolution, the clock when it was armed for a deadline already due, {@code
     * 2^64 - 1} when that saturates): what the {@code limit} rule of {@code advance} is checked
     * against.
     */
    private final Map<TimerHandle<Long>, Long> mustFireBy = new IdentityHashMap<>();
    /** The timers armed by a handler of the running advance, which it must not fire. */
    private final Map<TimerHandle<Long>, Boolean> armedInAdvance = new IdentityHashMap<>();
    private boolean inAdvance;
    private int shortLimitedAdvances;
    /**
     * The expiry of the timer armed ahead handed out last in the running advance (unsigned), and
     * the arming number of the timer armed due handed out last.
     */
    private long lastExpiry;
    private long lastDueArming;
    private int largestSize;
    private int mostTtls;
    private int fired;
    private int throwingAdvances;
    private int limitedAdvances;

    RandomRun(long start, long resolution, long seed) {
      this.lawn = new LawnTimerQueue<>(
          TimerConfig.builder().startTime(start).resolution(resolution).build());
      this.resolution = resolution;
      this.start = start;
      this.random = new SplittableRandom(seed);
      // The paper's regime: a few TTLs used again and again.
      this.commonTtls = new long[] {
        1, resolution, 3 * resolution + 1, 100 * resolution, 12_345, 999 * resolution
      };
    }

    void run(int operations) {
      for (int op = 0; op < operations; op++) {
        String operation = step();
        try {
          LawnInvariants.check(lawn);
          int[] visited = {0};
          lawn.forEach(timer -> visited[0]++);
          if (visited[0] != lawn.size()) {
            throw new AssertionError("forEach visited " + visited[0] + " of " + lawn.size());
          }
        } catch (AssertionError broken) {
          throw new AssertionError("after operation #" + op + " " + operation + ": "
              + broken.getMessage(), broken);
        }
        largestSize = Math.max(largestSize, lawn.size());
        mostTtls = Math.max(mostTtls, lawn.index.size());
      }
      // The run must have reached the states it is meant to check.
      assertThat(largestSize).as("largest size").isGreaterThan(200);
      assertThat(mostTtls).as("most distinct TTLs").isGreaterThan(20);
      assertThat(fired).as("timers fired").isGreaterThan(operations / 4);
      assertThat(throwingAdvances).as("advances whose handler threw").isPositive();
      assertThat(limitedAdvances).as("advances with a limit").isPositive();
      assertThat(shortLimitedAdvances).as("limited advances that fired fewer").isPositive();
    }

    private String step() {
      int roll = random.nextInt(2000);
      if (lawn.size() > 1_500) {
        roll = 1_000 + random.nextInt(1_000);
      }
      if (roll < 600) {
        return "schedule " + schedule();
      } else if (roll < 740) {
        long earliest = lawn.now() + distance();
        long latest = earliest + random.nextLong(4 * resolution);
        remember(armed(lawn.scheduleWithin(earliest, latest, nextPayload++)));
        return "scheduleWithin";
      } else if (roll < 960) {
        if (handles.isEmpty()) {
          return "nothing to reschedule";
        }
        TimerHandle<Long> timer = pick();
        lawn.reschedule(timer, lawn.now() + distance());
        armed(timer);
        return "reschedule";
      } else if (roll < 1_120) {
        if (handles.isEmpty()) {
          return "nothing to cancel";
        }
        lawn.cancel(pick());
        return "cancel";
      } else if (roll < 1_998) {
        return advance();
      } else if (roll == 1_998) {
        lawn.drain(timer -> {});
        return "drain";
      }
      lawn.clear();
      return "clear";
    }

    private String schedule() {
      long deadline = lawn.now() + distance();
      remember(armed(lawn.schedule(deadline, nextPayload++)));
      return Long.toString(deadline - lawn.now());
    }

    private String advance() {
      int kind = random.nextInt(10);
      long target = lawn.now() + (kind == 0 ? -random.nextLong(100)
          : kind == 1 ? random.nextLong(3 * resolution + 2) : random.nextLong(resolution / 2 + 2));
      int limit = random.nextInt(8) == 0 ? 1 + random.nextInt(4) : Integer.MAX_VALUE;
      boolean throwing = random.nextInt(40) == 0;
      int[] handedOut = {0};
      lastExpiry = 0;
      lastDueArming = -1;
      Consumer<TimerHandle<Long>> handler = timer -> {
        handedOut[0]++;
        fired++;
        Long dueArming = armedDue.remove(timer);
        if (dueArming == null) {
          long expiry = roundedUp(timer.deadline() - start);
          if (Long.compareUnsigned(expiry, lastExpiry) < 0) {
            throw new AssertionError("handed out " + timer + " expiring at "
                + Long.toUnsignedString(expiry) + " after one expiring at "
                + Long.toUnsignedString(lastExpiry));
          }
          lastExpiry = expiry;
        } else {
          if (dueArming < lastDueArming) {
            throw new AssertionError("handed out " + timer + ", armed due, after one armed due"
                + " later");
          }
          lastDueArming = dueArming;
        }
        if (lawn.now() - timer.deadline() < 0) {
          throw new AssertionError("fired " + timer + " early, at " + lawn.now());
        }
        reactInHandler(timer);
        if (throwing && handedOut[0] == 2) {
          throw new IllegalStateException("handler failed on purpose");
        }
      };
      armedInAdvance.clear();
      inAdvance = true;
      int count;
      try {
        count = lawn.advance(target, handler, limit);
      } catch (IllegalStateException expected) {
        throwingAdvances++;
        return "advance that threw";
      } finally {
        inAdvance = false;
      }
      if (limit != Integer.MAX_VALUE) {
        limitedAdvances++;
        if (count < limit && count > 0) {
          shortLimitedAdvances++;
        }
      }
      if (count < limit) {
        checkNothingLeftThatWasToFire(count, limit);
      }
      return "advance to now" + (target - lawn.now() >= 0 ? "+" : "") + (target - lawn.now());
    }

    /**
     * The {@code limit} rule: an advance that fired fewer than its limit left no timer pending
     * that was to fire by now, except those its handlers armed.
     */
    private void checkNothingLeftThatWasToFire(int count, int limit) {
      long elapsed = lawn.elapsed();
      lawn.forEach(timer -> {
        long by = mustFireBy.get(timer);
        if (Long.compareUnsigned(by, elapsed) <= 0 && !armedInAdvance.containsKey(timer)) {
          throw new AssertionError("advance fired " + count + " of a limit of " + limit
              + " but left " + timer + ", to fire by +" + Long.toUnsignedString(by)
              + ", at +" + Long.toUnsignedString(elapsed));
        }
      });
    }

    /** The timer the running advance hands out next, or {@code null} if none is left due. */
    private TimerHandle<Long> nextToFire() {
      if (lawn.index.isEmpty()
          || Long.compareUnsigned(lawn.index.firstExpiry(), lawn.elapsed()) > 0) {
        return null;
      }
      return lawn.index.first().first();
    }

    /**
     * Re-arm the timer handed out, schedule another, cancel another or one of the running batch,
     * re-arm one of the batch, or clear everything.
     */
    private void reactInHandler(TimerHandle<Long> timer) {
      int roll = random.nextInt(1_000);
      if (roll >= 950 && nextToFire() != null) {
        // A timer that this advance is to hand out, before its turn.
        TimerHandle<Long> batched = nextToFire();
        if (roll < 975) {
          lawn.cancel(batched);
        } else {
          lawn.reschedule(batched, lawn.now() + random.nextLong(-2, 3 * resolution));
          armed(batched);
        }
      } else if (roll < 100) {
        lawn.reschedule(timer, lawn.now() + commonTtls[random.nextInt(commonTtls.length)]);
        armed(timer);
      } else if (roll < 150) {
        remember(armed(lawn.schedule(lawn.now() - random.nextLong(3), nextPayload++)));
      } else if (roll < 250 && !handles.isEmpty()) {
        lawn.cancel(pick());
      } else if (roll == 250) {
        lawn.clear();
      }
    }

    private long distance() {
      int kind = random.nextInt(100);
      if (kind < 70) {
        return commonTtls[random.nextInt(commonTtls.length)];
      } else if (kind < 80) {
        return -random.nextLong(1_000);
      } else if (kind < 95) {
        return random.nextLong(20 * resolution);
      }
      return random.nextLong(Long.MAX_VALUE);
    }

    /** Notes whether a timer just armed was armed with a deadline already due; returns it. */
    private TimerHandle<Long> armed(TimerHandle<Long> timer) {
      long distance = timer.deadline() - lawn.now();
      long elapsed = lawn.elapsed();
      if (distance <= 0) {
        armedDue.put(timer, armings++);
        mustFireBy.put(timer, elapsed);
      } else {
        armedDue.remove(timer);
        long fromStart = elapsed + distance;
        long expiry = roundedUp(fromStart);
        boolean saturates = Long.compareUnsigned(fromStart, elapsed) < 0
            || Long.compareUnsigned(expiry, fromStart) < 0;
        mustFireBy.put(timer, saturates ? -1L : expiry);
      }
      if (inAdvance) {
        armedInAdvance.put(timer, true);
      }
      return timer;
    }

    /** A distance from the start time rounded up to the resolution: a timer's expiry. */
    private long roundedUp(long fromStart) {
      return (Long.divideUnsigned(fromStart - 1, resolution) + 1) * resolution;
    }

    private TimerHandle<Long> pick() {
      return handles.get(random.nextInt(handles.size()));
    }

    private void remember(TimerHandle<Long> timer) {
      if (handles.size() < MAX_HANDLES) {
        handles.add(timer);
      } else {
        handles.set(random.nextInt(MAX_HANDLES), timer);
      }
    }
  }
}
