package io.github.timerqueue.lawn;

import java.util.Arrays;

/**
 * The ticket numbers of one lawn, each ring's its own: which ring a pending timer is in, found from
 * the number it records ({@link LawnTimer#ticket}) without a reference to the ring in the timer.
 *
 * <p>Each ring holds a <em>window</em>: {@code 2^k} consecutive numbers, {@code k >=} {@value
 * #BLOCK_SHIFT}, more than the ring has slots. A timer with the ring's ticket {@code t} records
 * the number {@code base + (t mod 2^k)} of the ring's window ({@link TimerRing#numberOf}): the
 * ring's tickets in use span no more than its slots, so no two of them share a number, and no
 * two rings share a window, so a number names one ring and one of its tickets. The numbers are
 * cut into blocks of {@value #BLOCK} and the table records the ring of every block in use, so
 * {@link #ringOf} is one array load. A ring that grows past its window takes a larger one and
 * renumbers its timers (int stores, as a compaction does), which its growth pays for.
 *
 * <p>Why: a timer that named its ring by a reference had that reference rewritten each time it
 * moved to another ring, a reference store into the timer, which in a long-running program is an
 * old object, so that G1's post-write barrier fences and queues the timer's card for refinement.
 * At a million timers with sixteen TTLs, re-armed at random among them, that took a fired timer
 * from 65 ns of thread CPU (timers young) to 188 (tenured).
 *
 * <p>A window freed by a ring is kept for the next ring that needs one of its size; new windows
 * are cut after the last one in use, and once the {@code 2^31} numbers are all cut, a larger free
 * window is split. Windows are not merged: the numbers in use stay below the sum, over the window
 * sizes, of the most numbers that windows of each size ever held at once, a few times the slots
 * of the rings, so the table costs well under a byte per timer (one reference per {@value #BLOCK}
 * numbers, {@code 4 / 64} of a byte with compressed references).
 */
final class TicketTable<T> {
  /** log2 of the numbers in a block, the smallest window. */
  static final int BLOCK_SHIFT = 6;
  /** The numbers in a block. */
  static final int BLOCK = 1 << BLOCK_SHIFT;
  /** The blocks of all {@code 2^31} numbers. */
  private static final int MAX_BLOCKS = 1 << (31 - BLOCK_SHIFT);
  /**
   * Window sizes: order {@code k} has {@code 2^k} blocks; the largest has {@code 2^29} numbers, so
   * that a ring's tickets, lowered by a multiple of its window's size, stay below {@code 2^30}
   * ({@link TimerRing#rebase}).
   */
  private static final int ORDERS = 29 - BLOCK_SHIFT + 1;
  /** Blocks of a new table. */
  private static final int INITIAL_BLOCKS = 16;

  /** The ring whose window holds each block, {@code null} for a free block or one not yet cut. */
  private TimerRing<T>[] rings;
  /** The blocks cut so far: {@code [0, cut)}. */
  private int cut;
  /** For each order, the first blocks of the free windows of that size: a stack. */
  private final int[][] free = new int[ORDERS][];
  /** How many free windows of each order there are. */
  private final int[] freeCount = new int[ORDERS];

  TicketTable() {
    rings = newRings(INITIAL_BLOCKS);
    Arrays.setAll(free, order -> new int[1]);
  }

  /** The ring whose window holds a number in use: the ring of a pending timer's ticket. */
  TimerRing<T> ringOf(int number) {
    return rings[number >>> BLOCK_SHIFT];
  }

  /**
   * The order of the smallest window with more numbers than {@code slots}.
   *
   * @throws IllegalStateException if that is more than {@code 2^29} numbers
   */
  static int orderFor(int slots) {
    int order = Math.max(0, 32 - Integer.numberOfLeadingZeros(slots) - BLOCK_SHIFT);
    if (order >= ORDERS) {
      throw new IllegalStateException("a lawn's queue holds at most " + ((1 << 29) - 1)
          + " timer slots, not " + slots);
    }
    return order;
  }

  /**
   * Gives {@code ring} a window of {@code 2^order} blocks and returns its first number. {@code
   * O(1)} amortized, plus the window's blocks.
   *
   * @throws IllegalStateException if no window of that size is left
   */
  int take(int order, TimerRing<T> ring) {
    int block = takeBlocks(order);
    Arrays.fill(rings, block, block + (1 << order), ring);
    return block << BLOCK_SHIFT;
  }

  /** Takes back the window of {@code size} numbers that starts at {@code first}. */
  void give(int first, int size) {
    int block = first >>> BLOCK_SHIFT;
    int blocks = size >>> BLOCK_SHIFT;
    Arrays.fill(rings, block, block + blocks, null);
    push(Integer.numberOfTrailingZeros(blocks), block);
  }

  /** The numbers cut so far: for tests. */
  long numbersCut() {
    return (long) cut << BLOCK_SHIFT;
  }

  private int takeBlocks(int order) {
    if (freeCount[order] > 0) {
      return free[order][--freeCount[order]];
    }
    int blocks = 1 << order;
    if (blocks <= MAX_BLOCKS - cut) {
      int block = cut;
      cut += blocks;
      if (cut > rings.length) {
        rings = Arrays.copyOf(rings, (int) Math.min(MAX_BLOCKS, Math.max(cut, 2L * rings.length)));
      }
      return block;
    }
    for (int larger = order + 1; larger < ORDERS; larger++) {
      if (freeCount[larger] > 0) {
        int block = free[larger][--freeCount[larger]];
        // Keep the first 2^order blocks; the rest are free windows of each order up to larger.
        for (int split = order; split < larger; split++) {
          push(split, block + (1 << split));
        }
        return block;
      }
    }
    throw new IllegalStateException("a lawn's queues hold at most 2^31 ticket numbers in all; no"
        + " window of " + (blocks << BLOCK_SHIFT) + " is left");
  }

  private void push(int order, int block) {
    if (freeCount[order] == free[order].length) {
      free[order] = Arrays.copyOf(free[order], 2 * free[order].length);
    }
    free[order][freeCount[order]++] = block;
  }

  @SuppressWarnings("unchecked")
  private static <T> TimerRing<T>[] newRings(int length) {
    return (TimerRing<T>[]) new TimerRing<?>[length];
  }
}
