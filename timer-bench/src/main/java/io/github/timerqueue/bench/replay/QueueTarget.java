package io.github.timerqueue.bench.replay;

import io.github.timerqueue.TimerHandle;
import io.github.timerqueue.TimerQueue;
import java.util.function.Consumer;
import org.openjdk.jol.info.ClassLayout;

/**
 * A {@code TimerQueue} strategy under replay, used as its contract recommends for allocation-free
 * code: one handle per slot, created by the slot's first schedule and re-armed ever after.
 */
final class QueueTarget implements ReplayTarget {
  /** What a fired handle carries: its slot. One per slot, allocated once. */
  static final class Slot {
    final int index;

    Slot(int index) {
      this.index = index;
    }
  }

  private static final long SLOT_BYTES = ClassLayout.parseClass(Slot.class).instanceSize();

  private final TimerQueue<Slot> queue;
  private TimerHandle<Slot>[] handles;
  private final Consumer<TimerHandle<Slot>> onFire = this::onFire;
  private Fired fired;

  @SuppressWarnings("unchecked")
  QueueTarget(TimerQueue<Slot> queue) {
    this.queue = queue;
    this.handles = (TimerHandle<Slot>[]) new TimerHandle<?>[1024];
  }

  @Override
  public void schedule(int slot, long deadline) {
    TimerHandle<Slot> handle = handle(slot);
    if (handle == null) {
      handles[slot] = queue.schedule(deadline, new Slot(slot));
    } else {
      queue.reschedule(handle, deadline);
    }
  }

  @Override
  public void scheduleWithin(int slot, long earliest, long latest) {
    TimerHandle<Slot> handle = handle(slot);
    // A handle is re-armed by deadline only; a range needs a new timer, whose slot object is reused.
    handles[slot] = queue.scheduleWithin(earliest, latest,
        handle == null ? new Slot(slot) : handle.payload());
  }

  private TimerHandle<Slot> handle(int slot) {
    if (slot >= handles.length) {
      handles = java.util.Arrays.copyOf(handles, Math.max(slot + 1, handles.length * 2));
    }
    return handles[slot];
  }

  @Override
  public void cancel(int slot) {
    queue.cancel(handles[slot]);
  }

  @Override
  public void reschedule(int slot, long deadline) {
    queue.reschedule(handles[slot], deadline);
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
  public long nextExpiryDelay() {
    return queue.nextExpiryDelay();
  }

  @Override
  public void clear() {
    queue.clear();
  }

  @Override
  public long size() {
    return queue.size();
  }

  @Override
  public Object structure() {
    return queue;
  }

  @Override
  public long replayBytesPerTimer() {
    return SLOT_BYTES;
  }
}
