package io.github.timerqueue;

import java.util.function.Consumer;

/**
 * A single-threaded, caller-clocked queue of timers: the service-provider interface that every
 * timer strategy implements. Queues are created by name through {@link TimerQueues}.
 *
 * <h2>Time</h2>
 * Time is a {@code long} in units the caller chooses (nanoseconds, milliseconds, ticks). Times are
 * compared by signed difference, as {@link System#nanoTime()} values are: {@code a} is at or after
 * {@code b} when {@code a - b >= 0}. A queue therefore works from any start time, including near
 * {@link Long#MAX_VALUE} and {@link Long#MIN_VALUE} where the clock wraps. A timer is <em>due</em>
 * once {@code now() - deadline >= 0}. The queue's clock, {@link #now()}, is the start time given in
 * its {@link TimerConfig} until the first {@link #advance advance}, and then the latest time passed
 * to {@code advance}. Internally a queue measures time as the unsigned distance from its start time,
 * so its clock can run for 2<sup>64</sup>&nbsp;&minus;&nbsp;1 units (584 years of nanoseconds) in
 * total; what happens past that point is unspecified.
 *
 * <h2>When timers fire</h2>
 * <ul>
 *   <li><b>Never early.</b> A timer fires only in an {@code advance(now, ...)} for which {@code now -
 *       deadline >= 0}.
 *   <li><b>Bounded lateness.</b> With {@linkplain TimerConfig#resolution() resolution} {@code r}, a
 *       timer fires at the latest in the first {@code advance} whose {@code now} is at or past its
 *       deadline rounded up to the next multiple of {@code r} counted from the start time. With
 *       {@code r == 1} a timer therefore fires exactly when it is due.
 *   <li><b>Every deadline is accepted.</b> No deadline is rejected for being far away; a deadline
 *       more than {@link Long#MAX_VALUE} units ahead of {@code now()} wraps around and, by the
 *       signed-difference rule, lies in the past. A deadline at or before {@code now()} is due at
 *       the next {@code advance}, even one with the same {@code now}.
 *   <li><b>Ordering</b> of timers that fire in the same {@code advance} is a documented property of
 *       each strategy, not part of this contract.
 * </ul>
 *
 * <h2>Handlers</h2>
 * The handler given to {@code advance} may call {@link #schedule schedule}, {@link #scheduleWithin
 * scheduleWithin}, {@link #cancel cancel}, {@link #reschedule reschedule}, {@link #clear clear} and
 * the read-only methods on this queue, also on the timer being delivered (a periodic timer re-arms
 * itself with {@code reschedule}). A timer made due during an {@code advance} fires in the next
 * {@code advance}, never in the same one. A due timer that a handler cancels (or clears) before its
 * turn never fires. Calling {@code advance} or {@code drain} from a handler throws {@link
 * IllegalStateException}. If a handler throws, the timer it was handed counts as fired, the
 * exception propagates out of {@code advance}, and every other due timer stays pending for the next
 * {@code advance}: nothing is lost and no structure is corrupted.
 *
 * <h2>Capacity</h2>
 * A strategy that holds fewer timers in one queue than memory would allow documents its bound in
 * its provider; arming a timer past that bound throws {@link IllegalStateException}.
 *
 * <h2>Threading and input</h2>
 * A queue is not thread-safe: it is driven by one thread, like every design it implements. Payloads,
 * handles and handlers must not be {@code null} ({@link NullPointerException}). Bad arguments throw
 * an exception whose message names the bad value and what is allowed, and nothing is half-applied
 * when an exception is thrown.
 *
 * @param <T> the type of the payloads carried by the timers
 */
public interface TimerQueue<T> {

  /**
   * Returns the name of the strategy this queue was created under: its {@code ServiceLoader} name,
   * as listed by {@link TimerQueues#strategies()}. Constant time.
   *
   * @return the strategy name, for example {@code "heap"}
   */
  String strategy();

  /**
   * Returns the queue's clock: the start time from its configuration until the first {@code
   * advance}, then the latest time passed to {@code advance} that was not earlier than the clock.
   * Inside an {@code advance} handler it is already the new time. Constant time.
   *
   * @return the current time of this queue
   */
  long now();

