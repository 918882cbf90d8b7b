package io.github.timerqueue.hitime;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * A bucket of a {@link HiTimeTimerQueue}: a first-in, first-out sequence of timers kept in an
 * array of slots, either one of the queue's bins or one of its two buckets of due timers. A timer
 * in a bucket knows its slot ({@link HiTimeTimer#slot}); its queue knows from the timer's deadline
 * which bucket that is ({@link HiTimeTimerQueue#bucketOf}).
 *
 * <p>Timers are appended at {@link #tail} and, in a bucket of due timers, taken from {@link #head}.
 * Removing a timer empties its slot, so a slot that is not {@code null} holds a pending timer of
 * this bucket, and no bucket refers to a timer that left it, but for one slot of a bin: the queue's
 * last cancel leaves the slot and the bin's count of its timer for the queue's next operation to
 * clear ({@link HiTimeTimerQueue#settle}), and every operation does that before it uses a bin. An
 * emptied slot between head and tail is a <em>hole</em>. (Leaving the slot as it is, to be
 * recognized as stale when next visited, would spare cancel that write, but every compaction and
 * every pass would then read each stale timer, a cache miss where the write mostly hits the
 * last-level cache.)
 *
 * <p>When an append finds every slot up to the end taken, the bucket compacts in place if at
 * most half of its slots hold timers, moving the timers down over the holes in their order, else
 * it doubles. A removal that leaves more than {@code 3 * size + }{@value #SLACK} holes compacts as
 * well, so that holes never exceed that bound, whatever the mix of operations. A compaction moves
 * at most as many timers as there were appends or removals since the last one, so each costs
 * {@code O(1)} amortized. A bucket that empties resets its slots in {@code O(1)}, since they are
 * all {@code null} already, and gives an array of more than {@value #INITIAL_CAPACITY} slots to
 * its queue's {@link SlotArrays}, where the next bucket to grow finds it: a queue at its working
 * size re-arms, cancels and fires timers without allocating. An array grows only when more than
 * half of its slots hold timers, and an empty bin takes over the array of a re-examined one
 * ({@link #handOver}) only with timers in a quarter of its slots or more, so a bucket has at most
 * four slots per timer it held at its fullest.
 *
 * <p>A bucket that fills from empty takes at once an array of as many slots as it had used when
 * it last emptied ({@link #lastFill}), rounded up to a power of two, instead of growing to it
 * again from {@value #INITIAL_CAPACITY} slots by doubling. A bin of a queue whose timers flow
 * through it empties and refills all its life, and each doubling copies every timer it holds
 * into the larger array, reference stores whose cards G1 must refine: at 10^6 timers in
 * timer-bench's flow of expiring timers, those copies stored 4.6 references per fired timer, as
 * many as all the appends (4.7), and 1.0 once bins refilled this way; G1 refined 30% fewer cards
 * over the same run. The array a bucket takes is no larger than the one it had when it emptied,
 * so the bound above holds over its current fill and the one before.
 */
final class TimerBucket<T> {
  /** The {@link #bin} of a bucket of due timers. */
  static final int DUE = -1;
  /** Slots of the first array a bucket allocates. */
  static final int INITIAL_CAPACITY = 8;
  /** Holes a bucket may hold beyond three per timer before a removal compacts it. */
  static final int SLACK = 64;
  /** The shortest run of timers that is appended in one copy rather than one by one. */
  static final int MIN_RUN = 4;

  private static final HiTimeTimer<?>[] NO_SLOTS = {};

  /** The queue that owns this bucket. */
  final HiTimeTimerQueue<T> owner;
  /**
   * {@code slots[i]} for {@code head <= i < tail} holds the timer whose {@link HiTimeTimer#slot}
   * number is {@code i}, or is a hole ({@code null}); every other slot is {@code null}.
   */
  HiTimeTimer<T>[] slots;
  /** The first slot that may hold a timer: every slot before it is {@code null}. */
  int head;
  /** The slot the next timer goes to. */
  int tail;
  /** How many timers the bucket holds. */
  int size;
  /** The bin this bucket is, or {@link #DUE}. */
  final int bin;
  /** What a timer's {@link HiTimeTimer#slot} carries besides its slot number in this bucket. */
  private final int slotTag;
  /**
   * How many times since the bucket last emptied a timer, or a run of timers, was appended with
   * a tick below that of the timer appended before it, or in an order of ticks not known. Only
   * bins use it: while it is 0 the bin is {@link #sorted()}, and when a bin is re-examined it
   * tells the long runs of timers bound for one bucket, filed by copying, from the short ones of
   * deadlines at random, filed one by one ({@link HiTimeTimerQueue#reexamine}). A {@code long},
   * so that a bin that never empties, appended to at random for years, never wraps it to 0.
   */
  long descents;
  /** The tick of the last timer appended, if it was appended with its tick. */
  long lastTick;
  /**
   * How many slots the bucket had used (its {@link #tail}) when it last emptied, or 0 once its
   * queue lets go of its arrays: the room it takes when it next fills from empty.
   */
  int lastFill;

  @SuppressWarnings("unchecked")
  TimerBucket(HiTimeTimerQueue<T> owner, int bin) {
    this.owner = owner;
    this.bin = bin;
    this.slotTag = bin == DUE ? HiTimeTimer.DUE_SLOT : 0;
    this.slots = (HiTimeTimer<T>[]) NO_SLOTS;
  }

  boolean isEmpty() {
    return size == 0;
  }

  /**
   * Whether the timers' ticks never decrease from slot to slot: true of a bucket whose timers were
   * all appended with their ticks, each at or after the one before, since it last emptied.
   * Cancelling keeps it true. A bin re-examined with its timers in tick order finds the stretch of
   * slots bound for each bucket without reading every timer.
   */
  boolean sorted() {
    return descents == 0;
  }

  /** Adds a timer that is in no bucket, due at {@code tick}, at the tail. */
  void append(HiTimeTimer<T> timer, long tick) {
    // Counted without a branch, which ticks at random would mispredict half the time: the sign
    // bit of this expression is the borrow of tick - lastTick, set when tick is below lastTick,
    // unsigned (Hacker's Delight, 2-13).
    long last = lastTick;
    descents += ((~tick & last) | ((~tick | last) & (tick - last))) >>> (Long.SIZE - 1);
    lastTick = tick;
    place(timer);
  }

  /**
   * Adds a timer that is in no bucket at the tail, in an order of ticks that is not known: it
   * counts as a descent, and its tick is not compared with the one before. For the re-examination
   * of a bin out of tick order ({@link HiTimeTimerQueue#reexamineScattered}), whose timers descend
   * about every second one anyway, and which appends one by one the 9 or so times a timer is
   * re-filed on its way down.
   */
  void appendOutOfOrder(HiTimeTimer<T> timer) {
    descents++;
    place(timer);
  }

  /** Puts a timer that is in no bucket in the slot at the tail, making room first if need be. */
  private void place(HiTimeTimer<T> timer) {
    if (isFull()) {
      makeRoom(1);
    }
    slots[tail] = timer;
    timer.slot = tail++ | slotTag;
    size++;
  }

  /**
   * Appends {@code source[from]} to {@code source[from + count - 1]}, timers that are in no
   * bucket, in an order of ticks that is not known, in one copy: the write barrier of the
   * collector is paid once for the run, not once per timer.
   */
  void appendRun(HiTimeTimer<T>[] source, int from, int count) {
    descents++;
    copyIn(source, from, count);
  }

  /**
   * {@link #appendRun(HiTimeTimer[], int, int)} of timers whose ticks never decrease from {@code
   * firstTick} to {@code lastTick}.
   */
  void appendRun(HiTimeTimer<T>[] source, int from, int count, long firstTick, long lastTick) {
    appendingTicks(firstTick, lastTick);
    copyIn(source, from, count);
  }

  /**
   * Appends the timers of {@code source[from]} to {@code source[to - 1]}, timers that are in no
   * bucket and whose ticks never decrease from {@code firstTick} to {@code lastTick}, skipping the
   * empty slots, each run of timers in one copy; returns how many it appended.
   */
  int appendInOrder(HiTimeTimer<T>[] source, int from, int to, long firstTick, long lastTick) {
    appendingTicks(firstTick, lastTick);
    return copyTimersIn(source, from, to);
  }

  /** Notes the appending of timers in order from {@code firstTick} to {@code lastTick}. */
  private void appendingTicks(long firstTick, long lastTick) {
    if (Long.compareUnsigned(firstTick, this.lastTick) < 0) {
      descents++;
    }
    this.lastTick = lastTick;
  }

  /** Appends the timers of {@code source[from]} to {@code source[to - 1]}, skipping empty slots. */
  private int copyTimersIn(HiTimeTimer<T>[] source, int from, int to) {
    int appended = 0;
    int index = from;
    while (index < to) {
      int runStart = index;
      while (index < to && source[index] != null) {
        index++;
      }
      if (index > runStart) {
        copyIn(source, runStart, index - runStart);
        appended += index - runStart;
      }
      index++;
    }
    return appended;
  }

  /**
   * Appends a run of {@code count} timers that are in no bucket, in one copy if it has {@value
   * #MIN_RUN} or more, else one by one.
   */
  private void copyIn(HiTimeTimer<T>[] source, int from, int count) {
    if (slots.length - tail < count) {
      makeRoom(count);
    }
    int first = tail;
    if (count >= MIN_RUN) {
      System.arraycopy(source, from, slots, first, count);
    } else {
      for (int i = 0; i < count; i++) {
        slots[first + i] = source[from + i];
      }
    }
    for (int i = 0; i < count; i++) {
      source[from + i].slot = (first + i) | slotTag;
    }
    tail = first + count;
    size += count;
  }

  /**
   * Empties {@code slot} (a timer's {@link HiTimeTimer#slot}), whose timer has left this bucket
   * and may already be in another one.
   */
  void vacate(int slot) {
    slots[slot & HiTimeTimer.SLOT_INDEX] = null;
    removed();
  }

  /** Whether the next append needs more room: it will compact the bucket or grow it. */
  boolean isFull() {
    return tail == slots.length;
  }

  /** The first timer, left in place. The bucket must not be empty. */
  HiTimeTimer<T> first() {
    HiTimeTimer<T>[] slots = this.slots;
    int index = head;
    while (slots[index] == null) {
      index++;
    }
    head = index;
    return slots[index];
  }

  /** Takes the first timer out and returns it. The bucket must not be empty. */
  HiTimeTimer<T> takeFirst() {
    HiTimeTimer<T> timer = first();
    slots[head++] = null;
    timer.slot = HiTimeTimer.NOT_PENDING;
    removed();
    return timer;
  }

  /**
   * Appends every timer of {@code from}, in order, leaving it empty: a bin that became due whole.
   * The bin keeps its array, for the timers that will refill it.
   */
  void appendAll(TimerBucket<T> from) {
    HiTimeTimer<T>[] source = from.slots;
    descents++;
    copyTimersIn(source, from.head, from.tail);
    Arrays.fill(source, from.head, from.tail, null);
    from.emptied();
  }

  /**
   * Gives this bin's array to {@code to}, an empty bin, with the {@code count} timers from slot
   * {@code from} to the tail, which keep their slot numbers, and their order; every slot before
   * {@code from} must be empty. This bin is left empty, without an array; the one {@code to} had
   * is kept for reuse.
   */
  @SuppressWarnings("unchecked")
  void handOver(TimerBucket<T> to, int from, int count) {
    if (to.slots.length != 0) {
      owner.slotArrays.give(to.slots);
    }
    to.slots = slots;
    to.head = from;
    to.tail = tail;
    to.size = count;
    to.descents = descents;
    to.lastTick = lastTick;
    slots = (HiTimeTimer<T>[]) NO_SLOTS;
    emptied();
  }

  /**
   * Empties a bucket whose timers the caller has taken out of their slots one by one, clearing
   * each slot as it went: the bin just re-examined, or one that became due whole.
   */
  void emptied() {
    size = 0;
    reset();
  }

  /** Takes every timer out of this bucket without handing any out. */
  void removeAll() {
    HiTimeTimer<T>[] slots = this.slots;
    for (int index = head; index < tail; index++) {
      HiTimeTimer<T> timer = slots[index];
      if (timer != null) {
        timer.slot = HiTimeTimer.NOT_PENDING;
        slots[index] = null;
      }
    }
    size = 0;
    reset();
  }

  /**
   * Hands each timer, first to last, to {@code action}. An action that modifies the queue, against
   * the contract, makes the set of timers visited unspecified but cannot make this loop fail.
   */
  void forEach(Consumer<? super HiTimeTimer<T>> action) {
    for (int index = head; index < tail; index++) {
      HiTimeTimer<T> timer = slots[index];
      if (timer != null) {
        action.accept(timer);
      }
    }
  }

  /** Bookkeeping after a timer left its slot: resets an empty bucket, compacts a sparse one. */
  private void removed() {
    if (--size == 0) {
      reset();
    } else if (tail - head > 4 * size + SLACK) {
      compactInto(slots);
    }
  }

  /**
   * Starts an empty bucket, whose slots are all {@code null}, over from slot 0, giving a large
   * array to the owner's {@link SlotArrays}.
   */
  @SuppressWarnings("unchecked")
  private void reset() {
    lastFill = tail;
    head = 0;
    tail = 0;
    descents = 0;
    lastTick = 0;
    if (slots.length > INITIAL_CAPACITY) {
      owner.slotArrays.giveEmptied(slots);
      slots = (HiTimeTimer<T>[]) NO_SLOTS;
    }
  }

  /**
   * Lets go of the array of an empty bucket, without keeping it: for a queue that has been
   * cleared or drained, so that it does not hold on to the memory of a population long gone.
   */
  @SuppressWarnings("unchecked")
  void release() {
    if (size == 0) {
      lastFill = 0;
      if (slots.length > INITIAL_CAPACITY) {
        slots = (HiTimeTimer<T>[]) NO_SLOTS;
      }
    }
  }

  /**
   * Makes room for {@code count} more timers at the tail: compacts if at most half the slots
   * would then hold timers, else doubles until they fit; a bucket without an array starts from
   * the power of two that holds its {@link #lastFill}.
   */
  private void makeRoom(int count) {
    int capacity = slots.length;
    int needed = size + count;
    if (capacity != 0 && needed <= capacity >>> 1) {
      compactInto(slots);
      return;
    }
    HiTimeTimer<T>[] old = slots;
    int wanted = capacity != 0 ? needed : Math.max(needed, lastFill);
    int grownCapacity = Math.max(INITIAL_CAPACITY, capacity << 1);
    while (grownCapacity < wanted) {
      grownCapacity <<= 1;
    }
    HiTimeTimer<T>[] grown = owner.slotArrays.take(grownCapacity);
    if (grown == null) {
      grown = newSlots(grownCapacity);
    }
    if (head == 0 && size == tail) {
      // No hole: the timers keep their slots, and are not touched.
      System.arraycopy(old, 0, grown, 0, tail);
      slots = grown;
    } else {
      compactInto(grown);
    }
    if (capacity != 0 && owner.slotArrays.circulating()) {
      // Outgrown arrays are kept once buckets have begun to empty, the timers moving between
      // them; until then the queue is only filling up and keeps nothing it does not use.
      Arrays.fill(old, 0, capacity, null);
      owner.slotArrays.give(old);
    }
  }

  @SuppressWarnings("unchecked")
  private static <T> HiTimeTimer<T>[] newSlots(int capacity) {
    return (HiTimeTimer<T>[]) new HiTimeTimer<?>[capacity];
  }

  /**
   * Moves the timers, in order, to the first slots of {@code target} (this bucket's own array, or
   * an empty one), then writes the new slot numbers to the timers that moved.
   */
  private void compactInto(HiTimeTimer<T>[] target) {
    HiTimeTimer<T>[] source = slots;
    boolean inPlace = target == source;
    int[] taken = owner.takenSlots;
    int packed = 0;
    int firstMoved = tail;
    for (int start = head; start < tail; start += taken.length) {
      int end = Math.min(start + taken.length, tail);
      // First the numbers of the slots that hold timers, with no branch on whether each does:
      // holes left by cancels at random would mispredict it every other slot.
      int count = 0;
      for (int index = start; index < end; index++) {
        taken[count] = index;
        count += source[index] != null ? 1 : 0;
      }
      for (int i = 0; i < count; i++) {
        int index = taken[i];
        if (index != packed) {
          firstMoved = Math.min(firstMoved, packed);
          target[packed] = source[index];
        } else if (!inPlace) {
          target[packed] = source[index];
        }
        packed++;
      }
    }
    if (inPlace) {
      // Every slot below packed now holds a timer; those from packed on held only timers that
      // moved down, or holes.
      Arrays.fill(source, packed, tail, null);
    }
    // A second pass, because each reference stored above runs G1's write barrier, whose fence
    // would make each of these writes, a cache miss, complete before the next could start; here
    // they overlap.
    for (int index = firstMoved; index < packed; index++) {
      target[index].slot = index | slotTag;
    }
    slots = target;
    head = 0;
    tail = packed;
  }
}
