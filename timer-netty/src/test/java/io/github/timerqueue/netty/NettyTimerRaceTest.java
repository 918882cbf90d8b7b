package io.github.timerqueue.netty;

import static java.util.concurrent.TimeUnit.MICROSECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.util.Timeout;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Threads schedule and cancel while another stops the timer, in repeated racing rounds. Whatever
 * the interleaving, every timeout ends in exactly one way: it ran once, or a {@code cancel()} that
 * returned {@code true} cancelled it, or {@code stop()} returned it; and a task whose {@code
 * newTimeout} threw never runs. A lost timeout (none of these) or a doubled one (two of them)
 * fails the round.
 */
@org.junit.jupiter.api.Timeout(30)
class NettyTimerRaceTest {
  private static final int ROUNDS = 20;
  private static final int PRODUCERS = 3;
  private static final int ATTEMPTS_PER_PRODUCER = 2_000;

  @RegisterExtension final Timers timers = new Timers();

  /** What one producer saw of its attempts, by attempt number. */
  private static final class Producer extends Thread {
    final NettyTimer timer;
    final int base;
    final AtomicIntegerArray runs;
    final CountDownLatch start;
    final List<Timeout> scheduled = new ArrayList<>();
    final List<Integer> scheduledIds = new ArrayList<>();
    final Set<Timeout> cancelledByUs = new HashSet<>();
    final List<Integer> refusedIds = new ArrayList<>();
    volatile Throwable failure;

    Producer(NettyTimer timer, int base, AtomicIntegerArray runs, CountDownLatch start) {
      this.timer = timer;
      this.base = base;
      this.runs = runs;
      this.start = start;
    }

    @Override
    public void run() {
      try {
        start.await();
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < ATTEMPTS_PER_PRODUCER; i++) {
          int id = base + i;
          Timeout timeout;
          try {
            timeout = timer.newTimeout(t -> runs.incrementAndGet(id),
                random.nextLong(-100, 3_000), MICROSECONDS);
          } catch (IllegalStateException stopped) {
            refusedIds.add(id);
            return;
          }
          scheduled.add(timeout);
          scheduledIds.add(id);
          if (random.nextInt(4) == 0) {
            Timeout victim = scheduled.get(random.nextInt(scheduled.size()));
            if (victim.cancel()) {
              cancelledByUs.add(victim);
            }
          }
        }
      } catch (Throwable t) {
        failure = t;
      }
    }
  }

  @Strategies.Each
  void everyTimeoutRunsIsCancelledOrIsReturnedByStopExactlyOnce(String strategy) throws Exception {
    for (int round = 0; round < ROUNDS; round++) {
      NettyTimer timer = timers.of(strategy);
      AtomicIntegerArray runs = new AtomicIntegerArray(PRODUCERS * ATTEMPTS_PER_PRODUCER);
      CountDownLatch start = new CountDownLatch(1);
      List<Producer> producers = new ArrayList<>();
      for (int p = 0; p < PRODUCERS; p++) {
        Producer producer = new Producer(timer, p * ATTEMPTS_PER_PRODUCER, runs, start);
        producers.add(producer);
        producer.start();
      }

      start.countDown();
      Thread.sleep(ThreadLocalRandom.current().nextInt(4));
      Set<Timeout> returnedByStop = timer.stop();
      for (Producer producer : producers) {
        producer.join();
        assertThat(producer.failure).isNull();
      }

      String where = strategy + ", round " + round;
      for (Producer producer : producers) {
        for (int i = 0; i < producer.scheduled.size(); i++) {
          Timeout timeout = producer.scheduled.get(i);
          int ran = runs.get(producer.scheduledIds.get(i));
          boolean cancelled = producer.cancelledByUs.contains(timeout);
          boolean returned = returnedByStop.contains(timeout);
          assertThat((ran == 1 ? 1 : 0) + (cancelled ? 1 : 0) + (returned ? 1 : 0))
              .as("%s: timeout %s ran %d times, cancelled %s, returned by stop %s",
                  where, timeout, ran, cancelled, returned)
              .isOne();
          assertThat(ran).as(where).isLessThanOrEqualTo(1);
          assertThat(timeout.isExpired()).as(where).isEqualTo(ran == 1);
          assertThat(timeout.isCancelled()).as(where).isEqualTo(ran == 0);
        }
        for (int id : producer.refusedIds) {
          assertThat(runs.get(id)).as("%s: refused attempt %d", where, id).isZero();
        }
      }
      assertThat(timer.pendingTimeouts()).as(where).isZero();
    }
  }
}
