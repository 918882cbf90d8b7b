package io.github.timerqueue.bench;

/**
 * What the workloads do to a timer structure, in terms that a {@code TimerQueue} strategy and
 * Agrona's {@code DeadlineTimerWheel} can both express, so that one piece of workload code drives
 * every contender.
 *
 * <p>Timers are addressed by slot, {@code 0} to {@code capacity - 1}: the caller's record of its
 * timers (a handle per slot for a {@code TimerQueue}, a timer id per slot for Agrona), kept outside
 * the measured structure as a user would keep it in its connection objects.
 */
interface Timers {

  /** Arms the timer of {@code slot}, which is not pending, to fire at {@code deadline}. */
  void schedule(int slot, long deadline);

  /** Cancels the timer of {@code slot}; returns whether it was pending. */
  boolean cancel(int slot);

  /** Moves the timer of {@code slot} to {@code deadline}; returns whether it was pending. */
  boolean reschedule(int slot, long deadline);

  /**
   * Moves the clock to {@code now} and fires every timer due by then, re-arming each one that fires
   * at {@code now + rearmDelays.next()}, so that the population stays the same.
   *
   * @return how many timers fired
   */
  int advance(long now, DelaySequence rearmDelays);

  /** The structure's own estimate of the time until the next timer may fire. */
  long nextExpiryDelay();

  /** The number of pending timers. */
  long size();

  /** The object graph whose size is the memory the pending timers cost. */
  Object structure();
}
