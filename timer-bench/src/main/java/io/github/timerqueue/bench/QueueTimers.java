package io.github.timerqueue.bench;

import io.github.timerqueue.TimerHandle;
import io.github.timerqueue.TimerQueue;
import java.util.function.Consumer;

/**
 * A {@link TimerQueue} strategy behind the workloads, used as its contract recommends for
 * allocation-free code: one handle per slot, created by the slot's first {@code schedule} and
 * re-armed with {@code reschedule} ever after, also from the {@code advance} handler.
 */
final class QueueTimers implements Timers {
  /** One payload shared by every timer, so that memory per timer measures the strategy alone. */
  static final Object PAYLOAD = new Object();

  private final TimerQueue<Object> queue;
  private final TimerHandle<Object>[] handles;
  private final Consumer<TimerHandle<Object>> rearm = this::rearm;
  private DelaySequence rearmDelays;

  @SuppressWarnings("unchecked")
  QueueTimers(TimerQueue<Object> queue, int capacity) {
    this.queue = queue;
    this.handles = (TimerHandle<Object>[]) new TimerHandle<?>[capacity];
  }

  @Override
  public void schedule(int slot, long deadline) {
    TimerHandle<Object> handle = handles[slot];
    if (handle == null) {
      handles[slot] = queue.schedule(deadline, PAYLOAD);
    } else {
      queue.reschedule(handle, deadline);
    }
  }

  @Override
  public boolean cancel(int slot) {
    return queue.cancel(handles[slot]);
  }

  @Override
  public boolean reschedule(int slot, long deadline) {
    return queue.reschedule(handles[slot], deadline);
  }

  @Override
  public int advance(long now, DelaySequence rearmDelays) {
    this.rearmDelays = rearmDelays;
    return queue.advance(now, rearm);
  }

  private void rearm(TimerHandle<Object> timer) {
    queue.reschedule(timer, queue.now() + rearmDelays.next());
  }

  @Override
  public long nextExpiryDelay() {
    return queue.nextExpiryDelay();
  }

  @Override
  public long size() {
    return queue.size();
  }

  @Override
  public Object structure() {
    return queue;
  }
}
