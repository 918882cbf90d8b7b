package io.github.timerqueue.wheel;

import java.util.Arrays;

/**
 * Sorts the timers of a slot of level 1 by key, stably, within their own bucket: the step of the
 * lazy radix sort that would move them down into level 0's slots, one bucket per key, done by a
 * counting sort instead, after which the bucket stands in for level 0's slots of its keys as the
 * wheel's sorted bucket ({@link TimingWheel#sorted}).
 *
 * <p>Why: with timers at random keys, a slot of level 1 at a million timers holds about eight per
 * key, and moving them down took a bucket and a fresh chunk of the slab for each of its 2,048
 * keys, half of each chunk unused. The chunks lie at random in the slab, so the first reference
 * stored in each dirtied a card of its own, which G1's refinement threads then scan: the wheel's
 * flow of expiring timers had them refine 0.15 cards per fired timer, where {@code hitime}'s had
 * 0.085 and {@code cascade}'s 0.05. On a machine whose second core is not free for them, that
 * refinement slows the benchmark thread itself. Sorted in place, the slot's timers fill whole
 * chunks, half as many, no bucket is taken or given back for its keys, and the flow's cards fell
 * to 0.063 per fired timer (docs/benchmarks.md).
 *
 * <p>Only a slot with at least as many timers as level 0 has keys is sorted: a sparser one moves
 * down as before, into buckets and short lists that cost no more than the arrays this sort needs.
 * Nor is a slot that holds more than a quarter of the wheel's timers, which moves down as before
 * too: the arrays are kept for the next slot, grown to the largest slot sorted so far, three {@code
 * int}s per timer of it, so they take at most three bytes per timer pending when they grew, and
 * a burst of timers in one slot neither allocates them anew each time nor leaves them large. In
 * a steady flow at a million timers a slot holds about a sixtieth of them, and the arrays about
 * 0.2 bytes per pending timer; a wheel whose slots are never that full never makes them.
 */
final class KeySort<T> {
  /** For each key of the slot: how many timers have it, then where the first of them goes. */
  private int[] counts = new int[0];
  /** The key of each pending timer, less the slot's first key, in the bucket's order. */
  private int[] keys = new int[0];
  /** The slab slot of each pending timer, in the bucket's order. */
  private int[] slots = new int[0];
  /** The slab slots of the pending timers in key order, then in the bucket's order per key. */
  private int[] sorted = new int[0];

  /**
   * Whether a slot of level 1 with {@code timers} timers, in a wheel of {@code pending}, is sorted
   * when passed, its level 0 having {@code 2^keyBits} keys (see the class notes).
   */
  static boolean worthSorting(int timers, int keyBits, int pending) {
    return timers >= 1 << keyBits && timers <= pending >>> 2;
  }

  /**
   * Sorts the pending timers of {@code bucket}, the slot of level 1 whose keys are the {@code
   * 2^keyBits} keys from {@code firstKey} on, stably by key. Afterwards the bucket holds them in
   * key order, in a new chain of chunks with no holes, and knows it ({@link Bucket#keysInOrder}).
   * It takes time linear in the bucket's filled slots and in {@code 2^keyBits}, which is at most
   * its timers ({@link #worthSorting}).
   */
  void sort(Bucket<T> bucket, long firstKey, int keyBits) {
    int keyCount = 1 << keyBits;
    int timers = bucket.size;
    fitTo(timers, keyCount);
    TimingWheel<T> wheel = bucket.owner;
    Slab<T> slab = wheel.slab;
    int[] counts = this.counts;
    int[] keys = this.keys;
    int[] slots = this.slots;
    Arrays.fill(counts, 0, keyCount, 0);
    int found = 0;
    int lastKey = 0;
    int chunk = bucket.first;
    long readAhead = 0;
    for (int i = 0, fill = bucket.fill; i < fill; i++) {
      if (Bucket.startsChunk(i)) {
        chunk = slab.next(chunk);
      }
      if ((i & (Slab.CHUNK - 1)) == 0) {
        // The timers' lines, sixteen at a time, fetched together (see Bucket#readAhead).
        readAhead ^= Bucket.readAhead(slab, chunk);
      }
      int slot = Bucket.slotIn(chunk, i);
      WheelTimer<T> timer = slab.get(slot);
      if (bucket.holds(timer, slot)) {
        int key = (int) (wheel.keyOf(timer) - firstKey);
        keys[found] = key;
        slots[found] = slot;
        counts[key]++;
        found++;
        lastKey = Math.max(lastKey, key);
      }
    }
    wheel.readAhead = readAhead;
    for (int key = 0, start = 0; key < keyCount; key++) {
      int count = counts[key];
      counts[key] = start;
      start += count;
    }
    int[] sorted = this.sorted;
    for (int i = 0; i < found; i++) {
      sorted[counts[keys[i]]++] = slots[i];
    }
    bucket.rechain(sorted, found, firstKey + lastKey);
  }

  /** Grows the arrays, if they are shorter, to hold {@code timers} timers and {@code keyCount} keys. */
  private void fitTo(int timers, int keyCount) {
    if (counts.length < keyCount) {
      counts = new int[keyCount];
    }
    if (keys.length < timers) {
      keys = new int[timers];
      slots = new int[timers];
      sorted = new int[timers];
    }
  }
}
