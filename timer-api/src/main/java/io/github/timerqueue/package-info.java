/**
 * Timer queues: one single-threaded, caller-clocked {@link io.github.timerqueue.TimerQueue}
 * interface, several data structures behind it, each created by name through {@link
 * io.github.timerqueue.TimerQueues}.
 *
 * <p>The contract every strategy keeps (never early, bounded lateness, re-entrant handlers, stale
 * handles safe forever, what {@code nextExpiryDelay} promises) is the Javadoc of {@link
 * io.github.timerqueue.TimerQueue}; a strategy is registered through {@link
 * io.github.timerqueue.spi.TimerQueueProvider}.
 *
 * <h2>Vocabulary</h2>
 * Every strategy, its documentation and its tests use these words, each for one thing only:
 * <dl>
 *   <dt><b>timer</b>, <b>handle</b></dt>
 *   <dd>A timer is one scheduled deadline with its payload; its {@link
 *       io.github.timerqueue.TimerHandle handle} is how the caller refers to it. A strategy's
 *       handle class is its timer.
 *   <dt><b>pending</b></dt>
 *   <dd>Scheduled and not yet fired, cancelled, drained or cleared.
 *   <dt><b>due</b></dt>
 *   <dd>Of a timer: its deadline is at or before the queue's clock ({@code now() - deadline >= 0}),
 *       so it fires in the next {@code advance}. Of a list: the timers waiting for the next {@code
 *       advance} to hand them out.
 *   <dt><b>firing</b></dt>
 *   <dd>The batch that the running {@code advance} is handing to its handler, one timer at a time.
 *       A timer that a handler makes due joins the due timers, never the firing batch.
 *   <dt><b>bucket</b></dt>
 *   <dd>A list of timers kept together because they share a position of the structure: a bin of
 *       {@code hitime}, one position of a level in {@code wheel} and {@code cascade}, the queue of
 *       one TTL in {@code lawn}.
 *   <dt><b>slot</b></dt>
 *   <dd>One timer's place in its bucket. A pending timer records its slot, so that cancelling it
 *       writes to that one place rather than searching.
 *   <dt><b>tick</b></dt>
 *   <dd>The queue's time divided by its {@linkplain io.github.timerqueue.TimerConfig#resolution()
 *       resolution}, counted from its start time: the unit in which the wheels and bins file
 *       timers.
 *   <dt><b>level</b></dt>
 *   <dd>One ring of buckets of a hierarchical wheel, each bucket spanning a power-of-two number of
 *       ticks; <b>cascading</b> is moving the timers of a coarse level's bucket to finer levels as
 *       the clock reaches it.
 * </dl>
 */
package io.github.timerqueue;
