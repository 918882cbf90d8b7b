package io.github.timerqueue.cascade;

/**
 * A bucket of timers kept in order: the due timers, in the order they became due, waiting for the
 * next advance or firing in the running one; or a level's sorted bucket, a bucket of the level
 * whose timers were in tick order when the base entered its group, which it took whole (see
 * {@link CascadeTimerQueue}).
 *
 * <p>The live timers lie between slots {@code first} and {@code end - 1}, in order. Order forbids
 * moving the last timer into a freed slot, so removing a timer leaves a hole, which taking from the
 * front skips. Holes never outnumber the live timers by more than {@value #SLACK} in the bucket
 * that collects due timers: when they would, it is compacted in order (see {@link
 * #compactIfSparse}). The firing bucket is never compacted while it fires, so that its front stays
 * where the advance reads it; it holds no more holes than the timers it started firing with.
 */
final class DueBucket extends SlotBucket {
  /** Holes tolerated on top of one per live timer before compacting. */
  static final int SLACK = 16;

  /** The first slot that may hold a timer; every slot before it is {@code null}. */
  int first;
  /** The largest array the bucket keeps when it empties, rather than give it to the pool. */
  private final int keptCapacity;

  /**
   * Creates a bucket that keeps an array of up to {@code keptCapacity} slots when it empties: a due
   * bucket fills again at the next advance, a sorted one only when the base enters another group.
   */
  DueBucket(int number, int positionBase, SlotPool pool, int keptCapacity) {
    super(number, positionBase, pool);
    this.keptCapacity = keptCapacity;
  }

  /**
   * Makes room after the end for {@code count} timers: compacts if at most half the array holds
   * timers, or if the timers would end beyond the slots a position can name, and doubles the
   * array (or more) if that leaves too little room.
   */
  @Override
  void makeRoom(int count) {
    if (slots.length > 0
        && (live <= slots.length >>> 1 || end + count > pool.maxSlots)) {
      compact();
    }
    if (slots.length - end < count) {
      pool.grow(this, end + count, true);
    }
  }

  /** Takes the timer out of {@code slot}, leaving a hole. */
  void remove(int slot) {
    slots[slot] = null;
    if (--live == 0) {
      emptied();
    }
  }

  /** Compacts the bucket if holes outnumber the timers by more than {@value #SLACK}. */
  void compactIfSparse() {
    if (end - first - live > live + SLACK) {
      compact();
    }
  }

  /**
   * Returns the first timer without taking it out, or {@code null} if there is none; moves {@link
   * #first} past the holes before it.
   */
  CascadeTimer<?> peekFirst() {
    CascadeTimer<?>[] slots = this.slots;
    for (int slot = first; slot < end; slot++) {
      CascadeTimer<?> timer = slots[slot];
      if (timer != null) {
        first = slot;
        return timer;
      }
    }
    return null;
  }

  /** Takes the first timer out, or returns {@code null} if there is none. */
  CascadeTimer<?> pollFirst() {
    CascadeTimer<?>[] slots = this.slots;
    for (int slot = first; slot < end; slot++) {
      CascadeTimer<?> timer = slots[slot];
      if (timer != null) {
        slots[slot] = null;
        if (--live == 0) {
          emptied();
        } else {
          first = slot + 1;
        }
        return timer;
      }
    }
    return null;
  }

  /** Takes out the first timer, which {@link #peekFirst} has just returned. */
  void takeFirst() {
    int slot = first;
    slots[slot] = null;
    if (--live == 0) {
      emptied();
    } else {
      first = slot + 1;
    }
  }

  /** Moves every timer of {@code from}, in order, after this bucket's last. */
  void takeAllLast(DueBucket from) {
    CascadeTimer<?>[] taken = from.slots;
    for (int slot = from.first; slot < from.end; slot++) {
      CascadeTimer<?> timer = taken[slot];
      if (timer != null) {
        taken[slot] = null;
        add(timer);
      }
    }
    from.emptied();
  }

  /**
   * Takes over, instead of copying its timers, the array of a bucket whose timers all became due
   * at once, in slots {@code 0} to {@code takenEnd - 1} with {@code takenLive} of them not holes;
   * this bucket must be empty. Records the timers' positions, compacts if the array's holes
   * outnumber its timers by more than {@value #SLACK}, and returns this bucket's own array, all
   * {@code null}, for the bucket the timers came from.
   */
  CascadeTimer<?>[] adopt(CascadeTimer<?>[] taken, int takenEnd, int takenLive) {
    CascadeTimer<?>[] own = takeOver(taken, takenEnd, takenLive);
    for (int slot = 0; slot < takenEnd; slot++) {
      CascadeTimer<?> timer = taken[slot];
      if (timer != null) {
        timer.position = positionOf(slot);
      }
    }
    compactIfSparse();
    return own;
  }

  /**
   * Takes over the array of a bucket as {@link #adopt} does, but writes nothing in the timers: they
   * keep their positions, which name this bucket's slots as well when slot 0 of both has the same
   * position (a level's sorted bucket and a bucket of the level). This bucket must be empty;
   * returns its own array, all {@code null}.
   */
  CascadeTimer<?>[] takeOver(CascadeTimer<?>[] taken, int takenEnd, int takenLive) {
    CascadeTimer<?>[] own = slots;
    slots = taken;
    first = 0;
    end = takenEnd;
    live = takenLive;
    return own;
  }

  /** Marks the bucket empty after its timers were taken out and their slots cleared. */
  void emptied() {
    slots = pool.afterEmptying(slots, keptCapacity);
    first = 0;
    end = 0;
    live = 0;
  }

  /** Moves the timers to the front, in order, and records their new positions. */
  private void compact() {
    CascadeTimer<?>[] slots = this.slots;
    int to = 0;
    for (int from = first; from < end; from++) {
      CascadeTimer<?> timer = slots[from];
      if (timer != null) {
        slots[from] = null;
        slots[to] = timer;
        timer.position = positionOf(to);
        to++;
      }
    }
    first = 0;
    end = to;
    if (SlotPool.shouldShrink(slots, to)) {
      this.slots = pool.halved(slots, to);
    }
  }
}
