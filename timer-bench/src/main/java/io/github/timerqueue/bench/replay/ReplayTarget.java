package io.github.timerqueue.bench.replay;

/**
 * What a replay does to a timer structure, in terms that a {@code TimerQueue} strategy and Agrona's
 * {@code DeadlineTimerWheel} can both express. Times are in the trace's ticks (one tick per
 * resolution of the replay). Timers are addressed by slot, as a program addresses them through the
 * handle or id it keeps per connection or request; the replay maps trace ids to slots and reuses
 * the slot (and its handle) of a timer that fired or was cancelled.
 */
interface ReplayTarget {

  /** Receives each timer that fires. */
  @FunctionalInterface
  interface Fired {
    void fired(int slot, long now);
  }

  /** Arms the timer of {@code slot}, which is not pending, for {@code deadline}. */
  void schedule(int slot, long deadline);

  /** Arms the timer of {@code slot}, which is not pending, for a time in the range. */
  void scheduleWithin(int slot, long earliest, long latest);

  /** Cancels the pending timer of {@code slot}; returns whether it was pending. */
  boolean cancel(int slot);

  /** Moves the timer of {@code slot} to {@code deadline}; returns whether it was pending. */
  boolean reschedule(int slot, long deadline);

  /** Moves the clock to {@code now}, handing each timer that fires to {@code fired}; returns how many. */
  int advance(long now, Fired fired);

  /**
   * How long an event loop may sleep: the strategy's {@code nextExpiryDelay}, or for a structure
   * without one, one tick while timers are pending (it must be polled every tick).
   */
  long nextExpiryDelay();

  /** Removes every pending timer. */
  void clear();

  /** The number of pending timers. */
  long size();

  /** The object graph whose size is the memory the pending timers cost. */
  Object structure();

  /** The bytes the structure's graph holds per pending timer that are the replay's, not its own. */
  long replayBytesPerTimer();
}
