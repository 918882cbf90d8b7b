package io.github.timerqueue.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.timerqueue.runtime.NumberedRequests.Numbered;
import org.junit.jupiter.api.Test;

/** One lane, the intrusive MPSC queue: FIFO, reusable nodes, no loss under concurrent producers. */
class RequestLaneTest {

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
    RequestLane queue = new RequestLane();
    NumberedRequests.checkConcurrentProducers(
        4, 100_000, queue::offer, queue::poll, queue::isEmpty);
  }
}
