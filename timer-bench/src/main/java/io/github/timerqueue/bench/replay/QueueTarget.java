package io.github.timerqueue.bench.replay;

import io.github.timerqueue.TimerHandle;
import io.github.timerqueue.TimerQueue;
import io.github.timerqueue.bench.SlotQueue;
import java.util.function.Consumer;
import org.openjdk.jol.info.ClassLayout;

/**
 * A {@code TimerQueue} strategy under replay, driven by slot ({@link SlotQueue}), with slots added
 * as the trace's population grows.
 */
final class QueueTarget extends SlotQueue<QueueTarget.Slot> implements ReplayTarget {
  /** What a fired handle carries: its slot. One per slot, allocated once. */
  static final class Slot {
    final int index;

    Slot(int index) {
      this.index = index;
    }
  }

  private static final long SLOT_BYTES = ClassLayout.parseClass(Slot.class).instanceSize();

  private final Consumer<TimerHandle<Slot>> onFire = this::onFire;
  private Fired fired;

  QueueTarget(TimerQueue<Slot> queue) {
    super(queue, 1024);
  }

  @Override
  protected Slot payload(int slot) {
    return new Slot(slot);
  }

  @Override
  public void schedule(int slot, long deadline) {
    ensureSlot(slot);
    super.schedule(slot, deadline);
  }

  @Override
  public void scheduleWithin(int slot, long earliest, long latest) {
    ensureSlot(slot);
    TimerHandle<Slot> handle = handle(slot);
    // A handle is re-armed by deadline only; a range needs a new timer, whose slot object is reused.
    setHandle(slot, queue.scheduleWithin(earliest, latest,
        handle == null ? payload(slot) : handle.payload()));
  }

  @Override
  public int advance(long now, Fired fired) {
    this.fired = fired;
    return queue.advance(now, onFire);
  }

  private void onFire(TimerHandle<Slot> timer) {
    fired.fired(timer.payload().index, queue.now());
  }

  @Override
  public void clear() {
    queue.clear();
  }

  @Override
  public long replayBytesPerTimer() {
    return SLOT_BYTES;
  }
}
