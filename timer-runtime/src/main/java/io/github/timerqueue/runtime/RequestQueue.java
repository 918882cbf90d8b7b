package io.github.timerqueue.runtime;

import java.util.function.Consumer;

/**
 * The requests other threads send the timer thread: a multi-producer, single-consumer queue made
 * of {@link RequestLane lanes}, each thread offering to the lane its id picks. Threads in
 * different lanes never touch the same memory to send a request, where one shared producer end
 * would be taken from core to core by every offer: with four threads on two cores, that exchange
 * was what held back schedule+cancel.
 *
 * <p>Each lane is FIFO, so one thread's requests are handed out in the order it sent them;
 * requests of different threads have no order between them (they are concurrent). The consumer
 * takes up to {@value #LANE_BURST} requests from a lane before it moves to the next, so that no
 * busy lane holds back the others. Nothing is allocated per request.
 *
 * <p>The timer thread takes requests in marked batches ({@link #mark}, {@link #pollMarked}): the
 * requests queued when it marks, and none sent after. A consumer that took requests until the
 * queue was empty would, whenever it is faster than a producer, take each request right behind its
 * sender: every request, the lane's end and the stub would move from core to core and back, at
 * both threads' cost. With marks it takes what has gathered and leaves the lines the producers are
 * writing alone until the next batch.
 */
final class RequestQueue {
  /** Most requests taken from one lane before the consumer looks at the next. */
  static final int LANE_BURST = 64;
  /** Most lanes, however many processors there are. */
  static final int MAX_LANES = 64;

  /**
   * The consumer's state lives in padded arrays, each value apart from every other object's
   * fields: producers read this object's final fields on every offer, and a consumer field beside
   * them, written on every poll, would take their line away from them each time.
   */
  private static final int PAD = 16;
  /**
   * In {@link #cursor}: the lane being drained, how many it has handed out in a row, and how many
   * lanes have a mark.
   */
  private static final int CURRENT = PAD;
  private static final int BURST = PAD + 1;
  private static final int MARKED = PAD + 2;

  private final RequestLane[] lanes;
  private final int laneMask;
  /** Consumer only: {@link #CURRENT}, {@link #BURST} and {@link #MARKED}. */
  private final int[] cursor = new int[MARKED + 1 + PAD];
  /**
   * Consumer only: at {@code PAD + lane}, the last request of the lane's marked batch ({@link
   * RequestLane#last}), or {@code null} once it has been handed out or if the lane had none.
   */
  private final Request[] marks;

  /** Creates a queue of {@code lanes} lanes, a power of two from 1 to {@value #MAX_LANES}. */
  RequestQueue(int lanes) {
    if (lanes < 1 || lanes > MAX_LANES || Integer.bitCount(lanes) != 1) {
      throw new IllegalArgumentException(
          "lanes must be a power of two from 1 to " + MAX_LANES + ", but was " + lanes);
    }
    this.lanes = new RequestLane[lanes];
    for (int lane = 0; lane < lanes; lane++) {
      this.lanes[lane] = new RequestLane();
    }
    this.laneMask = lanes - 1;
    this.marks = new Request[PAD + lanes + PAD];
  }

  /**
   * The number of lanes for a machine with {@code processors} processors: four per processor,
   * rounded up to a power of two and at most {@value #MAX_LANES}, so that threads that happen to
   * run at the same time seldom share a lane.
   */
  static int lanesFor(int processors) {
    int wanted = Math.min(MAX_LANES, 4 * Math.max(1, processors));
    return Integer.highestOneBit(wanted - 1) << 1;
  }

  /** The number of lanes. */
  int lanes() {
    return lanes.length;
  }

  /** The lane a thread offers to: consecutive thread ids take consecutive lanes. */
  int laneOf(Thread thread) {
    return (int) thread.getId() & laneMask;
  }

  /** Appends a request to the calling thread's lane; any thread. */
  void offer(Request request) {
    lanes[laneOf(Thread.currentThread())].offer(request);
  }

  /**
   * Marks the requests queued now in every lane as the batch that {@link #pollMarked} hands out,
   * adding them to what is left of the previous batch; consumer only. Reads each lane's producer
   * end with volatile semantics: a producer whose offer comes after the mark in the synchronization
   * order sees every write the consumer made before it.
   */
  void mark() {
    for (int lane = 0; lane <= laneMask; lane++) {
      Request last = lanes[lane].last();
      if (last != null) {
        if (marks[PAD + lane] == null) {
          cursor[MARKED]++;
        }
        marks[PAD + lane] = last;
      }
    }
  }

  /**
   * Removes and returns a request of the marked batch, or returns {@code null} if none is left or
   * each lane that has some left is still linking one of them; consumer only. Lanes take turns:
   * each hands out at most {@value #LANE_BURST} in a row, and then the next lane with a mark is
   * served. A lane whose mark is the stub ({@link RequestLane#last}) is handed out until it is
   * empty, a few requests past its mark at most, since that happens only when no producer
   * offered anything between the consumer's last two looks at the lane.
   */
  Request pollMarked() {
    if (cursor[BURST] == LANE_BURST) {
      moveToNextLane();
    }
    for (int looked = 0; cursor[MARKED] != 0 && looked <= laneMask; looked++) {
      int current = cursor[CURRENT];
      Request mark = marks[PAD + current];
      if (mark != null) {
        RequestLane lane = lanes[current];
        Request request = lane.poll();
        if (request != null) {
          if (request == mark) {
            unmark(current);
          }
          cursor[BURST]++;
          return request;
        }
        if (lane.isEmpty()) {
          unmark(current); // the stub was the mark
        }
      }
      moveToNextLane();
    }
    return null;
  }

  /** Whether requests of the marked batch are left; consumer only. */
  boolean anyMarked() {
    return cursor[MARKED] != 0;
  }

  private void unmark(int lane) {
    marks[PAD + lane] = null;
    cursor[MARKED]--;
  }

  /**
   * Hands every queued request to {@code action}, until the queue is empty; consumer only. Waits
   * for a request that a producer is still linking, so that none offered before the call is left
   * behind.
   */
  void drain(Consumer<? super Request> action) {
    while (true) {
      mark();
      for (Request request; (request = pollMarked()) != null; ) {
        action.accept(request);
      }
      if (isEmpty()) {
        return;
      }
      Thread.onSpinWait(); // a producer is linking its request, or offered one after the mark
    }
  }

  /**
   * Whether no request is queued or being offered in any lane; consumer only. As {@link
   * RequestLane#isEmpty}, reads each lane's producer end with volatile semantics.
   */
  boolean isEmpty() {
    for (RequestLane lane : lanes) {
      if (!lane.isEmpty()) {
        return false;
      }
    }
    return true;
  }

  private void moveToNextLane() {
    cursor[BURST] = 0;
    cursor[CURRENT] = (cursor[CURRENT] + 1) & laneMask;
  }
}
