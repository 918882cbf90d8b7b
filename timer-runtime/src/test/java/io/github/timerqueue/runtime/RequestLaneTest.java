package io.github.timerqueue.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** One lane, the intrusive MPSC queue: FIFO, reusable nodes, and no loss under concurrent producers. */
class RequestLaneTest {

  /** A request that remembers who sent it and in which order. */
  private static final class Numbered extends Request {
    final int producer;
    final int number;

    Numbered(int producer, int number) {
      this.producer = producer;
      this.number = number;
    }

    @Override
    void process(TimerLoop loop) {}
  }

  @Test
  void handsOutRequestsInTheOrderTheyCame() {
    RequestLane queue = new RequestLane();
    assertThat(queue.isEmpty()).isTrue();
    assertThat(queue.poll()).isNull();
    Numbered first = new Numbered(0, 1);
    Numbered second = new Numbered(0, 2);
    Numbered third = new Numbered(0, 3);

    queue.offer(first);
    queue.offer(second);
    assertThat(queue.isEmpty()).isFalse();
    assertThat(queue.poll()).isSameAs(first);
    queue.offer(third);
    assertThat(queue.poll()).isSameAs(second);
    assertThat(queue.poll()).isSameAs(third);

    assertThat(queue.poll()).isNull();
    assertThat(queue.isEmpty()).isTrue();
  }

  @Test
  void aRequestMayBeOfferedAgainOnceHandedOut() {
    RequestLane queue = new RequestLane();
    Numbered request = new Numbered(0, 1);
    Numbered other = new Numbered(0, 2);

    for (int round = 0; round < 3; round++) {
      queue.offer(request);
      queue.offer(other);
      assertThat(queue.poll()).isSameAs(request);
      queue.offer(request);
      assertThat(queue.poll()).isSameAs(other);
      assertThat(queue.poll()).isSameAs(request);
      assertThat(queue.isEmpty()).isTrue();
    }
  }

  @Test
  void aHandedOutRequestHoldsNoLinkToTheRest() {
    RequestLane queue = new RequestLane();
    Numbered first = new Numbered(0, 1);
    queue.offer(first);
    queue.offer(new Numbered(0, 2));

    assertThat(queue.poll()).isSameAs(first);
    assertThat(first.next).isNull();
  }

  @Test
  void concurrentProducersLoseNothingAndKeepTheirOwnOrder() throws Exception {
    int producers = 4;
    int perProducer = 100_000;
    RequestLane queue = new RequestLane();
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int p = 0; p < producers; p++) {
      int producer = p;
      Thread thread = new Thread(() -> {
        try {
          start.await();
        } catch (InterruptedException e) {
          return;
        }
        for (int n = 0; n < perProducer; n++) {
          queue.offer(new Numbered(producer, n));
        }
      });
      threads.add(thread);
      thread.start();
    }
    start.countDown();

    int[] nextExpected = new int[producers];
    int received = 0;
    long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (received < producers * perProducer && System.nanoTime() - giveUp < 0) {
      Numbered request = (Numbered) queue.poll();
      if (request == null) {
        Thread.onSpinWait();
        continue;
      }
      assertThat(request.number).isEqualTo(nextExpected[request.producer]);
      nextExpected[request.producer]++;
      received++;
    }
    for (Thread thread : threads) {
      thread.join();
    }

    assertThat(received).isEqualTo(producers * perProducer);
    assertThat(queue.poll()).isNull();
    assertThat(queue.isEmpty()).isTrue();
  }
}
