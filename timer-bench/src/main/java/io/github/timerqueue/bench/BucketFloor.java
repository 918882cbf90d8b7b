package io.github.timerqueue.bench;

import java.util.Arrays;

/**
 * Not a timer structure: the least that schedule+cancel and reschedule can cost a strategy that
 * files handle objects in buckets of slots, as {@code hitime}, the wheel and {@code cascade} do,
 * run as a contender through the same fill, collection and sequences as they are ({@link
 * TimerBenchmark}), so that a strategy's time can be set against it, and against Agrona's, in one
 * run. {@link MemoryFloorBenchmark} measures the same touches without the harness, to follow their
 * growth with the population.
 *
 * <p>Four depths, by contender name, each doing what the one before does and more:
 *
 * <ul>
 *   <li>{@value #TOUCHES}: the caller's handle array, the handle (its owner checked, its deadline
 *       and position written), an append at the tail of one ring, and the clear of the slot the
 *       handle leaves: the touches no such strategy avoids. Each clear comes after an append, in
 *       the cheaper of the two orders: a reschedule clears after its own append, and a cancel
 *       leaves its slot to the next operation, which clears it after its append, as the wheel and
 *       {@code cascade} do, so that the append's fence does not wait for that slot's miss.
 *   <li>{@value #BINNED}: a ring per bin, each timer's bin found from its deadline as {@code
 *       hitime} finds it (the highest bit in which its tick differs from the clock's), the old
 *       bin from the deadline the handle held.
 *   <li>{@value #COUNTED}: each ring counts its timers, and a bitmap marks the bins that hold any,
 *       the bookkeeping without which a strategy cannot tell its next expiry. A ring counts a
 *       timer out when its slot is cleared, so a cancel leaves that to the next operation too.
 *   <li>{@value #COMPACTED}: each bin's slots are an array, not a ring, of twice the bin's share
 *       of the timers: beside a 32-byte handle, the most that 40 bytes per timer leave. An append
 *       that finds the array's end makes room as a first-in, first-out bucket must: it slides the
 *       timers down over the holes in their order, rewrites the position of each timer it moved,
 *       and doubles the array if more than half of its slots still hold timers, as {@code
 *       hitime}'s buckets do. A reschedule that finds its own bin's array full clears its old
 *       slot before it appends, so that making room does not move the timer it is moving.
 * </ul>
 *
 * What the first three do not do, and every real strategy must: make room. A ring's tail runs on
 * over the slots of timers that are still in it, where a real bucket compacts or grows rather than
 * lose them. The last makes room but does nothing else that a strategy must: it keeps no order of
 * ticks, checks no argument and has no timers due. So each depth is a floor, never an estimate. A
 * floor fires nothing: {@link #advance} only checks that nothing is due, as the fill's first move
 * of the clock finds.
 */
final class BucketFloor implements Timers {
  /** The contender name of the bare touches. */
  static final String TOUCHES = "floor";
  /** The contender name of the touches with the buckets found from the deadlines. */
  static final String BINNED = "floor-binned";
  /** The contender name of the binned touches with the buckets' counts kept. */
  static final String COUNTED = "floor-counted";
  /** The contender name of the counted touches in arrays that make room for their timers. */
  static final String COMPACTED = "floor-compacted";

  /** The workloads' deadlines span this many bits of ticks ({@link Scenario#WIDE_RANGE}). */
  private static final int TICK_BITS =
      Long.numberOfTrailingZeros(Scenario.WIDE_RANGE / Scenario.RESOLUTION);
  private static final int RESOLUTION_SHIFT = Long.numberOfTrailingZeros(Scenario.RESOLUTION);
  private static final int MIN_RING = 1024;
  private static final int BINS = Long.SIZE;

  /** A handle as the strategies' are: header, owner, payload, deadline, position (32 bytes). */
  static final class Handle {
    Object owner;
    Object payload;
    long deadline;
    int position = -1;
  }

  /**
   * A ring of slots with its tail and, from the {@link #COUNTED} depth on, its count of timers; at
   * the {@link #COMPACTED} depth an array whose tail stops at its end.
   */
  static final class Ring {
    Handle[] slots;
    int tail;
    int size;

    Ring(int capacity) {
      slots = new Handle[capacity];
    }

