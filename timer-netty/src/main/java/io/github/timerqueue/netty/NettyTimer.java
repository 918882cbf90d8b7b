package io.github.timerqueue.netty;

import io.github.timerqueue.runtime.TimerService;
import io.github.timerqueue.runtime.TimerStats;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * A Netty {@link Timer} whose timeouts are kept by a {@link TimerService}, so that Netty code
 * (handlers, connection and read timeouts, your own tasks) runs on whichever timerqueue strategy
 * measures best for its load, in place of Netty's {@code HashedWheelTimer}.
 *
 * <pre>{@code
 * Timer timer = NettyTimer.create(TimerService.builder()
 *     .strategy("wheel")
 *     .resolution(Duration.ofMillis(1))
 *     .maxPendingTimeouts(1_000_000));
 * Timeout idle = timer.newTimeout(t -> channel.close(), 30, TimeUnit.SECONDS);
 * ...
 * idle.cancel();
 * timer.stop();
 * }</pre>
 *
 * <p>It keeps {@code HashedWheelTimer}'s contract: a task never runs before its delay has passed;
 * {@link #newTimeout newTimeout} throws {@link IllegalStateException} once the timer is stopped and
 * {@link RejectedExecutionException} when the service's {@linkplain
 * TimerService.Builder#maxPendingTimeouts maximum of pending timeouts} is reached; {@link #stop()}
 * cancels and returns the timeouts that never ran; each timeout's {@link Timeout#timer() timer()}
 * is this timer. On Netty 4.2, {@link Timeout#cancel() cancel} calls the task's {@code
 * cancelled(Timeout)} callback (on the cancelling thread); on 4.1, which has none, nothing. It
 * differs where {@code HashedWheelTimer} is
 * stricter than the {@link Timer} interface: {@code stop()} may be called from a task (the timer
 * thread then ends when the task returns), and there is no limit on the number of instances.
 *
 * <p>Everything the service's builder sets applies: strategy, resolution, the thread factory, a
 * task executor, the limit of pending timeouts and the handler of exceptions thrown by tasks. The
 * timer owns the service it builds: {@link #stop()} stops it.
 *
 * <p>Costs are the service's (see {@link TimerService}): scheduling and cancelling take a few atomic
 * operations and no lock shared with other timeouts; {@code newTimeout} allocates the timeout
 * handle Netty's interface requires on top of the service's own.
 */
public final class NettyTimer implements Timer {
  private final TimerService service;

  private NettyTimer(TimerService service) {
    this.service = service;
  }

  /**
   * Builds a timer service with {@code builder} and returns a timer that owns it.
   *
   * @param builder the service's configuration; it may be reused afterwards
   * @return a new, running timer
   * @throws IllegalArgumentException if the builder's strategy is unknown, or an option is not
   *     accepted by it
   * @throws NullPointerException if {@code builder} is {@code null}
   */
  public static NettyTimer create(TimerService.Builder builder) {
    return new NettyTimer(Objects.requireNonNull(builder, "builder").build());
  }

  /**
   * Schedules {@code task} to run once after {@code delay}: never earlier, and as soon after as the
   * service's resolution and its timer thread allow. A delay of zero or less runs it as soon as
   * possible. While the service's backlog (requests not yet applied and due timers not yet run) is
   * at its bound, this first waits until there is room or the timer is stopped (see {@link
   * TimerService}); nothing is dropped.
   *
   * @param task what to run
   * @param delay how long from now to run it
   * @param unit the unit of {@code delay}
   * @return the pending timeout
   * @throws IllegalStateException if this timer is stopped
   * @throws RejectedExecutionException if the service already holds its maximum number of pending
   *     timeouts
   * @throws NullPointerException if {@code task} or {@code unit} is {@code null}
   */
  @Override
  public Timeout newTimeout(TimerTask task, long delay, TimeUnit unit) {
    Objects.requireNonNull(task, "task");
    Objects.requireNonNull(unit, "unit");
    if (service.isStopped()) {
      throw stopped(null);
    }
    NettyTimeout timeout = new NettyTimeout(this, task);
    try {
      timeout.bind(service.newTimeout(timeout, delay, unit));
    } catch (RejectedExecutionException e) {
      // The service rejects both when it is stopped and when it is full; Netty tells the two apart.
      if (service.isStopped()) {
        throw stopped(e);
      }
      throw e;
    }
    return timeout;
  }

  /**
   * Stops the timer: ends the service's timer thread, and cancels and returns the timeouts that
   * never ran. Tasks already running, or due in the turn the timer thread is in, may still finish
   * before this returns. Afterwards {@link #newTimeout newTimeout} throws {@link
   * IllegalStateException}. Only the first call returns timeouts; later calls return an empty set.
   *
   * @return the timeouts this call cancelled, each {@link Timeout#isCancelled() cancelled}
   */
  @Override
  public Set<Timeout> stop() {
    List<io.github.timerqueue.runtime.Timeout> unrun = service.stop();
    Set<Timeout> cancelled = new HashSet<>(Math.max(16, unrun.size() * 4 / 3 + 1));
    for (io.github.timerqueue.runtime.Timeout handle : unrun) {
      // Every task of this service is a NettyTimeout: the service is not shared.
      NettyTimeout timeout = (NettyTimeout) handle.task();
      timeout.bind(handle);
      cancelled.add(timeout);
    }
    return cancelled;
  }

  /**
   * Returns how many timeouts are pending: scheduled and not yet expired, cancelled or returned by
   * {@link #stop()}. As {@code HashedWheelTimer.pendingTimeouts()}; see {@link
   * TimerService#pendingTimeouts()}: a few reads per processor, whatever the number of timeouts,
   * and no allocation.
   *
   * @return the number of pending timeouts
   */
  public long pendingTimeouts() {
    return service.pendingTimeouts();
  }

  /**
   * Returns the service's counters and the lateness of the tasks that ran.
   *
   * @return a snapshot of the service's statistics
   */
  public TimerStats stats() {
    return service.stats();
  }

  /**
   * Returns the name of the strategy the service was built with.
   *
   * @return the strategy name
   */
  public String strategy() {
    return service.strategy();
  }

  @Override
  public String toString() {
    return "NettyTimer{" + service + "}";
  }

  private IllegalStateException stopped(RejectedExecutionException cause) {
    return new IllegalStateException(
        "cannot schedule a timeout: the timer (strategy " + service.strategy() + ") is stopped",
        cause);
  }
}
