package io.github.timerqueue.runtime;

/**
 * A one-off action to run on the timer thread. It is handed out after the requests its thread sent
 * before it, but other threads' requests may be in other lanes of the {@link RequestQueue}: an
 * action that needs them applied must apply the queue first.
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
