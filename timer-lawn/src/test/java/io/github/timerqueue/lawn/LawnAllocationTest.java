package io.github.timerqueue.lawn;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerHandle;
import io.github.timerqueue.conformance.AllocationCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The hot-path rule: once the handles exist, re-arming, cancelling, advancing and asking for the
 * next delay allocate nothing, even while TTL queues empty and refill. Counted in bytes allocated
 * by this thread, which HotSpot reports exactly; no timing is measured.
 */
class LawnAllocationTest {
  private static final long[] ROAMING_TTLS = {3, 5, 7, 11, 64, 1_000, 12_345};

  @Test
  void steadyStateReuseOfHandlesAllocatesNothing() {
    LawnTimerQueue<Long> lawn = new LawnTimerQueue<>(TimerConfig.defaults());
    // The payload is the period: each fired timer re-arms itself one period ahead.
    for (long i = 0; i < 1_000; i++) {
      lawn.schedule(i % 64, 64L);
    }
    // Alone in their TTLs: their queues empty and refill on every period.
    for (long period : new long[] {3, 5, 7, 11}) {
      lawn.schedule(period, period);
    }
    List<TimerHandle<Long>> roamers = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      roamers.add(lawn.schedule(1_000_000, 0L));
    }
    Consumer<TimerHandle<Long>> rearm =
        timer -> lawn.reschedule(timer, lawn.now() + timer.payload());
    long[] checksum = {0};
    Runnable workload = () -> {
      for (int step = 0; step < 1_000; step++) {
        checksum[0] += lawn.advance(lawn.now() + 1, rearm);
        checksum[0] += lawn.nextExpiryDelay();
        TimerHandle<Long> roamer = roamers.get(step & 7);
        long ttl = ROAMING_TTLS[step % ROAMING_TTLS.length];
        if ((step & 1) == 0) {
          lawn.cancel(roamer);
        }
        lawn.reschedule(roamer, lawn.now() + 100 * ttl);
      }
    };
    for (int warmUp = 0; warmUp < 30; warmUp++) {
      workload.run();
    }
    LawnInvariants.check(lawn);

    long allocated = AllocationCounter.bytesAllocatedBy(() -> {
      for (int round = 0; round < 10; round++) {
        workload.run();
      }
    });

    assertThat(checksum[0]).isPositive();
    assertThat(allocated).as("bytes allocated by 10,000 steps of about 20 operations each")
        .isLessThan(1_024);
    LawnInvariants.check(lawn);
  }
}