  /**
   * Schedules a new timer that fires once the clock reaches {@code deadline}, within the bounded
   * lateness of the queue's resolution. Any deadline is accepted; one at or before {@link #now()} is
   * due at the next {@code advance}. Timers scheduled from a handler never fire in the {@code
   * advance} that is running.
   *
   * <p>Complexity is the strategy's documented cost of an insertion: {@code O(1)} for the timing
   * wheels, {@code O(log n)} for {@code heap}.
   *
   * @param deadline the time at which the timer becomes due
   * @param payload the value handed back with the timer, not {@code null}
   * @return a new pending handle
   * @throws NullPointerException if {@code payload} is {@code null}
   */
  TimerHandle<T> schedule(long deadline, T payload);

  /**
   * Schedules a new timer that may fire anywhere between {@code earliest} and {@code latest}: never
   * before {@code earliest}, and no later than a timer scheduled at {@code latest} would (bounded
   * lateness as for {@link #schedule}). The strategy chooses the cheapest deadline in the range (for
   * example one that needs no cascading) and reports it as the handle's {@link
   * TimerHandle#deadline() deadline}. {@code earliest == latest} is the same as {@code schedule}.
   * If {@code latest} lies more than {@link Long#MAX_VALUE} after {@link #now()} while {@code
   * earliest} does not (so that {@code latest} alone would count as past), the range ends at {@code
   * now() + Long.MAX_VALUE}.
   *
   * @param earliest the earliest time at which the timer may fire
   * @param latest the latest deadline the timer may be given; {@code latest - earliest >= 0}
   * @param payload the value handed back with the timer, not {@code null}
   * @return a new pending handle
   * @throws IllegalArgumentException if {@code earliest} is after {@code latest}
   * @throws NullPointerException if {@code payload} is {@code null}
   */
  TimerHandle<T> scheduleWithin(long earliest, long latest, T payload);

  /**
   * Cancels a timer so that it never fires. Cancelling a handle that is no longer pending (fired,
   * cancelled, drained or cleared) does nothing and returns {@code false}; it never affects another
   * timer. A due timer cancelled by a handler before its turn in the running {@code advance} never
   * fires. {@code O(1)} or close to it (the strategy documents its cost).
   *
   * @param timer a handle created by this queue
   * @return {@code true} if the timer was pending and is now cancelled
   * @throws IllegalArgumentException if the handle was created by another queue
   * @throws NullPointerException if {@code timer} is {@code null}
   */
  boolean cancel(TimerHandle<T> timer);

  /**
   * Moves a timer to a new deadline. A pending timer is moved; a timer that is no longer pending
   * (fired, cancelled, drained or cleared) is re-armed with the same payload and handle, so no
   * allocation is needed. In both cases the handle is pending afterwards. A handler may re-arm the
   * timer it is being handed; a re-armed timer never fires in the {@code advance} that is running.
   * {@code O(1)} or close to it (the strategy documents its cost).
   *
   * @param timer a handle created by this queue
   * @param deadline the new deadline; any value is accepted, as for {@link #schedule}
   * @return {@code true} if the timer was pending before this call
   * @throws IllegalArgumentException if the handle was created by another queue
   * @throws NullPointerException if {@code timer} is {@code null}
   */
  boolean reschedule(TimerHandle<T> timer, long deadline);

  /**
   * Moves the clock to {@code now} and hands every timer that is to fire to {@code onExpired}, each
   * exactly once; same as {@link #advance(long, Consumer, int) advance(now, onExpired,
   * Integer.MAX_VALUE)}.
   *
   * @param now the new time; a time earlier than {@link #now()} leaves the clock where it is
   * @param onExpired receives each fired timer, which is no longer pending when it is handed over
   * @return how many timers fired
   * @throws IllegalStateException if called from a handler of this queue
   * @throws NullPointerException if {@code onExpired} is {@code null}
   */
  default int advance(long now, Consumer<? super TimerHandle<T>> onExpired) {
    return advance(now, onExpired, Integer.MAX_VALUE);
  }

