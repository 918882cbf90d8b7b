package io.github.timerqueue.bench;

import io.github.timerqueue.TimerHandle;
import io.github.timerqueue.TimerQueue;
import java.util.function.Consumer;

/**
 * A {@link TimerQueue} strategy behind the workloads, driven by slot ({@link SlotQueue}), each
 * fired timer re-armed with {@code reschedule} from the {@code advance} handler.
 */
final class QueueTimers extends SlotQueue<Object> implements Timers {
  /** One payload shared by every timer, so that memory per timer measures the strategy alone. */
  static final Object PAYLOAD = new Object();

  private final Consumer<TimerHandle<Object>> rearm = this::rearm;
  private DelaySequence rearmDelays;

  QueueTimers(TimerQueue<Object> queue, int capacity) {
    super(queue, capacity);
  }

  @Override
  protected Object payload(int slot) {
    return PAYLOAD;
  }

  @Override
  public int advance(long now, DelaySequence rearmDelays) {
    this.rearmDelays = rearmDelays;
    return queue.advance(now, rearm);
  }

  private void rearm(TimerHandle<Object> timer) {
    queue.reschedule(timer, queue.now() + rearmDelays.next());
  }
}
