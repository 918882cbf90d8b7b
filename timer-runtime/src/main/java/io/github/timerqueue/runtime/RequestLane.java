package io.github.timerqueue.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One lane of the {@link RequestQueue}: an unbounded multi-producer, single-consumer FIFO queue of
 * {@link Request}s, linked through the requests themselves: Dmitry Vyukov's intrusive MPSC queue.
 * Offering swaps the producer end with one atomic exchange and links the previous node; nothing is
 * allocated. Polling is wait-free for the consumer except for the moment between a producer's
 * exchange and its link, when {@link #poll} returns {@code null} although the lane is not {@link
 * #isEmpty empty}.
 *
 * <p>A request may be offered again once it has been polled, but must never be in the queue twice;
 * {@link TimerEntry} guarantees that with its queued bit.
 */
final class RequestLane {
  private static final VarHandle ENDS = MethodHandles.arrayElementVarHandle(Request[].class);
  private static final VarHandle NEXT;
  /**
   * The lane's two ends live in one array ({@link #ends}), each alone on its cache line and none
   * beside another object's fields: every producer of the lane exchanges the producers' end, the
   * consumer writes its end on every poll, and either write beside what the other side reads
   * would take the line away from it each time. The object's own fields are final, so that both
   * sides read them from a line that nobody writes.
   */
  private static final int ENDS_LENGTH = 64;
  private static final int PRODUCER_END = 16;
  private static final int CONSUMER_END = 48;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      NEXT = lookup.findVarHandle(Request.class, "next", Request.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** Stands in the lane when it would otherwise be empty, so producers have a node to link to. */
  private final Request stub = new ControlRequest(() -> {});
  /**
   * At {@link #PRODUCER_END}, the request offered last (through {@code ENDS} only); at {@link
   * #CONSUMER_END}, the next request to hand out, or the stub (consumer only).
   */
  private final Request[] ends = new Request[ENDS_LENGTH];

  RequestLane() {
    ends[CONSUMER_END] = stub;
    ENDS.setVolatile(ends, PRODUCER_END, stub);
  }

  /** Appends a request; any thread. */
  void offer(Request request) {
    NEXT.set(request, (Request) null);
    Request previous = (Request) ENDS.getAndSet(ends, PRODUCER_END, request);
    NEXT.setRelease(previous, request);
  }

  /**
   * Removes and returns the oldest request, or returns {@code null} if there is none or the oldest
   * is still being linked; consumer only.
   */
  Request poll() {
    Request first = ends[CONSUMER_END];
    Request next = (Request) NEXT.getAcquire(first);
    if (first == stub) {
      if (next == null) {
        return null;
      }
      ends[CONSUMER_END] = next;
      first = next;
      next = (Request) NEXT.getAcquire(next);
    }
    if (next != null) {
      return handOut(first, next);
    }
    if (first != (Request) ENDS.getVolatile(ends, PRODUCER_END)) {
      return null; // a producer has swapped the head but not linked it yet
    }
    // first is the only request: put the stub behind it so that it can be handed out.
    offer(stub);
    next = (Request) NEXT.getAcquire(first);
    return next == null ? null : handOut(first, next);
  }

  /**
   * The request offered last, or {@code null} if the lane is empty; consumer only. The consumer
   * takes requests up to it and no further ({@link RequestQueue#mark}). Reads the producers' end
   * with volatile semantics, as {@link #isEmpty} does. The stub stands for the requests before it
   * when the consumer has just put it behind them and a producer has offered nothing since.
   */
  Request last() {
    Request head = (Request) ENDS.getVolatile(ends, PRODUCER_END);
    return head == stub && ends[CONSUMER_END] == stub ? null : head;
  }

  /**
   * Whether no request is queued or being offered; consumer only. Reads the producers' end with
   * volatile semantics, so that a consumer that publishes "about to sleep" before calling this and
   * a producer that offers before checking that flag cannot miss each other.
   */
  boolean isEmpty() {
    return ends[CONSUMER_END] == stub && ENDS.getVolatile(ends, PRODUCER_END) == stub;
  }

  private Request handOut(Request first, Request next) {
    ends[CONSUMER_END] = next;
    // Unlink, so that a handle the caller keeps does not hold a chain of finished requests alive.
    NEXT.set(first, (Request) null);
    return first;
  }
}
