package io.github.timerqueue.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/** Requests that say who sent them and in which order, for the tests of the request queues. */
final class NumberedRequests {
  private NumberedRequests() {}

  /** A request that remembers who sent it and in which order. */
  static final class Numbered extends Request {
    final int producer;
    final int number;

    Numbered(int producer, int number) {
      this.producer = producer;
      this.number = number;
    }

    @Override
    void process(TimerLoop loop) {}
  }

  /**
   * Has {@code producers} threads offer {@code perProducer} numbered requests each, all at once,
   * while this thread polls; checks that every request comes out once, each producer's in the
   * order it sent them, and that the queue is empty at the end.
   */
  static void checkConcurrentProducers(int producers, int perProducer, Consumer<Request> offer,
      Supplier<Request> poll, BooleanSupplier isEmpty) throws InterruptedException {
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
          offer.accept(new Numbered(producer, n));
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
      Numbered request = (Numbered) poll.get();
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
    assertThat(poll.get()).isNull();
    assertThat(isEmpty.getAsBoolean()).isTrue();
  }
}
