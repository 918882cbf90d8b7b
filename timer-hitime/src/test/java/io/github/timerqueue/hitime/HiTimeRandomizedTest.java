package io.github.timerqueue.hitime;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerHandle;
import io.github.timerqueue.TimerQueue;
import io.github.timerqueue.TimerQueues;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Seeded random mixes of every operation. The first checks the structure with {@link
 * HiTimeInvariants} after every operation, and inside a random eighth of the handlers; the second checks that with
 * resolution 1 {@code hitime} is exact, by firing in every advance exactly the timers that the
 * exact {@code heap} fires. The number of operations follows the conformance suite's {@code
 * timerqueue.conformance.ops} property.
 */
// Each run in a thread of its own: a structure broken into a loop never sees an interrupt.
@Timeout(value = 10, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HiTimeRandomizedTest {
  private static final int OPERATIONS =
      Math.max(1, Integer.getInteger("timerqueue.conformance.ops", 100_000) / 5);
  /** Every pending timer is among the handles kept, so this also bounds the queue's size. */
  private static final int MAX_HANDLES = 1_000;
  /** How often a handler of the differential run re-arms one timer, so that none fires forever. */
  private static final int REARMS_PER_TIMER = 2;

  /**
   * With {@code freeHeld} 0 the low bins may hold by id only an eighth of the queue's timers, a
   * bound that these queues of up to a thousand timers cross, so that bins held by id move their
   * timers into their buckets as well as taking timers by id.
   */
  @ParameterizedTest
  @CsvSource({
    "1, 0, " + HiTimeTimerQueue.FREE_HELD,
    "1, -9223372036854775808, " + HiTimeTimerQueue.FREE_HELD,
    "3, 9223372036854775000, " + HiTimeTimerQueue.FREE_HELD,
    "64, -1, " + HiTimeTimerQueue.FREE_HELD,
    "1000, 6148914691236517205, " + HiTimeTimerQueue.FREE_HELD,
    "1, 0, 0",
    "1, -9223372036854775808, 0",
    "3, 9223372036854775000, 0",
  })
  void structureStaysValidThroughRandomOperations(long resolution, long start, int freeHeld) {
    SplittableRandom random = new SplittableRandom(start ^ resolution);
    HiTimeTimerQueue<Integer> queue = new HiTimeTimerQueue<>(
        TimerConfig.builder().startTime(start).resolution(resolution).build(), freeHeld);
    List<TimerHandle<Integer>> handles = new ArrayList<>();
    RuntimeException failure = new RuntimeException("handler failed on purpose");

    for (int op = 0; op < OPERATIONS; op++) {
      int roll = random.nextInt(100);
      String what = "operation " + op + " (roll " + roll + ")";
      if (roll < 30 || handles.isEmpty()) {
        remember(queue, handles, queue.schedule(randomDeadline(random, queue, resolution), op),
            random);
      } else if (roll < 38) {
        long earliest = randomDeadline(random, queue, resolution);
        long latest = earliest + random.nextLong(0, 1L << random.nextInt(1, 40));
        boolean wraps = earliest - queue.now() > 0 && latest - queue.now() < 0;
        long end = wraps ? queue.now() + Long.MAX_VALUE : latest;
        TimerHandle<Integer> timer = queue.scheduleWithin(earliest, latest, op);
        assertThat(timer.deadline() - earliest).as(what).isNotNegative();
        assertThat(end - timer.deadline()).as(what).isNotNegative();
        remember(queue, handles, timer, random);
      } else if (roll < 50) {
        TimerHandle<Integer> timer = handles.get(random.nextInt(handles.size()));
        boolean wasPending = timer.isPending();
        assertThat(queue.reschedule(timer, randomDeadline(random, queue, resolution)))
            .as(what).isEqualTo(wasPending);
      } else if (roll < 62) {
        TimerHandle<Integer> timer = handles.get(random.nextInt(handles.size()));
        boolean wasPending = timer.isPending();
        assertThat(queue.cancel(timer)).as(what).isEqualTo(wasPending);
      } else if (roll < 90) {
        long target = queue.now() + randomStep(random, resolution);
        int limit = random.nextInt(8) == 0 ? 1 + random.nextInt(4) : Integer.MAX_VALUE;
        boolean throwing = random.nextInt(30) == 0;
        Consumer<TimerHandle<Integer>> handler = timer -> {
          assertThat(timer.deadline() - queue.now()).as(what + ": fired early").isNotPositive();
          boolean checkInHandler = random.nextInt(8) == 0;
          if (checkInHandler) {
            HiTimeInvariants.check(queue);
          }
          int reaction = random.nextInt(12);
          if (reaction == 0) {
            queue.reschedule(timer, queue.now() + random.nextLong(-2, 3 * resolution));
          } else if (reaction == 1) {
            remember(queue, handles, queue.schedule(queue.now() + random.nextLong(-2, 3), -1),
                random);
          } else if (reaction == 2) {
            queue.cancel(handles.get(random.nextInt(handles.size())));
          } else if (reaction == 3 && throwing) {
            throw failure;
          }
          if (checkInHandler) {
            HiTimeInvariants.check(queue);
          }
        };
        try {
          assertThat(queue.advance(target, handler, limit)).as(what).isLessThanOrEqualTo(limit);
        } catch (RuntimeException thrown) {
          assertThat(thrown).as(what).isSameAs(failure);
        }
      } else if (roll < 97) {
        long delay = queue.nextExpiryDelay();
        assertThat(delay == Long.MAX_VALUE).as(what).isEqualTo(queue.size() == 0);
        if (delay > 1 && delay < Long.MAX_VALUE && random.nextBoolean()) {
          long before = queue.now() + Math.min(delay - 1, 1L << 40);
          assertThat(queue.advance(before, timer -> {})).as(what + ": fired within the delay")
              .isZero();
        }
      } else if (roll < 99) {
        List<TimerHandle<Integer>> visited = new ArrayList<>();
        queue.forEach(visited::add);
        assertThat(visited).as(what).hasSize(queue.size()).allMatch(TimerHandle::isPending);
      } else if (random.nextBoolean()) {
        queue.clear();
      } else {
        queue.drain(timer -> assertThat(timer.isPending()).isFalse());
      }
      HiTimeInvariants.check(queue);
    }
  }

  /**
   * The clock first moves {@code headStart} units, read as unsigned, with no timer pending: from
   * 2<sup>63</sup> units on, a re-examined bin files each timer by its tick (distances from the
   * start time may saturate at the end of the clock), below that by its deadline.
   */
  @ParameterizedTest
  @CsvSource({
    "0, 0, " + HiTimeTimerQueue.FREE_HELD,
    "-9223372036854775808, 0, " + HiTimeTimerQueue.FREE_HELD,
    "9223372036854774807, 0, " + HiTimeTimerQueue.FREE_HELD,
    "1311768467463790320, 0, " + HiTimeTimerQueue.FREE_HELD,
    "0, -9223372036854775000, " + HiTimeTimerQueue.FREE_HELD,
    "1311768467463790320, -4611686018427387904, " + HiTimeTimerQueue.FREE_HELD,
    "0, 0, 0",
    "0, -9223372036854775000, 0",
  })
  void withResolutionOneItFiresInEachAdvanceExactlyWhatTheExactHeapFires(
      long start, long headStart, int freeHeld) {
    SplittableRandom random = new SplittableRandom(start ^ headStart);
    TimerConfig config = TimerConfig.builder().startTime(start).build();
    HiTimeTimerQueue<Integer> hitime = new HiTimeTimerQueue<>(config, freeHeld);
    TimerQueue<Integer> heap = TimerQueues.create("heap", config);
    for (long left = headStart; left != 0; ) {
      long step = left < 0 ? Long.MAX_VALUE : left;
      assertThat(hitime.advance(hitime.now() + step, timer -> {})).isZero();
      assertThat(heap.advance(heap.now() + step, timer -> {})).isZero();
      left -= step;
    }
    List<TimerHandle<Integer>> hitimeHandles = new ArrayList<>();
    List<TimerHandle<Integer>> heapHandles = new ArrayList<>();
    int[] hitimeRearms = new int[OPERATIONS];
    int[] heapRearms = new int[OPERATIONS];
    int fired = 0;

    for (int op = 0; op < OPERATIONS; op++) {
      int roll = random.nextInt(100);
      String what = "operation " + op + " (roll " + roll + ")";
      if (roll < 35 || hitimeHandles.isEmpty()) {
        long deadline = randomDeadline(random, hitime, 1);
        hitimeHandles.add(hitime.schedule(deadline, op));
        heapHandles.add(heap.schedule(deadline, op));
      } else if (roll < 50) {
        int index = random.nextInt(hitimeHandles.size());
        long deadline = randomDeadline(random, hitime, 1);
        assertThat(hitime.reschedule(hitimeHandles.get(index), deadline)).as(what)
            .isEqualTo(heap.reschedule(heapHandles.get(index), deadline));
      } else if (roll < 60) {
        int index = random.nextInt(hitimeHandles.size());
        assertThat(hitime.cancel(hitimeHandles.get(index))).as(what)
            .isEqualTo(heap.cancel(heapHandles.get(index)));
      } else if (roll < 90) {
        long target = hitime.now() + randomStep(random, 1);
        Set<Integer> firedByHitime = new HashSet<>();
        Set<Integer> firedByHeap = new HashSet<>();
        // Handlers re-arm some timers, decided by payload so that both queues do the same.
        hitime.advance(target, timer -> {
          firedByHitime.add(timer.payload());
          if (timer.payload() % 5 == 0 && hitimeRearms[timer.payload()]++ < REARMS_PER_TIMER) {
            hitime.reschedule(timer, hitime.now() + timer.payload() % 7 - 2);
          }
        });
        heap.advance(target, timer -> {
          firedByHeap.add(timer.payload());
          if (timer.payload() % 5 == 0 && heapRearms[timer.payload()]++ < REARMS_PER_TIMER) {
            heap.reschedule(timer, heap.now() + timer.payload() % 7 - 2);
          }
        });
        assertThat(firedByHitime).as(what).isEqualTo(firedByHeap);
        fired += firedByHitime.size();
      } else {
        long delay = hitime.nextExpiryDelay();
        long exact = heap.nextExpiryDelay();
        assertThat(delay).as(what + ": a lower bound of the exact delay")
            .isLessThanOrEqualTo(exact);
        assertThat(delay == 0).as(what).isEqualTo(exact == 0);
        assertThat(delay == Long.MAX_VALUE).as(what).isEqualTo(exact == Long.MAX_VALUE);
      }
      assertThat(hitime.size()).as(what).isEqualTo(heap.size());
      if (hitimeHandles.size() > MAX_HANDLES) {
        int index = random.nextInt(hitimeHandles.size());
        assertThat(hitime.cancel(hitimeHandles.remove(index))).as(what)
            .isEqualTo(heap.cancel(heapHandles.remove(index)));
      }
    }
    HiTimeInvariants.check(hitime);
    assertThat(fired).as("timers fired in all").isGreaterThan(OPERATIONS / 10);
  }

  /**
   * Timers flowing with a few TTLs, as sessions and caches use them, each fired timer re-armed:
   * with one TTL the bins stay in tick order, which a re-examination files stretch by stretch;
   * cancels leave holes in them, and with more TTLs, or reschedules to other TTLs, bins fall out
   * of order and are filed timer by timer. Advancing by whole resolutions, {@code hitime} fires in
   * each advance exactly what the exact {@code heap} fires. The clock first moves {@code
   * headStart} units with no timer pending: a few thousand ticks short of 2<sup>63</sup> units
   * from the start, the clock passes that point with timers pending, where a power of two for the
   * resolution stops deriving ticks from the deadline by a shift.
   */
  @ParameterizedTest
  @CsvSource({
    "1, 1, 0, " + HiTimeTimerQueue.FREE_HELD,
    "1, 1000, 0, " + HiTimeTimerQueue.FREE_HELD,
    "2, 1, 0, " + HiTimeTimerQueue.FREE_HELD,
    "3, 7, 0, " + HiTimeTimerQueue.FREE_HELD,
    "1, 1024, 9223372036849655808, " + HiTimeTimerQueue.FREE_HELD,
    "3, 1024, 9223372036849655808, " + HiTimeTimerQueue.FREE_HELD,
    "2, 1, 9223372036854770808, " + HiTimeTimerQueue.FREE_HELD,
    "3, 7, 0, 0",
    "3, 1024, 9223372036849655808, 0",
  })
  void timersFlowingWithFewTtlsFireInEachAdvanceExactlyWhatTheExactHeapFires(
      int ttls, long resolution, long headStart, int freeHeld) {
    SplittableRandom random = new SplittableRandom(31L * ttls + resolution);
    TimerConfig config = TimerConfig.builder().startTime(0).resolution(resolution).build();
    HiTimeTimerQueue<Integer> hitime = new HiTimeTimerQueue<>(config, freeHeld);
    TimerQueue<Integer> heap = TimerQueues.create("heap", config);
    assertThat(hitime.advance(headStart, timer -> {})).isZero();
    assertThat(heap.advance(headStart, timer -> {})).isZero();
    long[] choices = new long[ttls];
    for (int i = 0; i < ttls; i++) {
      choices[i] = resolution * random.nextLong(300, 3_000) + random.nextLong(resolution);
    }
    List<TimerHandle<Integer>> hitimeHandles = new ArrayList<>();
    List<TimerHandle<Integer>> heapHandles = new ArrayList<>();
    int[] hitimeRearms = new int[MAX_HANDLES];
    int[] heapRearms = new int[MAX_HANDLES];
    int fired = 0;
    boolean sortedBinSeen = false;

    for (int step = 0; step < OPERATIONS; step++) {
      String what = "step " + step;
      if (hitimeHandles.size() < MAX_HANDLES && random.nextInt(4) == 0) {
        long deadline = hitime.now() + choices[random.nextInt(ttls)];
        hitimeHandles.add(hitime.schedule(deadline, hitimeHandles.size()));
        heapHandles.add(heap.schedule(deadline, heapHandles.size()));
      }
      int roll = random.nextInt(100);
      if (roll < 5 && !hitimeHandles.isEmpty()) {
        int index = random.nextInt(hitimeHandles.size());
        assertThat(hitime.cancel(hitimeHandles.get(index))).as(what)
            .isEqualTo(heap.cancel(heapHandles.get(index)));
      } else if (roll < 10 && !hitimeHandles.isEmpty()) {
        int index = random.nextInt(hitimeHandles.size());
        long deadline = hitime.now() + choices[random.nextInt(ttls)];
        assertThat(hitime.reschedule(hitimeHandles.get(index), deadline)).as(what)
            .isEqualTo(heap.reschedule(heapHandles.get(index), deadline));
      }
      long target = hitime.now() + resolution * (random.nextInt(16) == 0 ? 1 + random.nextInt(64)
          : 1);
      Set<Integer> firedByHitime = new HashSet<>();
      Set<Integer> firedByHeap = new HashSet<>();
      // Each fired timer is re-armed with a TTL its payload and its count of firings choose, so
      // that both queues do the same.
      hitime.advance(target, timer -> {
        firedByHitime.add(timer.payload());
        int round = hitimeRearms[timer.payload()]++;
        hitime.reschedule(timer, hitime.now() + choices[(timer.payload() + round) % ttls]);
      });
      heap.advance(target, timer -> {
        firedByHeap.add(timer.payload());
        int round = heapRearms[timer.payload()]++;
        heap.reschedule(timer, heap.now() + choices[(timer.payload() + round) % ttls]);
      });
      assertThat(firedByHitime).as(what).isEqualTo(firedByHeap);
      assertThat(hitime.size()).as(what).isEqualTo(heap.size());
      fired += firedByHitime.size();
      if (step % 64 == 0) {
        HiTimeInvariants.check(hitime);
        for (TimerBucket<Integer> bin : hitime.bins) {
          sortedBinSeen |= bin != null && bin.size > 1 && bin.sorted();
        }
      }
    }
    HiTimeInvariants.check(hitime);
    assertThat(fired).as("timers fired in all").isGreaterThan(OPERATIONS / 4);
    assertThat(sortedBinSeen).as("a bin of several timers in tick order").isTrue();
  }

  /** A deadline in the past, now, just ahead, further ahead, or as far ahead as a long reaches. */
  private static long randomDeadline(
      SplittableRandom random, TimerQueue<?> queue, long resolution) {
    long now = queue.now();
    int kind = random.nextInt(100);
    if (kind < 5) {
      return now - random.nextLong(0, 1L << random.nextInt(1, 63));
    } else if (kind < 10) {
      return now;
    } else if (kind < 12) {
      return now + Long.MAX_VALUE;
    } else if (kind < 60) {
      return now + random.nextLong(1, 8 * resolution + 8);
    }
    return now + random.nextLong(1, 1L << random.nextInt(1, 63));
  }

  /** A step of the clock: backwards, none, within a few ticks, or a jump; keeps it below 2^62. */
  private static long randomStep(SplittableRandom random, long resolution) {
    int kind = random.nextInt(100);
    if (kind < 5) {
      return -random.nextLong(1, 1_000);
    } else if (kind < 10) {
      return 0;
    } else if (kind < 75) {
      return random.nextLong(1, 4 * resolution + 2);
    }
    return random.nextLong(1, 1L << random.nextInt(1, 36));
  }

  /** Keeps a new handle, cancelling one kept before if there are too many. */
  private static void remember(TimerQueue<Integer> queue, List<TimerHandle<Integer>> handles,
      TimerHandle<Integer> handle, SplittableRandom random) {
    if (handles.size() < MAX_HANDLES) {
      handles.add(handle);
    } else {
      queue.cancel(handles.set(random.nextInt(handles.size()), handle));
    }
  }
}
