package io.github.timerqueue.cascade;

/**
 * What every bucket of a queue shares: its timers in a growable array of slots from its {@link
 * SlotPool}, each added after the last and knowing its bucket's kind and its slot through its
 * {@linkplain CascadeTimer#position position}, and the count of them. A removed timer leaves a
 * hole (a {@code null} slot) before the end; each kind of bucket bounds its holes and makes room
 * its own way ({@link #makeRoom}).
 */
abstract class SlotBucket {
  /**
   * This bucket's number, its index in the queue's map of buckets; -1 for a level's sorted bucket,
   * which the queue finds by its level.
   */
  final int number;
  /** The position of this bucket's slot 0: its kind, shifted above the slot's bits. */
  final int positionBase;
  final SlotPool pool;
  CascadeTimer<?>[] slots = SlotPool.NONE;
  /** One past the last slot that may hold a timer; every slot from it on is {@code null}. */
  int end;
  /** The number of timers: the slots before {@code end} that are not holes. */
  int live;

  SlotBucket(int number, int positionBase, SlotPool pool) {
    this.number = number;
    this.positionBase = positionBase;
    this.pool = pool;
  }

  /** The position of a timer in {@code slot} of this bucket. */
  final int positionOf(int slot) {
    return positionBase | slot;
  }

  final boolean isEmpty() {
    return live == 0;
  }

  /** Whether {@code slot} holds {@code timer}. */
  final boolean holds(int slot, CascadeTimer<?> timer) {
    return slot < end && slots[slot] == timer;
  }

  /** Puts a timer in the slot after the last, and records its position. */
  final void add(CascadeTimer<?> timer) {
    if (end == slots.length) {
      makeRoom(1);
    }
    int slot = end;
    slots[slot] = timer;
    end = slot + 1;
    live++;
    timer.position = positionOf(slot);
  }

  /**
   * Puts the timers of {@code source[from]} to {@code source[from + count - 1]} after the last, in
   * order and in one copy, and records their positions; leaves the rest of {@code source} as it
   * is. The source may be this bucket's own array, from a slot at or after the end: a sweep
   * re-filing timers into the bucket it empties.
   */
  final void addRun(CascadeTimer<?>[] source, int from, int count) {
    if (slots.length - end < count) {
      makeRoom(count);
    }
    int first = end;
    CascadeTimer<?>[] slots = this.slots;
    // One copy pays the collector's write barrier once for the run, where a store per timer pays
    // it per timer.
    System.arraycopy(source, from, slots, first, count);
    for (int slot = first; slot < first + count; slot++) {
      slots[slot].position = positionOf(slot);
    }
    end = first + count;
    live += count;
  }

  /**
   * Makes room after the end for {@code count} timers, by compacting the bucket or growing its
   * array (see {@link SlotPool#grow}); the bucket then ends at or before {@link
   * SlotPool#maxSlots}, which the queue's size bounds its timers by.
   */
  abstract void makeRoom(int count);
}
