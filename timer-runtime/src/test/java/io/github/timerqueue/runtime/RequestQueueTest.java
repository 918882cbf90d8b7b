package io.github.timerqueue.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.timerqueue.runtime.NumberedRequests.Numbered;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The queue of lanes: each thread's requests in order, every lane served, nothing lost. */
class RequestQueueTest {

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

    queue.mark();
    for (Numbered request : sent) {
      assertThat(queue.pollMarked()).isSameAs(request);
    }
    assertThat(queue.pollMarked()).isNull();
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

    queue.mark();
    int polled = 0;
    while (queue.pollMarked() != other) {
      polled++;
    }
    assertThat(polled).isLessThanOrEqualTo(RequestQueue.LANE_BURST);
  }

  /**
   * Offers two requests from this thread and one from a thread in another lane of a two-lane
   * {@code queue}; returns them in that order.
   */
  private static List<Numbered> offerTwoHereAndOneElsewhere(RequestQueue queue)
      throws InterruptedException {
    List<Numbered> sent = List.of(new Numbered(0, 0), new Numbered(0, 1), new Numbered(1, 0));
    queue.offer(sent.get(0));
    queue.offer(sent.get(1));
    onThread(inAnotherLane(queue, () -> queue.offer(sent.get(2))));
    return sent;
  }

  @Test
  void drainHandsOutTheRequestsOfEveryLaneInEachThreadsOrder() throws InterruptedException {
    RequestQueue queue = new RequestQueue(2);
    List<Numbered> sent = offerTwoHereAndOneElsewhere(queue);

    List<Request> drained = new ArrayList<>();
    queue.drain(drained::add);

    assertThat(drained).containsExactlyInAnyOrderElementsOf(sent);
    assertThat(drained.indexOf(sent.get(0))).isLessThan(drained.indexOf(sent.get(1)));
    assertThat(queue.isEmpty()).isTrue();
  }

  @Test
  void isEmptyOnlyWhenEveryLaneIs() throws InterruptedException {
    RequestQueue queue = new RequestQueue(2);
    Numbered request = new Numbered(1, 0);
    onThread(inAnotherLane(queue, () -> queue.offer(request)));

    assertThat(queue.isEmpty()).isFalse();
    queue.mark();
    assertThat(queue.pollMarked()).isSameAs(request);
    assertThat(queue.isEmpty()).isTrue();
  }

  @Test
  void aMarkedBatchHoldsWhatWasQueuedAtTheMarkAndNothingSentAfter() throws InterruptedException {
    RequestQueue queue = new RequestQueue(2);
    List<Numbered> sent = offerTwoHereAndOneElsewhere(queue);
    queue.mark();
    Numbered late = new Numbered(0, 2);
    Numbered lateOther = new Numbered(1, 1);
    queue.offer(late);
    onThread(inAnotherLane(queue, () -> queue.offer(lateOther)));

    List<Request> batch = new ArrayList<>();
    for (Request request; (request = queue.pollMarked()) != null; ) {
      batch.add(request);
    }

    assertThat(batch).containsExactlyInAnyOrderElementsOf(sent);
    assertThat(batch.indexOf(sent.get(0))).isLessThan(batch.indexOf(sent.get(1)));
    assertThat(queue.anyMarked()).isFalse();
    queue.mark();
    assertThat(queue.pollMarked()).isSameAs(late);
    assertThat(queue.pollMarked()).isSameAs(lateOther);
    assertThat(queue.pollMarked()).isNull();
    assertThat(queue.isEmpty()).isTrue();
  }

  @Test
  void aMarkOnAnEmptyQueueMarksNothing() {
    RequestQueue queue = new RequestQueue(4);

    queue.mark();

    assertThat(queue.anyMarked()).isFalse();
    assertThat(queue.pollMarked()).isNull();
  }

  @Test
  void aMarkedBatchLeftUnfinishedGrowsWithTheNextMark() {
    RequestQueue queue = new RequestQueue(1);
    List<Numbered> sent = new ArrayList<>();
    for (int n = 0; n < 4; n++) {
      sent.add(new Numbered(0, n));
    }
    queue.offer(sent.get(0));
    queue.offer(sent.get(1));
    queue.mark();
    assertThat(queue.pollMarked()).isSameAs(sent.get(0));
    queue.offer(sent.get(2));
    queue.mark();
    queue.offer(sent.get(3));

    assertThat(queue.pollMarked()).isSameAs(sent.get(1));
    assertThat(queue.pollMarked()).isSameAs(sent.get(2));
    assertThat(queue.pollMarked()).isNull();
    assertThat(queue.anyMarked()).isFalse();
    queue.mark();
    assertThat(queue.pollMarked()).isSameAs(sent.get(3));
  }

  @Test
  void markedBatchesOfConcurrentProducersLoseNothingAndKeepTheirOwnOrder() throws Exception {
    // The consumer marks whenever its batch is done, while four producers on two lanes race it.
    RequestQueue queue = new RequestQueue(2);
    NumberedRequests.checkConcurrentProducers(4, 100_000, queue::offer, () -> {
      if (!queue.anyMarked()) {
        queue.mark();
      }
      return queue.pollMarked();
    }, queue::isEmpty);
  }

  @Test
  void aConsumerThatMarksBeforeEveryTakeLosesNothingAndKeepsEachOrder() throws Exception {
    // Four producers on two lanes, and a consumer that marks each lane's newest request before
    // every take: it follows the producers as closely as a consumer can, often onto a request
    // still being linked.
    RequestQueue queue = new RequestQueue(2);
    NumberedRequests.checkConcurrentProducers(4, 100_000, queue::offer, () -> {
      queue.mark();
      return queue.pollMarked();
    }, queue::isEmpty);
  }

  @Test
  @Timeout(60)
  void drainTakesEveryRequestOfferedBeforeItWhileProducersGoOn() throws Exception {
    // Four producers share the one lane and send their last requests while the drain runs: one's
    // request may be queued behind the other's that is still being linked when the drain looks.
    // What each sent before the drain began must all come out, in its order.
    int producers = 4;
    for (int round = 0; round < 1_000; round++) {
      RequestQueue queue = new RequestQueue(1);
      AtomicIntegerArray offered = new AtomicIntegerArray(producers);
      List<Thread> threads = new ArrayList<>();
      for (int p = 0; p < producers; p++) {
        int producer = p;
        threads.add(new Thread(() -> {
          for (int n = 0; n < 1_000; n++) {
            queue.offer(new Numbered(producer, n));
            offered.set(producer, n + 1);
          }
        }));
      }
      threads.forEach(Thread::start);
      while (offered.get(0) < 100) {
        Thread.onSpinWait();
      }
      int[] offeredBefore = new int[producers];
      for (int p = 0; p < producers; p++) {
        offeredBefore[p] = offered.get(p);
      }

      List<Request> drained = new ArrayList<>();
      queue.drain(drained::add);
      for (Thread thread : threads) {
        thread.join();
      }

      int[] next = new int[producers];
      for (Request request : drained) {
        Numbered numbered = (Numbered) request;
        assertThat(numbered.number).isEqualTo(next[numbered.producer]);
        next[numbered.producer]++;
      }
      for (int p = 0; p < producers; p++) {
        assertThat(next[p]).as("producer %s in round %s", p, round)
            .isGreaterThanOrEqualTo(offeredBefore[p]);
      }
    }
  }
}
