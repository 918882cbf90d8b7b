package io.github.timerqueue.bench.runtime;

import io.github.timerqueue.runtime.TimerTask;

/**
 * What a timer runs, in a form every contender takes as it is: a {@link Runnable} for {@code
 * ScheduledThreadPoolExecutor}, a Netty {@code TimerTask} and a timerqueue {@link TimerTask}. So a
 * benchmark hands the same object to each, and no adapter allocates a wrapper per timeout. Kafka's
 * {@code TimerTask} is an abstract class that carries its own delay, so its adapter must make one
 * per timeout anyway: that is its API's cost, and it is counted.
 */
abstract class Action implements Runnable, io.netty.util.TimerTask, TimerTask {

  /** Does nothing: the task of the timeouts that are cancelled before they are due. */
  static final Action NOTHING = new Action() {
    @Override
    public void run() {}
  };

  @Override
  public final void run(io.netty.util.Timeout timeout) {
    run();
  }

  @Override
  public final void run(io.github.timerqueue.runtime.Timeout timeout) {
    run();
  }
}
