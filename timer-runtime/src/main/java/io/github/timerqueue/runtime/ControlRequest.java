package io.github.timerqueue.runtime;

/**
 * A one-off action to run on the timer thread, after every request sent before it; used by the
 * executor to apply its shutdown policy to the timeouts the loop holds.
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
