package io.github.timerqueue.hitime;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Checks the structure of a {@link HiTimeTimerQueue} against its invariants, throwing an {@link
 * AssertionError} that says which one broke:
 *
 * <ul>
 *   <li>the clock's tick is its distance from the start time divided by the resolution;
 *   <li>every bucket belongs to the queue, and is a bin, the due bucket or the firing bucket, and
 *       only one of them; a bin knows its bin, the other two are marked due; a bin that no timer
 *       has gone to yet is {@code null};
 *   <li>in every bucket, the slots before its head and from its tail on are empty, and every other
 *       slot is empty (a hole) or holds a pending timer of the queue whose bucket and slot are that
 *       bucket and that slot (so no timer is in two places), and the bucket's size counts them;
 *   <li>except the one slot, if any, that the last cancel left for the queue to clear ({@code
 *       unsettledSlot}): a slot of the bin that {@code unsettledDeadline} dictates, between its
 *       head and tail, that refers to a timer of the queue no longer in it, which the bin still
 *       counts and {@code size()} does not;
 *   <li>holes are bounded: a bucket holds at most {@code 3 * size + SLACK} of them;
 *   <li>a bin that says it is sorted holds its timers in the order of their ticks, none after the
 *       last tick it recorded;
 *   <li>each timer in bin b is ahead of the clock and its tick first differs from the clock's at
 *       bit b, and that tick is the one its deadline dictates (its distance from the start time
 *       rounded up to the resolution);
 *   <li>each timer in the due or firing bucket is due: its deadline is at or before now;
 *   <li>bit b of the bitmap is set exactly when bin b is non-empty;
 *   <li>a bin holds its timers either by reference, in its bucket, or by id, in its {@link IdBin},
 *       never both; only the {@value IdBins#BINS} lowest bins may hold timers by id;
 *   <li>in a bin held by id, every entry's id is in no other entry of any bin; an entry whose id
 *       names a timer (a live entry) carries the low 32 bits of that timer's tick, the timer's
 *       slot is {@link HiTimeTimer#ID_SLOT} with that id, and its tick is right for the bin as
 *       above; the bin's size counts the live entries, and its stale entries are at most {@code 3
 *       * size + SLACK}; a bin that is empty has no entries;
 *   <li>every id below those used so far is either in exactly one entry or free, never both, and
 *       the table names a timer for exactly the ids of live entries, as many as the bins hold;
 *   <li>no bin that holds timers by reference leaves entries in its {@link IdBin};
 *   <li>{@code size()} is the number of timers in all buckets.
 * </ul>
 *
 * A deadline ahead of the clock by more than what is left of the clock (2<sup>64</sup> - 1 units
 * from the start) dictates the tick at the end of the clock, as the queue saturates its distance.
 */
final class HiTimeInvariants {

  private HiTimeInvariants() {}

  static void check(HiTimeTimerQueue<?> queue) {
    long resolution = queue.resolution;
    that(queue.nowTick == Long.divideUnsigned(queue.elapsed, resolution), () ->
        "nowTick " + queue.nowTick + " is not elapsed " + queue.elapsed + " / " + resolution);
    Map<TimerBucket<?>, String> seen = new IdentityHashMap<>();
    int count = checkBinsById(queue, resolution);
    for (int bin = 0; bin < HiTimeTimerQueue.BINS; bin++) {
      if (!queue.isIdBin(bin)) {
        count += checkBin(queue, bin, seen, resolution);
      }
    }
    that(queue.due != queue.firing, () -> "the due and the firing bucket are one");
    for (TimerBucket<?> bucket : List.of(queue.due, queue.firing)) {
      String name = bucket == queue.due ? "the due bucket" : "the firing bucket";
      once(seen, bucket, name);
      that(bucket.bin == TimerBucket.DUE, () -> name + " says it is bin " + bucket.bin);
      for (HiTimeTimer<?> timer : members(queue, bucket, name)) {
        count++;
        that(timer.deadline() - queue.now <= 0, () -> timer + " in " + name + " is not due at "
            + queue.now);
      }
    }
    int counted = count;
    that(queue.size == counted, () -> "size is " + queue.size + " but the buckets hold " + counted);
  }

  /** Checks bin {@code bin}, which holds its timers by reference; returns how many it holds. */
  private static int checkBin(HiTimeTimerQueue<?> queue, int bin,
      Map<TimerBucket<?>, String> seen, long resolution) {
    TimerBucket<?> bucket = queue.bins[bin];
    String name = "bin " + bin;
    if (bucket == null) {
      that((queue.occupied & (1L << bin)) == 0, () -> "bitmap bit " + bin + " is set, but no bin");
      return 0;
    }
    once(seen, bucket, name);
    that(bucket.bin == bin, () -> name + " says it is bin " + bucket.bin);
    boolean bit = (queue.occupied & (1L << bin)) != 0;
    that(bit == !bucket.isEmpty(), () -> "bitmap bit " + bin + " is " + bit + " but the bin is "
        + (bucket.isEmpty() ? "empty" : "not empty"));
    List<HiTimeTimer<?>> members = members(queue, bucket, name);
    long previousTick = 0;
    for (HiTimeTimer<?> timer : members) {
      Supplier<String> where = () -> timer + " in bin " + bin + " at tick " + queue.nowTick;
      long tick = queue.tickOf(timer);
      if (bucket.sorted()) {
        long before = previousTick;
        that(Long.compareUnsigned(before, tick) <= 0
                && Long.compareUnsigned(tick, bucket.lastTick) <= 0, () ->
            where.get() + " with tick " + tick + " is out of order in a sorted bin: the one"
                + " before has tick " + before + ", the last appended " + bucket.lastTick);
        previousTick = tick;
      }
      checkInBin(queue, timer, tick, bin, where, resolution);
    }
    return members.size();
  }

  /** Checks the bins held by id (see the class comment); returns how many timers they hold. */
  private static int checkBinsById(HiTimeTimerQueue<?> queue, long resolution) {
    IdBins<?> low = queue.low;
    that((queue.occupied & queue.idLayout) >>> IdBins.BINS == 0, () ->
        "a bin above the lowest " + IdBins.BINS + " holds timers by id");
    Set<Integer> inEntries = new HashSet<>();
    int held = 0;
    for (int bin = 0; bin < IdBins.BINS; bin++) {
      held += checkBinById(queue, bin, inEntries, resolution);
    }
    int heldById = held;
    that(heldById == low.held(), () ->
        "the bins by id say they hold " + low.held() + ", not " + heldById);
    Set<Integer> free = new HashSet<>();
    for (int i = 0; i < low.freeCount; i++) {
      int id = low.freeIds[i];
      that(free.add(id), () -> "id " + id + " is free twice");
      that(!inEntries.contains(id), () -> "id " + id + " is free and in an entry");
      that(low.byId[id] == null, () -> "free id " + id + " names a timer");
    }
    that(free.size() + inEntries.size() == low.ids(), () -> low.ids() + " ids used, but "
        + free.size() + " are free and " + inEntries.size() + " in entries");
    int named = 0;
    for (int id = 0; id < low.byId.length; id++) {
      named += low.byId[id] != null ? 1 : 0;
    }
    int namedById = named;
    that(namedById == heldById, () ->
        "the table names " + namedById + " timers, the bins hold " + heldById);
    return heldById;
  }

  /**
   * Checks low bin {@code bin}'s entries by id, adding their ids to {@code inEntries}; returns how
   * many timers it holds by id.
   */
  private static int checkBinById(HiTimeTimerQueue<?> queue, int bin, Set<Integer> inEntries,
      long resolution) {
    IdBins<?> low = queue.low;
    IdBin idBin = low.bins[bin];
    String name = "bin " + bin + " by id";
    if (!queue.isIdBin(bin)) {
      that(idBin.size == 0 && idBin.tail == 0, () ->
          "bin " + bin + ", not held by id, has " + idBin.tail / 2 + " entries");
      return 0;
    }
    that(queue.bins[bin] == null || queue.bins[bin].isEmpty(), () ->
        name + " also holds timers by reference");
    int live = 0;
    for (int i = 0; i < idBin.tail; i += 2) {
      int id = idBin.entries[i];
      int entryTick = idBin.entries[i + 1];
      that(id >= 0 && id < low.ids(), () -> name + " has id " + id + ", not below " + low.ids());
      that(inEntries.add(id), () -> "id " + id + " is in two entries");
      HiTimeTimer<?> timer = low.byId[id];
      if (timer == null) {
        continue;
      }
      live++;
      Supplier<String> where = () -> timer + " in " + name + " at tick " + queue.nowTick;
      that(timer.slot == (HiTimeTimer.ID_SLOT | id), () -> where.get() + " has slot "
          + timer.slot + ", not that of id " + id);
      long tick = queue.tickOf(timer);
      that((int) tick == entryTick, () -> where.get() + " has tick " + tick
          + " but its entry says " + entryTick);
      checkInBin(queue, timer, tick, bin, where, resolution);
    }
    int liveById = live;
    that(liveById == idBin.size, () ->
        name + " counts " + idBin.size + " timers but holds " + liveById);
    int stale = idBin.tail / 2 - liveById;
    that(stale <= 3 * liveById + IdBins.SLACK, () -> name + " has " + stale
        + " stale entries for " + liveById + " timers");
    return liveById;
  }

  /**
   * Checks that a timer of bin {@code bin} with this tick is ahead of the clock, first differs
   * from it at bit {@code bin}, and has the tick its deadline dictates.
   */
  private static void checkInBin(HiTimeTimerQueue<?> queue, HiTimeTimer<?> timer, long tick,
      int bin, Supplier<String> where, long resolution) {
    that(Long.compareUnsigned(tick, queue.nowTick) > 0, () -> where.get() + " is not ahead");
    that(63 - Long.numberOfLeadingZeros(tick ^ queue.nowTick) == bin, () ->
        where.get() + " with tick " + tick + " belongs in another bin");
    that(tick == dictatedTick(queue, timer, resolution), () ->
        where.get() + " has tick " + tick + ", its deadline dictates "
            + dictatedTick(queue, timer, resolution));
  }

  /**
   * The deadline's distance from the start time, rounded up to a whole number of ticks; a deadline
   * ahead of the clock but beyond the end of the clock counts as at its end.
   */
  private static long dictatedTick(
      HiTimeTimerQueue<?> queue, HiTimeTimer<?> timer, long resolution) {
    long distance = timer.deadline() - queue.now;
    long key = queue.elapsed + distance;
    if (distance > 0 && Long.compareUnsigned(key, queue.elapsed) < 0) {
      key = -1L;
    }
    long tick = Long.divideUnsigned(key, resolution);
    return tick * resolution == key ? tick : tick + 1;
  }

  private static void once(Map<TimerBucket<?>, String> seen, TimerBucket<?> bucket, String name) {
    that(bucket != null, () -> name + " is missing");
    String before = seen.put(bucket, name);
    that(before == null, () -> name + " is also " + before);
  }

  /** The timers of one bucket, checking its slots, their timers and the bound on its holes. */
  private static List<HiTimeTimer<?>> members(
      HiTimeTimerQueue<?> queue, TimerBucket<?> bucket, String name) {
    that(bucket.owner == queue, () -> name + " belongs to another queue");
    HiTimeTimer<?>[] slots = bucket.slots;
    that(0 <= bucket.head && bucket.head <= bucket.tail && bucket.tail <= slots.length, () ->
        name + " has head " + bucket.head + ", tail " + bucket.tail + " and " + slots.length
            + " slots");
    List<HiTimeTimer<?>> members = new ArrayList<>();
    int unsettled = 0;
    for (int slot = 0; slot < slots.length; slot++) {
      int index = slot;
      HiTimeTimer<?> timer = slots[index];
      if (index < bucket.head || index >= bucket.tail) {
        that(timer == null, () -> name + " holds " + timer + " in slot " + index + ", outside ["
            + bucket.head + ", " + bucket.tail + ")");
      } else if (isUnsettled(queue, bucket, index)) {
        that(timer != null, () -> name + " has slot " + index + " to clear, which is empty");
        that(timer.queue == queue, () -> name + " has slot " + index + " to clear, which holds "
            + timer + " of another queue");
        that(timer.slot != index || queue.bucketOf(cast(timer)) != bucket, () -> name + " has slot "
            + index + " to clear, which holds " + timer + ", still in it");
        unsettled++;
      } else if (timer != null) {
        that(timer.queue == queue, () -> name + " holds " + timer + " of another queue");
        int tag = bucket.bin == TimerBucket.DUE ? HiTimeTimer.DUE_SLOT : 0;
        that(timer.slot == (index | tag), () -> name + " holds " + timer + " in slot " + index
            + ", which says it is in slot " + timer.slot);
        that(timer.isPending() && queue.bucketOf(cast(timer)) == bucket, () -> name + " holds "
            + timer + ", which its queue finds in another bucket");
        that(timer.isPending(), () -> name + " holds " + timer + ", which is not pending");
        members.add(timer);
      }
    }
    boolean toClear = unsettled != 0;
    that(bucket.size == members.size() + unsettled, () -> name + " says it holds " + bucket.size
        + " timers but holds " + members.size() + (toClear ? " and one to clear" : ""));
    int holes = bucket.tail - bucket.head - bucket.size;
    that(holes <= 3 * bucket.size + TimerBucket.SLACK, () ->
        name + " holds " + holes + " holes for " + bucket.size + " timers");
    return members;
  }

  /** Whether slot {@code index} of {@code bucket} is the one the last cancel left to clear. */
  private static boolean isUnsettled(HiTimeTimerQueue<?> queue, TimerBucket<?> bucket, int index) {
    if (queue.unsettledSlot < 0 || bucket.bin == TimerBucket.DUE) {
      return false;
    }
    long tick = queue.tickOf(queue.unsettledDeadline);
    return index == queue.unsettledSlot
        && 63 - Long.numberOfLeadingZeros(tick ^ queue.nowTick) == bucket.bin;
  }

  @SuppressWarnings("unchecked")
  private static <T> HiTimeTimer<T> cast(HiTimeTimer<?> timer) {
    return (HiTimeTimer<T>) timer;
  }

  /**
   * Fails with the message if the condition is false. The message is built only then: built for
   * every timer of every check, it made the soak profile's structure tests several times slower.
   */
  private static void that(boolean condition, Supplier<String> message) {
    if (!condition) {
      throw new AssertionError(message.get());
    }
  }
}