    /**
     * Slides the timers down over the holes, in their order, and rewrites the position of each
     * one moved; then doubles the array if more than half its slots hold timers. {@code taken} is
     * scratch space for the positions of one stretch of slots.
     */
    void makeRoom(int[] taken) {
      Handle[] slots = this.slots;
      int packed = 0;
      int firstMoved = tail;
      for (int start = 0; start < tail; start += taken.length) {
        int end = Math.min(start + taken.length, tail);
        // The taken positions first, with no branch on whether each slot holds a timer, which
        // holes left at random would mispredict every other slot.
        int count = 0;
        for (int index = start; index < end; index++) {
          taken[count] = index;
          count += slots[index] != null ? 1 : 0;
        }
        for (int i = 0; i < count; i++) {
          int index = taken[i];
          if (index != packed) {
            firstMoved = Math.min(firstMoved, packed);
            slots[packed] = slots[index];
          }
          packed++;
        }
      }
      Arrays.fill(slots, packed, tail, null);
      // Apart from the moves, whose reference stores each fence under G1: these writes miss, and
      // here they overlap.
      for (int index = firstMoved; index < packed; index++) {
        slots[index].position = index;
      }
      tail = packed;
      if (packed > slots.length / 2) {
        this.slots = Arrays.copyOf(slots, 2 * slots.length);
      }
    }
  }

  private final Object[] handles;
  private final Ring[] rings = new Ring[BINS];
  private final boolean binned;
  private final boolean counted;
  private final boolean compacted;
  /** Scratch space of {@link Ring#makeRoom}. */
  private final int[] taken = new int[256];
  /** The bins whose rings hold timers, kept at the {@link #COUNTED} depth. */
  private long occupied;
  private long size;
  /** The bin and slot that the last cancel emptied, left to the next operation; -1: none. */
  private int leftBin;
  private int leftPosition = -1;

  /** Whether {@code name} is one of the floors' contender names. */
  static boolean isFloor(String name) {
    return name.equals(TOUCHES) || name.equals(BINNED) || name.equals(COUNTED)
        || name.equals(COMPACTED);
  }

  /**
   * A floor of the depth that {@code name} gives, for {@code capacity} timers.
   *
   * @throws IllegalArgumentException if {@code name} is not one of the floors' names
   */
  BucketFloor(String name, int capacity) {
    if (!isFloor(name)) {
      throw new IllegalArgumentException(
          "'" + name + "' is not a floor; floors are " + TOUCHES + ", " + BINNED + ", " + COUNTED
              + ", " + COMPACTED);
    }
    handles = new Object[capacity];
    binned = !name.equals(TOUCHES);
    compacted = name.equals(COMPACTED);
    counted = compacted || name.equals(COUNTED);
    if (binned) {
      // Each bin twice as large as the share of uniform delays that falls in it: bin b holds the
      // 2^b ticks from 2^b on, the last bin only the range's last tick.
      for (int bin = 0; bin <= TICK_BITS; bin++) {
        long ticks = bin < TICK_BITS ? 1L << bin : 1;
        long share = ((long) capacity * ticks) >>> TICK_BITS;
        rings[bin] = new Ring(compacted
            ? (int) Math.max(MIN_RING, 2 * share) : ringCapacity(2 * share));
      }
    } else {
      rings[0] = new Ring(ringCapacity(2L * capacity));
    }
  }

  private static int ringCapacity(long slots) {
    return (int) Math.max(MIN_RING, Long.highestOneBit(Math.max(1, slots - 1)) << 1);
  }

  /** The bin of a deadline after the clock, which stands at tick 0 in these workloads. */
  private int binOf(long deadline) {
    if (!binned) {
      return 0;
    }
    long tick = ((deadline - Scenario.START_TIME - 1) >>> RESOLUTION_SHIFT) + 1;
    return (BINS - 1) - Long.numberOfLeadingZeros(tick);
  }

  private Handle own(Object handle) {
    if (handle instanceof Handle owned && owned.owner == this) {
      return owned;
    }
    throw new IllegalArgumentException("not a handle of this floor: " + handle);
  }

  /** Whether the next append to {@code ring} must make room first: at the last depth, when full. */
  private boolean mustMakeRoom(Ring ring) {
    return compacted && ring.tail == ring.slots.length;
  }

