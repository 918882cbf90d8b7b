package io.github.timerqueue.runtime;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * A task scheduled on a {@link TimerService}: the handle {@link TimerService#newTimeout newTimeout}
 * returns. All methods are thread-safe and take no lock shared with other timeouts; each handle may
 * be cancelled and re-armed from any thread, any number of times. Only {@link #reschedule
 * reschedule} may wait, while the timer thread's backlog is full (see {@link TimerService}'s
 * "Back-pressure"); {@link #cancel} never waits.
 *
 * <p>A timeout is in one of three states. It is <em>pending</em> from the moment it is scheduled
 * or re-armed until it <em>expires</em> (its task is handed over to run) or is <em>cancelled</em>.
 * {@link #reschedule reschedule} makes any timeout pending again, so one handle can serve a
 * connection's whole life, or a periodic task, without allocating.
 *
 * <p>Implementations are provided by {@link TimerService}; callers never implement this interface.
 */
public interface Timeout {

  /**
   * Returns the service this timeout belongs to: the one whose {@code newTimeout} returned it.
   *
   * @return the timer service
   */
  TimerService timer();

  /**
   * Returns the task this timeout runs.
   *
   * @return the task given to {@code newTimeout}
   */
  TimerTask task();

  /**
   * Cancels this timeout if it is pending, so that its task does not run, and then calls the
   * task's {@link TimerTask#cancelled cancelled} callback. The timer thread removes the timeout from
   * its queue within about 10 milliseconds, not at its deadline, so cancelled timeouts do not pile
   * up; a sleeping timer thread is woken for that at most about twice per 10 milliseconds.
   *
   * @return {@code true} if the timeout was pending and is now cancelled; {@code false} if it had
   *     already expired or been cancelled
   */
  boolean cancel();

  /**
   * Arms this timeout to expire after {@code delay}, counted from now. A pending timeout is moved;
   * an expired or cancelled one is made pending again with the same task. A task may re-arm its
   * own timeout this way, which is how periodic work avoids allocating. Delays, and the wait while
   * the timer thread is behind, are as for {@link TimerService#newTimeout}.
   *
   * @param delay how long from now the timeout should expire; zero or negative for as soon as
   *     possible
   * @param unit the unit of {@code delay}
   * @return {@code true} if the timeout was pending before this call
   * @throws RejectedExecutionException if the service is stopped (the timeout is then not pending
   *     once {@link TimerService#stop()} has returned), or if the timeout was not pending and the
   *     service already holds its maximum number of pending timeouts (it stays as it was)
   * @throws NullPointerException if {@code unit} is {@code null}
   */
  boolean reschedule(long delay, TimeUnit unit);

  /**
   * Returns whether the timeout is pending: scheduled and neither expired nor cancelled since.
   *
   * @return {@code true} if the timeout is pending
   */
  boolean isPending();

  /**
   * Returns whether the timeout expired: its deadline passed and its task was handed over to run
   * (it may still be running), and it was not re-armed since.
   *
   * @return {@code true} if the timeout expired
   */
  boolean isExpired();

  /**
   * Returns whether the timeout was cancelled, by {@link #cancel()} or by {@link
   * TimerService#stop()}, and not re-armed since.
   *
   * @return {@code true} if the timeout is cancelled
   */
  boolean isCancelled();
}
