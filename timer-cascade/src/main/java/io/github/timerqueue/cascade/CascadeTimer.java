package io.github.timerqueue.cascade;

import io.github.timerqueue.TimerHandle;

/**
 * A timer of a {@link CascadeTimerQueue}: its handle, and its link in whichever list holds it (a
 * bucket of a level, the far list, or the list of due timers).
 */
final class CascadeTimer<T> extends Link implements TimerHandle<T> {
  /** {@link #where} of a timer that is not pending. */
  static final int NOT_PENDING = -1;
  /** {@link #where} of a timer in the far list. */
  static final int FAR = -2;
  /** {@link #where} of a due timer, waiting in the due list or in the running advance's batch. */
  static final int DUE = -3;

  final CascadeTimerQueue<T> queue;
  final T payload;
  long deadline;
  /**
   * The tick at which it fires, counted in resolutions from the start time, as an unsigned value:
   * its deadline rounded up. For a due timer, the base when it became due.
   */
  long tick;
  /** The index of the level whose bucket holds it, or {@link #FAR}, {@link #DUE}, {@link #NOT_PENDING}. */
  int where = NOT_PENDING;

  CascadeTimer(CascadeTimerQueue<T> queue, T payload) {
    this.queue = queue;
    this.payload = payload;
  }

  @Override
  public T payload() {
    return payload;
  }

  @Override
  public long deadline() {
    return deadline;
  }

  @Override
  public boolean isPending() {
    return where != NOT_PENDING;
  }

  @Override
  public String toString() {
    return "CascadeTimer{deadline=" + deadline + ", pending=" + isPending() + ", payload=" + payload
        + "}";
  }
}