  private void append(int bin, Handle handle) {
    Ring ring = rings[bin];
    if (mustMakeRoom(ring)) {
      // Making room must not meet the slot that the last cancel left.
      settle();
      ring.makeRoom(taken);
    }
    Handle[] slots = ring.slots;
    int position = ring.tail;
    slots[position] = handle;
    handle.position = position;
    ring.tail = compacted ? position + 1 : (position + 1) & (slots.length - 1);
    if (counted) {
      ring.size++;
      occupied |= 1L << bin;
    }
  }

  private void leave(int bin, int position) {
    Ring ring = rings[bin];
    ring.slots[position] = null;
    if (counted && --ring.size == 0) {
      occupied &= ~(1L << bin);
    }
  }

  /** Clears the slot that the last cancel left, if it left one. */
  private void settle() {
    if (leftPosition >= 0) {
      leave(leftBin, leftPosition);
      leftPosition = -1;
    }
  }

  @Override
  public void schedule(int slot, long deadline) {
    Object held = handles[slot];
    Handle handle;
    if (held == null) {
      handle = new Handle();
      handle.owner = this;
      handle.payload = QueueTimers.PAYLOAD;
      handles[slot] = handle;
    } else {
      handle = own(held);
    }
    handle.deadline = deadline;
    append(binOf(deadline), handle);
    settle();
    size++;
  }

  @Override
  public boolean cancel(int slot) {
    Handle handle = own(handles[slot]);
    int position = handle.position;
    if (position < 0) {
      return false;
    }
    handle.position = -1;
    settle();
    leftBin = binOf(handle.deadline);
    leftPosition = position;
    size--;
    return true;
  }

  @Override
  public boolean reschedule(int slot, long deadline) {
    Handle handle = own(handles[slot]);
    int position = handle.position;
    int from = binOf(handle.deadline);
    int to = binOf(deadline);
    handle.deadline = deadline;
    if (position >= 0 && to == from && mustMakeRoom(rings[to])) {
      // The append settles the last cancel before it makes room.
      leave(from, position);
      append(to, handle);
      return true;
    }
    append(to, handle);
    settle();
    if (position < 0) {
      size++;
      return false;
    }
    leave(from, position);
    return true;
  }

  /**
   * Settles the last cancel, then checks that each pending timer is in the slot its handle names,
   * in the bin of its deadline, and that each bin holds as many timers as it counts; for tests of
   * the {@link #COMPACTED} depth, the only one whose slots keep every timer.
   *
   * @throws IllegalStateException naming the first timer or bin that is not where it should be
   */
  void checkSlots() {
    settle();
    for (int slot = 0; slot < handles.length; slot++) {
      Handle handle = (Handle) handles[slot];
      if (handle != null && handle.position >= 0) {
        int bin = binOf(handle.deadline);
        Ring ring = rings[bin];
        if (handle.position >= ring.tail || ring.slots[handle.position] != handle) {
          throw new IllegalStateException("the timer of slot " + slot + " is not at position "
              + handle.position + " of bin " + bin + ", whose tail is " + ring.tail);
        }
      }
    }
    for (int bin = 0; bin < BINS; bin++) {
      Ring ring = rings[bin];
      if (ring != null) {
        long held = Arrays.stream(ring.slots, 0, ring.tail).filter(h -> h != null).count();
        if (held != ring.size) {
          throw new IllegalStateException(
              "bin " + bin + " holds " + held + " timers but counts " + ring.size);
        }
      }
    }
  }

  /**
   * Checks that no timer is due at {@code now} and returns 0.
   *
   * @throws UnsupportedOperationException if a timer is due: the floor cannot fire timers, so it
   *     runs only the workloads where the clock stands still
   */
  @Override
  public int advance(long now, DelaySequence rearmDelays) {
    for (Object held : handles) {
      if (held != null && ((Handle) held).position >= 0 && ((Handle) held).deadline - now <= 0) {
        throw new UnsupportedOperationException(
            "the floor fires nothing: it runs only schedule+cancel and reschedule");
      }
    }
    return 0;
  }

  /** @throws UnsupportedOperationException always: the floor keeps no order of deadlines */
  @Override
  public long nextExpiryDelay() {
    throw new UnsupportedOperationException("the floor keeps no order of deadlines");
  }

  @Override
  public long size() {
    return size;
  }

  @Override
  public Object structure() {
    return this;
  }
}
