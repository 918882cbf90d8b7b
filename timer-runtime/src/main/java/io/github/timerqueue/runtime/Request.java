package io.github.timerqueue.runtime;

/**
 * Something another thread asks the timer thread to do: a node of a lane of the {@link
 * RequestQueue}. The node is the request itself (a {@link TimerEntry}, or a rare {@link
 * ControlRequest}), so sending one allocates nothing.
 */
abstract class Request {
  /**
   * The next request in the queue; written by producers, read and cleared by the consumer, always
   * through {@link RequestLane}'s VarHandle, which sets the memory ordering of each access.
   */
  @SuppressWarnings("unused") // accessed through RequestLane.NEXT
  Request next;

  /** Carries out the request on the timer thread. */
  abstract void process(TimerLoop loop);
}
