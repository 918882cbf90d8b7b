package io.github.timerqueue.cascade;

/**
 * A bucket of a level, or the far bucket: the timers in a growable array of slots, in no order.
 *
 * <p>The timers lie in slots {@code 0} to {@code end - 1}, and each timer's {@linkplain
 * CascadeTimer#position position} names this bucket and its slot. Adding writes the slot after
 * the last. Removing empties the slot and leaves a hole there, so a cancel touches only the timer
 * and its slot; the slot before the end is then the last one that holds a timer (holes at the end
 * are dropped at once). Holes never outnumber three per timer plus {@value #SLACK}: a removal
 * that would leave more, and an add that finds the array full with a quarter of it or more in
 * holes, compact the bucket, moving its last timers into the holes; a full array with fewer holes
 * is doubled, so a bucket of timers that come and go keeps its array's size. A compaction moves
 * at most one timer per hole, so at most as many as there were removals since the last one, and
 * reads at most four slots per hole: it costs {@code O(1)} amortized per cancel. A cascade or
 * firing reads the slots in order, from contiguous memory, skipping holes.
 */
final class Bucket extends SlotBucket {
  /*
   * Why holes rather than moving the last timer into the freed slot: that move writes the moved
   * timer's position, a third cache line per cancel (a timer picked at random from a large queue
   * is not in cache), where a hole costs nothing until the bucket is swept, which reads every slot
   * anyway, or compacted, which happens once per as many cancels as it moves timers.
   *
   * Why a full array is compacted only when a quarter of it is holes: a compaction reads the
   * whole array and moves about one timer per hole times the share of slots that hold timers, so
   * with few holes it reads many slots per hole and moves nearly a timer (its position: a cache
   * line) per cancel. A bucket of timers that come and go at random whose array was 95% full
   * compacted every 5% of its size in adds, reading 20 slots per add; with a 64th as the rule,
   * compaction took about 40% of the CPU samples of schedule+cancel at 10^4 timers. With a
   * quarter, such an array doubles once instead and then moves at most three timers per four
   * cancels, reading at most four slots per add: thread-CPU per reschedule at 10^4 timers went
   * from 27 to 22 ns (OperationCpu). It costs memory only where timers come and go: an array
   * doubled then holds at least 3/8 of a timer per slot instead of 1/2 (MemoryFootprint with one
   * TTL at 10^6 timers: 36.2 bytes per timer after filling either way, 40.4 instead of 36.2 after
   * as many schedule+cancel operations), and none in a bucket only filled.
   */

  /** Holes tolerated on top of three per timer before a removal compacts. */
  static final int SLACK = 64;
  /** How many timers a compaction moves before it writes their positions. */
  static final int COMPACTED_CHUNK = 64;
  /** The bit of {@link #tickOrder} set once a timer came out of tick order. */
  static final int OUT_OF_ORDER = 1;

  /**
   * Whether the bucket's timers came in tick order since it was last empty, and the tick of the
   * one added last: its low 31 bits above bit 0, which is {@link #OUT_OF_ORDER} once a timer was
   * added before the tick of the one before it or a compaction moved timers. Ticks compare by the
   * sign of the 32-bit difference of their shifted low bits, which orders them truly while the
   * bucket's ticks lie within 2<sup>30</sup> of each other (see {@link
   * CascadeTimerQueue#tracksOrder}). An {@code int}, in the 4 bytes the object's alignment leaves
   * after the other fields, so that a bucket stays 40 bytes.
   */
  int tickOrder;

  Bucket(int number, int positionBase, SlotPool pool) {
    super(number, positionBase, pool);
  }

  /**
   * Makes room after the end for {@code count} timers: compacts the bucket if holes fill a
   * quarter of its array or more, or if the timers would end beyond the slots a position can
   * name, and doubles the array (or more) if that leaves too little room.
   */
  @Override
  void makeRoom(int count) {
    if (live < end && (live <= end - (end >>> 2) || end + count > pool.maxSlots)) {
      compact();
    }
    if (slots.length - end < count) {
      pool.grow(this, end + count, number != CascadeTimerQueue.FAR_BUCKET);
    }
  }

  /**
   * Records the tick of the timer just added, the bucket's last, for {@link #inTickOrder}. A
   * timer added to an empty bucket starts the order afresh.
   */
  void addedTick(long tick) {
    follow(tick, end == 1);
  }