  /**
   * Moves the clock to {@code now} and hands at most {@code limit} of the timers that are to fire to
   * {@code onExpired}, each exactly once; the others stay pending and due, to be handed out by the
   * next {@code advance}. Only timers handed over count toward {@code limit}: if this method returns
   * fewer than {@code limit}, no timer that it was to fire is left pending, whatever the handler
   * cancelled or re-armed, so the only timers still due afterwards are those the handler armed.
   *
   * <p>The clock never moves backwards: if {@code now} is earlier than {@link #now()} the clock
   * stays, but timers that are due still fire. The clock is moved before the first timer is handed
   * over, so inside the handler {@code now()} is the new time, and the timer handed over is no longer
   * pending unless the handler re-arms it. Timers scheduled or re-armed by the handler fire in a
   * later {@code advance}, never in this one; timers it cancels before their turn never fire. If
   * the handler throws, the timer it was handed counts as fired, the exception propagates, and every
   * other due timer stays pending for the next {@code advance}.
   *
   * <p>Cost is the strategy's documented cost of moving time (often amortized over the timers that
   * move) plus a constant per fired timer.
   *
   * @param now the new time; a time earlier than {@link #now()} leaves the clock where it is
   * @param onExpired receives each fired timer
   * @param limit the most timers to fire in this call, at least 1
   * @return how many timers fired, at most {@code limit}
   * @throws IllegalArgumentException if {@code limit < 1}; the clock is not moved
   * @throws IllegalStateException if called from a handler of this queue
   * @throws NullPointerException if {@code onExpired} is {@code null}, whatever {@code limit}
   *     is; the clock is not moved
   */
  int advance(long now, Consumer<? super TimerHandle<T>> onExpired, int limit);

  /**
   * Returns how long the caller may wait before the next {@code advance} has work to do.
   *
   * <ul>
   *   <li>{@link Long#MAX_VALUE} if and only if the queue is empty;
   *   <li>{@code 0} if an {@code advance(now())} would fire at least one timer (with resolution 1:
   *       if and only if some timer is due);
   *   <li>otherwise a lower bound {@code d >= 1}: advancing to any time before {@code now() + d}
   *       fires nothing. Exact strategies return the distance to the earliest deadline; others may
   *       return less, but repeatedly advancing by the returned value reaches every timer in a
   *       number of steps logarithmic in its distance, never linear.
   * </ul>
   *
   * <p>Meant to be called on every turn of an event loop; each strategy documents its cost, which
   * is {@code O(1)} or amortized {@code O(1)} for most.
   *
   * @return the delay until the next timer may fire, {@code 0}, or {@link Long#MAX_VALUE}
   */
  long nextExpiryDelay();

  /**
   * Returns the number of pending timers, due ones included. Constant time.
   *
   * @return the number of pending timers
   */
  int size();

  /**
   * Removes every pending timer without handing any out. Their handles are no longer pending and
   * may be re-armed with {@link #reschedule}. The clock is not changed. May be called from a
   * handler: due timers not yet handed out then never fire. {@code O(n)} or better.
   */
  void clear();

  /**
   * Removes every pending timer, whatever its deadline, and hands each to {@code sink}; meant for
   * shutdown. Each timer is no longer pending when it is handed over. If the sink throws, the
   * exception propagates: the timers already handed over are removed, the others stay pending. The
   * sink must not modify this queue; if it does, which timers it receives is unspecified. The clock
   * is not changed. {@code O(n)} or better.
   *
   * @param sink receives each removed timer
   * @return how many timers were handed to the sink
   * @throws IllegalStateException if called from a handler of this queue
   * @throws NullPointerException if {@code sink} is {@code null}
   */
  int drain(Consumer<? super TimerHandle<T>> sink);

  /**
   * Hands every pending timer, due ones included, to {@code action} without changing anything. The
   * order is unspecified. The action must not modify this queue; if it does, which timers it visits
   * is unspecified. {@code O(n)} or better.
   *
   * @param action receives each pending timer
   * @throws NullPointerException if {@code action} is {@code null}
   */
  void forEach(Consumer<? super TimerHandle<T>> action);
}
