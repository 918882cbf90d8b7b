package io.github.timerqueue.hitime;

import java.util.ArrayList;
import java.util.List;

/**
 * Checks the structure of a {@link HiTimeTimerQueue} against its invariants, throwing an {@link
 * AssertionError} that says which one broke:
 *
 * <ul>
 *   <li>the clock's tick is its distance from the start time divided by the resolution;
 *   <li>every timer in a list is pending, belongs to the queue, is linked both ways, and is in no
 *       other list;
 *   <li>each timer in bin b is ahead of the clock and its tick first differs from the clock's at
 *       bit b, and that tick is the one its deadline dictates (its distance from the start time
 *       rounded up to the resolution);
 *   <li>each timer in the expired or firing list is due: its deadline is at or before now and its
 *       tick at or before the clock's;
 *   <li>bit b of the bitmap is set exactly when bin b is non-empty;
 *   <li>{@code size()} is the number of timers in all lists.
 * </ul>
 *
 * The deadline check assumes no distance saturated at the end of the clock (2<sup>64</sup> - 1
 * units from the start), which holds while the clock is less than 2<sup>63</sup> units from its
 * start.
 */
final class HiTimeInvariants {

  private HiTimeInvariants() {}

  static void check(HiTimeTimerQueue<?> queue) {
    long resolution = queue.resolution;
    that(queue.nowTick == Long.divideUnsigned(queue.elapsed, resolution),
        "nowTick " + queue.nowTick + " is not elapsed " + queue.elapsed + " / " + resolution);
    int count = 0;
    for (int bin = 0; bin < HiTimeTimerQueue.BINS; bin++) {
      TimerList list = queue.bins[bin];
      boolean bit = (queue.occupied & (1L << bin)) != 0;
      that(bit == !list.isEmpty(), "bitmap bit " + bin + " is " + bit + " but the bin is "
          + (list.isEmpty() ? "empty" : "not empty"));
      for (HiTimeTimer<?> timer : members(queue, list, "bin " + bin)) {
        count++;
        String where = timer + " in bin " + bin + " at tick " + queue.nowTick;
        that(timer.bin == bin, where + " says it is in bin " + timer.bin);
        that(Long.compareUnsigned(timer.tick, queue.nowTick) > 0, where + " is not ahead");
        that(63 - Long.numberOfLeadingZeros(timer.tick ^ queue.nowTick) == bin,
            where + " with tick " + timer.tick + " belongs in another bin");
        that(timer.tick == dictatedTick(queue, timer, resolution),
            where + " has tick " + timer.tick + ", its deadline dictates "
                + dictatedTick(queue, timer, resolution));
      }
    }
    for (TimerList list : new TimerList[] {queue.expired, queue.firing}) {
      String name = list == queue.expired ? "the expired list" : "the firing list";
      for (HiTimeTimer<?> timer : members(queue, list, name)) {
        count++;
        that(timer.deadline - queue.now <= 0,
            timer + " in " + name + " is not due at " + queue.now);
        that(Long.compareUnsigned(timer.tick, queue.nowTick) <= 0,
            timer + " in " + name + " has tick " + timer.tick + " after " + queue.nowTick);
      }
    }
    that(queue.size == count, "size is " + queue.size + " but the lists hold " + count);
  }

  /** The deadline's distance from the start time, rounded up to a whole number of ticks. */
  private static long dictatedTick(
      HiTimeTimerQueue<?> queue, HiTimeTimer<?> timer, long resolution) {
    long key = queue.elapsed + (timer.deadline - queue.now);
    long tick = Long.divideUnsigned(key, resolution);
    return tick * resolution == key ? tick : tick + 1;
  }

  /**
   * The timers of one list, checking its links. A node's {@code previous} can match only one
   * predecessor and a walk that strays into another list meets that list's sentinel, so a timer in
   * two lists fails here; the walk is bounded by {@code size()} in case a list loops on itself.
   */
  private static List<HiTimeTimer<?>> members(
      HiTimeTimerQueue<?> queue, TimerList list, String name) {
    List<HiTimeTimer<?>> members = new ArrayList<>();
    TimerLink previous = list;
    for (TimerLink link = list.next; link != list; link = link.next) {
      that(members.size() < queue.size, name + " holds more timers than size() " + queue.size);
      that(link != null, name + " is broken after " + previous);
      that(link.previous == previous, name + ": " + link + " is not linked back to " + previous);
      that(link instanceof HiTimeTimer, name + " holds a foreign node " + link);
      HiTimeTimer<?> timer = (HiTimeTimer<?>) link;
      that(timer.queue == queue, name + " holds " + timer + " of another queue");
      that(timer.isPending(), name + " holds " + timer + ", which is not pending");
      members.add(timer);
      previous = link;
    }
    that(list.previous == previous, name + ": the sentinel is not linked back to its last member");
    return members;
  }

  private static void that(boolean condition, String message) {
    if (!condition) {
      throw new AssertionError(message);
    }
  }
}