  /**
   * Records the ticks of the {@code count} timers just added in one run, the bucket's last: the
   * first timer's, the last one's ({@code latestTick}), and whether each timer of the run had a
   * tick at or after the one before it.
   */
  void addedRun(int count, long firstTick, long latestTick, boolean inOrder) {
    follow(firstTick, end == count);
    follow(latestTick, false);
    if (!inOrder) {
      tickOrder |= OUT_OF_ORDER;
    }
  }

  /** Records {@code tick} as the last, after the tick recorded unless the bucket was empty. */
  private void follow(long tick, boolean first) {
    int shifted = (int) tick << 1;
    int order = tickOrder;
    // The difference is negative if the tick is before the last one, or if it is the same one and
    // the bucket is already out of order; its sign bit joins the bit kept.
    int outOfOrder = (order | (shifted - order) >>> 31) & OUT_OF_ORDER;
    tickOrder = first ? shifted : shifted | outOfOrder;
  }

  /**
   * Whether the bucket's timers lie in its slots in tick order, ties in any order, as {@link
   * #tickOrder} tells: costs no read of a timer.
   */
  boolean inTickOrder() {
    return (tickOrder & OUT_OF_ORDER) == 0;
  }

  /**
   * Takes the timer out of {@code slot} as {@link #remove} does, except that if that leaves a hole
   * before the last timer and no compaction, the slot is left as it is, for the caller to empty
   * before anything reads the slots; returns whether it was.
   */
  boolean takeOutLeavingSlot(int slot) {
    int live = this.live - 1;
    if (live > 0 && slot < end - 1 && !tooManyHoles(live)) {
      this.live = live;
      return true;
    }
    remove(slot);
    return false;
  }

  /** Takes the timer out of {@code slot}, leaving a hole. */
  void remove(int slot) {
    CascadeTimer<?>[] slots = this.slots;
    slots[slot] = null;
    int live = --this.live;
    if (live == 0) {
      end = 0;
      this.slots = pool.afterEmptying(slots, 0);
    } else if (slot == end - 1) {
      // The end moves back to the last timer; live > 0, so one lies before the slot.
      int last = slot - 1;
      while (slots[last] == null) {
        last--;
      }
      end = last + 1;
      shrinkIfSparse();
    } else if (tooManyHoles(live)) {
      compact();
    }
  }

  /** Whether the slots before the end hold more holes than a bucket of {@code live} timers may. */
  private boolean tooManyHoles(int live) {
    return end - live > 3 * live + SLACK;
  }

  /**
   * Marks the bucket empty after its timers were taken out at once and their slots cleared; it
   * keeps its array if that has at most {@code kept} slots, else gives it to the pool.
   */
  void emptied(int kept) {
    end = 0;
    live = 0;
    slots = pool.afterEmptying(slots, kept);
  }

  /** Empties the bucket whose timers another took with its array, giving it {@code empty}. */
  void restart(CascadeTimer<?>[] empty) {
    slots = empty;
    end = 0;
    live = 0;
  }

  /**
   * Fills the holes among the first {@code live} slots with the last timers, and records their
   * positions: only timers beyond the first {@code live} slots move, at most one per hole. The
   * timers move {@value #COMPACTED_CHUNK} at a time, and their positions are written after each
   * such chunk's moves, not with each move: each reference stored into the array runs G1's write
   * barrier, whose fence would wait for the position written just before it, a cache miss in a
   * timer picked at random, so that no two of those misses would overlap.
   */
  private void compact() {
    // Moving the last timers into holes before them breaks the order of the slots.
    tickOrder |= OUT_OF_ORDER;
    CascadeTimer<?>[] slots = this.slots;
    int[] filled = pool.filledHoles;
    int hole = 0;
    int last = end - 1;
    int moved;
    do {
      moved = 0;
      while (moved < COMPACTED_CHUNK) {
        while (hole < last && slots[hole] != null) {
          hole++;
        }
        while (last > hole && slots[last] == null) {
          last--;
        }
        if (hole >= last) {
          break;
        }
        slots[hole] = slots[last];
        slots[last] = null;
        filled[moved++] = hole;
      }
      for (int i = 0; i < moved; i++) {
        int slot = filled[i];
        slots[slot].position = positionOf(slot);
      }
    } while (moved == COMPACTED_CHUNK);
    end = live;
    shrinkIfSparse();
  }

  /** Halves the array while less than a quarter of it lies before the end (above a floor). */
  private void shrinkIfSparse() {
    while (SlotPool.shouldShrink(slots, end)) {
      slots = pool.halved(slots, end);
    }
  }
}
