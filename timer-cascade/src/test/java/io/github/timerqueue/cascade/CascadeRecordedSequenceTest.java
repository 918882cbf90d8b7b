package io.github.timerqueue.cascade;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.timerqueue.TimerConfig;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A recorded (seeded) sequence of about a thousand adds, deletes and moves, drained through the
 * earliest-deadline loop of an event loop ({@code advance(now() + nextExpiryDelay())}): every delay
 * is exact, every step fires exactly the timers whose rounded-up deadline it reaches, in order, and
 * the structure ends empty and consistent, with no stale low-water mark or bit left.
 */
class CascadeRecordedSequenceTest {
  private static final long RECORDING_SEED = 0xCA5CADEL;
  private static final int OPERATIONS = 1000;

  /** What the test knows of a timer: when it must fire, as an unsigned distance from the start. */
  private record Expected(CascadeTimer<Integer> timer, long fireKey) {}

  @ParameterizedTest(name = "levelBits {0}, resolution {1}, start {2}")
  @CsvSource({
    "2, 1, 0",
    "3, 7, -9223372036854775808",
    "8, 1, 9223372036854775000",
    "8, 1000, -5",
    "5, 64, 123456789"
  })
  void aRecordedSequenceOfAddsAndDeletesDrainsEmptyAndConsistent(
      int bits, long resolution, long start) {
    SplittableRandom random = new SplittableRandom(RECORDING_SEED + 31L * bits + resolution);
    CascadeTimerQueue<Integer> queue = new CascadeTimerQueue<>(
        TimerConfig.builder().startTime(start).resolution(resolution).build(), bits);
    queue.advance(start + random.nextLong(1, 1L << 20), timer -> {});
    List<Expected> pending = new ArrayList<>();

    for (int op = 0; op < OPERATIONS; op++) {
      int roll = random.nextInt(100);
      if (pending.isEmpty() || roll < 60) {
        long deadline = randomDeadline(queue, random);
        CascadeTimer<Integer> timer = (CascadeTimer<Integer>) queue.schedule(deadline, op);
        pending.add(new Expected(timer, fireKey(queue, start, resolution, deadline)));
      } else if (roll < 85) {
        Expected victim = pending.remove(random.nextInt(pending.size()));
        assertThat(queue.cancel(victim.timer())).isTrue();
        CascadeInvariants.checkNotPending(queue, victim.timer());
      } else {
        int index = random.nextInt(pending.size());
        CascadeTimer<Integer> timer = pending.get(index).timer();
        long deadline = randomDeadline(queue, random);
        assertThat(queue.reschedule(timer, deadline)).isTrue();
        pending.set(index, new Expected(timer, fireKey(queue, start, resolution, deadline)));
      }
      CascadeInvariants.check(queue);
    }
    assertThat(queue.size()).isEqualTo(pending.size());

    pending.sort(Comparator.comparingLong(expected -> expected.fireKey() ^ Long.MIN_VALUE));
    int next = 0;
    while (true) {
      long delay = queue.nextExpiryDelay();
      if (next == pending.size()) {
        assertThat(delay).isEqualTo(Long.MAX_VALUE);
        break;
      }
      long elapsed = queue.now() - start;
      long fireKey = pending.get(next).fireKey();
      long expectedDelay = Long.compareUnsigned(fireKey, elapsed) <= 0 ? 0 : fireKey - elapsed;
      assertThat(delay).as("delay at +%d from the start", elapsed).isEqualTo(expectedDelay);

      List<CascadeTimer<Integer>> fired = new ArrayList<>();
      queue.advance(queue.now() + delay, timer -> fired.add((CascadeTimer<Integer>) timer));
      long reached = queue.now() - start;
      int firstOfStep = next;
      while (next < pending.size()
          && Long.compareUnsigned(pending.get(next).fireKey(), reached) <= 0) {
        next++;
      }
      List<CascadeTimer<Integer>> due = new ArrayList<>();
      for (Expected expected : pending.subList(firstOfStep, next)) {
        due.add(expected.timer());
      }
      assertThat(fired).as("fired at +%d from the start", reached)
          .isNotEmpty().containsExactlyInAnyOrderElementsOf(due);
      for (CascadeTimer<Integer> timer : fired) {
        assertThat(queue.now() - timer.deadline()).as("never early").isNotNegative();
      }
      CascadeInvariants.check(queue);
    }

    assertThat(queue.size()).isZero();
    CascadeInvariants.check(queue);
    assertThat(queue.far.isEmpty()).isTrue();
    assertThat(queue.due.isEmpty()).isTrue();
    for (int level = 0; level < queue.levelCount; level++) {
      Level wheelLevel = queue.levels[level];
      assertThat(wheelLevel.lowWater).as("low-water mark of level %d", level)
          .isEqualTo(CascadeTimerQueue.NO_TICK);
      assertThat(wheelLevel.occupied).as("bits of level %d", level).containsOnly(0L);
    }
    assertThat(queue.farMark.lowWater).isEqualTo(CascadeTimerQueue.NO_TICK);
  }

  /** Deadlines at every scale: due already, within a few ticks, and up to 2^45 away. */
  private static long randomDeadline(CascadeTimerQueue<Integer> queue, SplittableRandom random) {
    int kind = random.nextInt(10);
    if (kind == 0) {
      return queue.now() - random.nextLong(0, 1_000);
    }
    if (kind < 4) {
      return queue.now() + random.nextLong(1, 2_000);
    }
    int scale = random.nextInt(1, 46);
    return queue.now() + (1L << scale) + random.nextLong(-(1L << (scale - 1)), 1L << (scale - 1));
  }

  /**
   * The unsigned distance from the start at which a deadline must fire: the clock itself if it is
   * due, else the deadline rounded up to the resolution.
   */
  private static long fireKey(
      CascadeTimerQueue<Integer> queue, long start, long resolution, long deadline) {
    long elapsed = queue.now() - start;
    if (deadline - queue.now() <= 0) {
      return elapsed;
    }
    long key = elapsed + (deadline - queue.now());
    long ticks = Long.divideUnsigned(key + resolution - 1, resolution);
    return ticks * resolution;
  }
}
