package io.github.timerqueue.cascade;

/**
 * A bucket of a level, or the far bucket: the timers in a growable array of slots, in no order.
 *
 * <p>Slots {@code 0} to {@code end - 1} all hold timers; each timer's {@linkplain
 * CascadeTimer#position position} names this bucket and its slot. Adding writes the slot after the
 * last. Removing moves the last timer into the freed slot, so a cancel touches the timer, its slot,
 * and the last slot and the timer in it, and never leaves a hole: no cancelled slot is ever kept.
 * A cascade or firing reads the slots in order, from contiguous memory.
 */
final class Bucket {
  /** This bucket's number in positions. */
  final int number;
  private final SlotPool pool;
  CascadeTimer<?>[] slots = SlotPool.NONE;
  /** The number of timers, which fill slots {@code 0} to {@code end - 1}. */
  int end;

  Bucket(int number, SlotPool pool) {
    this.number = number;
    this.pool = pool;
  }

  boolean isEmpty() {
    return end == 0;
  }

  /** Puts a timer in the slot after the last, and records its position. */
  void add(CascadeTimer<?> timer) {
    int slot = end;
    if (slot == slots.length) {
      slots = pool.grown(slots, number != CascadeTimerQueue.FAR_BUCKET);
    }
    slots[slot] = timer;
    end = slot + 1;
    timer.position = CascadeTimer.position(number, slot);
  }

  /** Whether {@code slot} holds {@code timer}. */
  boolean holds(int slot, CascadeTimer<?> timer) {
    return slot < end && slots[slot] == timer;
  }

  /** Takes the timer out of {@code slot}, moving the last timer into it. */
  void remove(int slot) {
    CascadeTimer<?>[] slots = this.slots;
    int last = --end;
    CascadeTimer<?> moved = slots[last];
    slots[last] = null;
    if (slot != last) {
      slots[slot] = moved;
      moved.position = CascadeTimer.position(number, slot);
    }
    if (last == 0) {
      this.slots = pool.afterEmptying(slots, 0);
    } else if (SlotPool.shouldShrink(slots, last)) {
      this.slots = pool.halved(slots, last);
    }
  }

  /**
   * Marks the bucket empty after its timers were taken out at once and their slots cleared; it
   * keeps its array if that has at most {@code kept} slots, else gives it to the pool.
   */
  void emptied(int kept) {
    end = 0;
    slots = pool.afterEmptying(slots, kept);
  }
}
