package io.github.timerqueue.netty;

import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;

/**
 * A Netty {@link Timeout}, and the task of the service's timeout behind it: the service runs this
 * object, which runs the Netty task with itself as the timeout, so the task sees the handle
 * {@link NettyTimer#newTimeout} returned. State is the service's handle's, read through.
 */
final class NettyTimeout implements Timeout, io.github.timerqueue.runtime.TimerTask {
  private final NettyTimer timer;
  private final TimerTask task;
  /**
   * The service's handle. Set by the thread that scheduled this timeout as soon as the service
   * returns it; the service may run the task, or another thread may stop the timer, before that,
   * and they set it too from the handle they are given. Every writer writes the same handle.
   */
  private volatile io.github.timerqueue.runtime.Timeout handle;

  NettyTimeout(NettyTimer timer, TimerTask task) {
    this.timer = timer;
    this.task = task;
  }

  void bind(io.github.timerqueue.runtime.Timeout handle) {
    this.handle = handle;
  }

  @Override
  public void run(io.github.timerqueue.runtime.Timeout expired) throws Exception {
    bind(expired);
    task.run(this);
  }

  @Override
  public Timer timer() {
    return timer;
  }

  @Override
  public TimerTask task() {
    return task;
  }

  @Override
  public boolean isExpired() {
    return handle.isExpired();
  }

  @Override
  public boolean isCancelled() {
    return handle.isCancelled();
  }

  @Override
  public boolean cancel() {
    return handle.cancel();
  }

  @Override
  public String toString() {
    io.github.timerqueue.runtime.Timeout current = handle;
    String state = current.isPending() ? "pending"
        : current.isExpired() ? "expired"
        : "cancelled";
    return "NettyTimeout{" + state + ", task=" + task + "}";
  }
}
