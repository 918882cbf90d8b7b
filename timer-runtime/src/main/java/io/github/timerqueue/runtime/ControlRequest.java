package io.github.timerqueue.runtime;

/**
 * A one-off action to run on the timer thread; used by the executor to apply its shutdown policy to
 * the timeouts the loop holds. It is handed out after the requests its thread sent before it, but
 * other threads' requests may be in other lanes of the {@link RequestQueue}: an action that needs
 * them applied applies the queue first, as {@link TimerLoop#visitPending} does.
 */
final class ControlRequest extends Request {
  private final Runnable action;

  ControlRequest(Runnable action) {
    this.action = action;
  }

  @Override
  void process(TimerLoop loop) {
    action.run();
  }
}
