package io.github.timerqueue.wheel;

import java.util.Arrays;

/**
 * The slots of all the buckets of one {@link TimingWheel}, in one array cut into chunks of
 * {@value #CHUNK} slots. A bucket is a chain of chunks ({@link Bucket}); the chunks no bucket uses
 * form the free chain. Slot {@code s} is in chunk {@code s >>> CHUNK_SHIFT}, so a timer's slot
 * number says where it is without naming the chunk.
 *
 * <p>Why one array: a bucket's storage grows and shrinks a chunk at a time, from and to the free
 * chain, so buckets that fill and empty in turn (a level passing a slot while others fill) reuse
 * each other's chunks and nothing is allocated. The array grows by half when the free chain runs
 * out, so after a workload's first peak it never grows again in a steady state, and it holds at
 * most one and a half times the chunks that were ever in use at once. A chunk of sixteen
 * references is one cache line (with compressed references), which a bucket reads sequentially.
 */
final class Slab<T> {
  /** log2 of the slots in a chunk. */
  static final int CHUNK_SHIFT = 4;
  /** Slots in a chunk. */
  static final int CHUNK = 1 << CHUNK_SHIFT;
  /** The chunk after the last of a chain. */
  static final int NO_CHUNK = -1;
  /** Chunks of a new slab. */
  static final int INITIAL_CHUNKS = 4;

  /** Chunk {@code c} is {@code slots[c * CHUNK, (c + 1) * CHUNK)}; a slot not in use is null. */
  WheelTimer<T>[] slots;
  /** The chunk after each chunk in its chain, or {@link #NO_CHUNK}. */
  int[] next;
  /** The first free chunk, or {@link #NO_CHUNK}. */
  private int free;
  /** How many chunks are free. */
  int freeChunks;

  Slab() {
    slots = newSlots(INITIAL_CHUNKS << CHUNK_SHIFT);
    next = new int[INITIAL_CHUNKS];
    free = NO_CHUNK;
    chain(0, INITIAL_CHUNKS);
  }

  /** The number of chunks. */
  int chunks() {
    return next.length;
  }

  /** Takes a free chunk, all of whose slots are null, growing the slab if none is free. */
  int take() {
    if (free == NO_CHUNK) {
      grow();
    }
    int chunk = free;
    free = next[chunk];
    next[chunk] = NO_CHUNK;
    freeChunks--;
    return chunk;
  }

  /**
   * Gives back a chain of {@code count} chunks from {@code first} to {@code last}, all of whose
   * slots are null.
   */
  void give(int first, int last, int count) {
    next[last] = free;
    free = first;
    freeChunks += count;
  }

  /** The first free chunk, or {@link #NO_CHUNK}; for tests. */
  int firstFree() {
    return free;
  }

  /** Forgets every chunk's contents and frees them all, keeping the array. */
  void clear() {
    Arrays.fill(slots, null);
    free = NO_CHUNK;
    freeChunks = 0;
    chain(0, next.length);
  }

  private void grow() {
    int chunks = next.length;
    int grown = chunks + Math.max(INITIAL_CHUNKS, chunks >>> 1);
    if (grown > (Integer.MAX_VALUE >>> CHUNK_SHIFT) || grown < 0) {
      grown = Integer.MAX_VALUE >>> CHUNK_SHIFT;
      if (grown <= chunks) {
        throw new IllegalStateException("a timing wheel holds at most " + chunks + " chunks of "
            + CHUNK + " timer slots");
      }
    }
    slots = Arrays.copyOf(slots, grown << CHUNK_SHIFT);
    next = Arrays.copyOf(next, grown);
    chain(chunks, grown);
  }

  /** Puts the chunks {@code [from, to)} in front of the free chain, in order. */
  private void chain(int from, int to) {
    for (int chunk = from; chunk < to; chunk++) {
      next[chunk] = chunk + 1 < to ? chunk + 1 : free;
    }
    free = from;
    freeChunks += to - from;
  }

  @SuppressWarnings("unchecked")
  private static <T> WheelTimer<T>[] newSlots(int length) {
    return (WheelTimer<T>[]) new WheelTimer<?>[length];
  }
}
