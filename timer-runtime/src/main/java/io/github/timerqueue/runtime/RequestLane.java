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
  private static final VarHandle HEAD = MethodHandles.arrayElementVarHandle(Request[].class);
  private static final VarHandle NEXT;
  /**
   * The producers' end lives alone in the middle of an array ({@link #producerEnd}), so that no
   * field the consumer writes (nor any other object) shares its cache line: every producer of the
   * lane exchanges it, and a consumer write beside it would take the line away from them on each
   * poll.
   */
  private static final int PADDED_LENGTH = 48;
  private static final int HEAD_INDEX = PADDED_LENGTH / 2;

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
  /** The producers' end, the request offered last, at {@link #HEAD_INDEX}; through HEAD only. */
  private final Request[] producerEnd = new Request[PADDED_LENGTH];
  /** The consumer's end: the next request to hand out, or the stub. */
  private Request tail;

  RequestLane() {
    HEAD.setVolatile(producerEnd, HEAD_INDEX, stub);
    tail = stub;
  }

  /** Appends a request; any thread. */
  void offer(Request request) {
    NEXT.set(request, (Request) null);
    Request previous = (Request) HEAD.getAndSet(producerEnd, HEAD_INDEX, request);
    NEXT.setRelease(previous, request);
  }

  /**
   * Removes and returns the oldest request, or returns {@code null} if there is none or the oldest
   * is still being linked; consumer only.
   */
  Request poll() {
    Request first = tail;
    Request next = (Request) NEXT.getAcquire(first);
    if (first == stub) {
      if (next == null) {
        return null;
      }
      tail = next;
      first = next;
      next = (Request) NEXT.getAcquire(next);
    }
    if (next != null) {
      return handOut(first, next);
    }
    if (first != (Request) HEAD.getVolatile(producerEnd, HEAD_INDEX)) {
      return null; // a producer has swapped the head but not linked it yet
    }
    // first is the only request: put the stub behind it so that it can be handed out.
    offer(stub);
    next = (Request) NEXT.getAcquire(first);
    return next == null ? null : handOut(first, next);
  }

  /**
   * Whether no request is queued or being offered; consumer only. Reads the producers' end with
   * volatile semantics, so that a consumer that publishes "about to sleep" before calling this and
   * a producer that offers before checking that flag cannot miss each other.
   */
  boolean isEmpty() {
    return tail == stub && HEAD.getVolatile(producerEnd, HEAD_INDEX) == stub;
  }

  private Request handOut(Request first, Request next) {
    tail = next;
    // Unlink, so that a handle the caller keeps does not hold a chain of finished requests alive.
    NEXT.set(first, (Request) null);
    return first;
  }
}
