package io.github.timerqueue.bench;

/**
 * Not a timer structure: the least that schedule+cancel and reschedule can cost a strategy that
 * files handle objects in buckets of slots, as {@code hitime}, the wheel and {@code cascade} do,
 * run as a contender through the same fill, collection and sequences as they are ({@link
 * TimerBenchmark}), so that a strategy's time can be set against it, and against Agrona's, in one
 * run. {@link MemoryFloorBenchmark} measures the same touches without the harness, to follow their
 * growth with the population.
 *
 * <p>Three depths, by contender name, each doing what the one before does and more:
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
 * </ul>
 *
 * What none of them does, and every real strategy must: make room. A ring's tail runs on over the
 * slots of timers that are still in it, where a real bucket compacts or grows rather than lose
 * them, so each depth is a floor, never an estimate. It fires nothing: {@link #advance} only checks
 * that nothing is due, as the fill's first move of the clock finds.
 */
final class BucketFloor implements Timers {
  /** The contender name of the bare touches. */
  static final String TOUCHES = "floor";
  /** The contender name of the touches with the buckets found from the deadlines. */
  static final String BINNED = "floor-binned";
  /** The contender name of the binned touches with the buckets' counts kept. */
  static final String COUNTED = "floor-counted";

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

  /** A ring of slots with its tail and, at the {@link #COUNTED} depth, its count of timers. */
  static final class Ring {
    final Handle[] slots;
    int tail;
    int size;

    Ring(int capacity) {
      slots = new Handle[capacity];
    }
  }

  private final Object[] handles;
  private final Ring[] rings = new Ring[BINS];
  private final boolean binned;
  private final boolean counted;
  /** The bins whose rings hold timers, kept at the {@link #COUNTED} depth. */
  private long occupied;
  private long size;
  /** The bin and slot that the last cancel emptied, left to the next operation; -1: none. */
  private int leftBin;
  private int leftPosition = -1;

  /** Whether {@code name} is one of the floors' contender names. */
  static boolean isFloor(String name) {
    return name.equals(TOUCHES) || name.equals(BINNED) || name.equals(COUNTED);
  }

  /**
   * A floor of the depth that {@code name} gives, for {@code capacity} timers.
   *
   * @throws IllegalArgumentException if {@code name} is not one of the floors' names
   */
  BucketFloor(String name, int capacity) {
    if (!isFloor(name)) {
      throw new IllegalArgumentException(
          "'" + name + "' is not a floor; floors are " + TOUCHES + ", " + BINNED + ", " + COUNTED);
    }
    handles = new Object[capacity];
    binned = !name.equals(TOUCHES);
    counted = name.equals(COUNTED);
    if (binned) {
      // Each bin's ring twice as large as the share of uniform delays that falls in it.
      for (int bin = 0; bin <= TICK_BITS; bin++) {
        long share = ((long) capacity << bin) >>> TICK_BITS;
        rings[bin] = new Ring(ringCapacity(2 * share));
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

  private void append(int bin, Handle handle) {
    Ring ring = rings[bin];
    Handle[] slots = ring.slots;
    int position = ring.tail;
    slots[position] = handle;
    handle.position = position;
    ring.tail = (position + 1) & (slots.length - 1);
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
    handle.deadline = deadline;
    append(binOf(deadline), handle);
    settle();
    if (position < 0) {
      size++;
      return false;
    }
    leave(from, position);
    return true;
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
