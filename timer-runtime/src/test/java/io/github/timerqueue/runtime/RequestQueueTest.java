package io.github.timerqueue.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The queue of lanes: each thread's requests in order, every lane served, nothing lost. */
class RequestQueueTest {

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

  /** Starts {@code thread} and waits for it to end. */
  private static void onThread(Thread thread) throws InterruptedException {
    thread.start();
    thread.join();
  }

  /** A new, unstarted thread that sends to another lane of {@code queue} than this thread. */
  private static Thread inAnotherLane(RequestQueue queue, Runnable action) {
    while (true) {
      Thread thread = new Thread(action);
      if (queue.laneOf(thread) != queue.laneOf(Thread.currentThread())) {
        return thread;
      }
    }
  }

  @Test
  void laneCountsArePowersOfTwoAndGrowWithTheProcessors() {
    assertThat(RequestQueue.lanesFor(1)).isEqualTo(4);
    assertThat(RequestQueue.lanesFor(2)).isEqualTo(8);
    assertThat(RequestQueue.lanesFor(3)).isEqualTo(16);
    assertThat(RequestQueue.lanesFor(1_000)).isEqualTo(RequestQueue.MAX_LANES);
    assertThatThrownBy(() -> new RequestQueue(3))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("3");
  }

  @Test
  void consecutiveThreadsSendToDifferentLanes() {
    RequestQueue queue = new RequestQueue(8);
    Thread first = new Thread(() -> {});
    Thread second = new Thread(() -> {});

    assertThat(queue.laneOf(second)).isNotEqualTo(queue.laneOf(first));
  }

  @Test
  void requestsOfOneThreadComeOutInTheOrderSent() {
    RequestQueue queue = new RequestQueue(8);
    List<Numbered> sent = new ArrayList<>();
    for (int n = 0; n < 3 * RequestQueue.LANE_BURST; n++) {
      sent.add(new Numbered(0, n));
      queue.offer(sent.get(n));
    }

    for (Numbered request : sent) {
      assertThat(queue.poll()).isSameAs(request);
    }
    assertThat(queue.poll()).isNull();
    assertThat(queue.isEmpty()).isTrue();
  }

  @Test
  void aBusyLaneDoesNotHoldBackAnother() throws InterruptedException {
    RequestQueue queue = new RequestQueue(2);
    for (int n = 0; n < 10 * RequestQueue.LANE_BURST; n++) {
      queue.offer(new Numbered(0, n));
    }
    Numbered other = new Numbered(1, 0);
    onThread(inAnotherLane(queue, () -> queue.offer(other)));

    int polled = 0;
    while (queue.poll() != other) {
      polled++;
    }
    assertThat(polled).isLessThanOrEqualTo(RequestQueue.LANE_BURST);
  }

  @Test
  void isEmptyOnlyWhenEveryLaneIs() throws InterruptedException {
    RequestQueue queue = new RequestQueue(2);
    Numbered request = new Numbered(1, 0);
    onThread(inAnotherLane(queue, () -> queue.offer(request)));

    assertThat(queue.isEmpty()).isFalse();
    assertThat(queue.poll()).isSameAs(request);
    assertThat(queue.isEmpty()).isTrue();
  }

  @Test
  void concurrentProducersLoseNothingAndKeepTheirOwnOrder() throws Exception {
    int producers = 4;
    int perProducer = 100_000;
    // Two lanes for four producers: some share a lane, some do not.
    RequestQueue queue = new RequestQueue(2);
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
