package io.github.timerqueue.wheel;

import java.util.Arrays;

/**
 * The slots of all the buckets of one {@link TimingWheel}, cut into chunks of {@value #CHUNK}
 * slots. A bucket is a chain of chunks ({@link Bucket}); the chunks no bucket uses form the free
 * chain. Slot {@code s} is in chunk {@code s >>> CHUNK_SHIFT}, so a timer's slot number says where
 * it is without naming the chunk.
 *
 * <p>Why one store of chunks: a bucket's storage grows and shrinks a chunk at a time, from and to
 * the free chain, so buckets that fill and empty in turn (a level passing a slot while others
 * fill) reuse each other's chunks and nothing is allocated. A chunk of sixteen references is one
 * cache line (with compressed references), which a bucket reads sequentially.
 *
 * <p>Why pages: the slots are arrays of {@value #PAGE_SLOTS} slots (256 KB with compressed
 * references), slot {@code s} at offset {@code s & (PAGE_SLOTS - 1)} of page {@code s >>>
 * PAGE_SHIFT}, and the slab grows by one new page when the free chain runs out. A single array
 * grown by half, as before, copied the whole slab each time: at ten million timers a copy of 60
 * MB, a humongous allocation for G1 and a stall of the operation that happened to take the last
 * free chunk, repeated while the holes that cancels leave (a bounded number per timer, see {@link
 * Bucket}) took the slab from one to several slots per timer. A page is never copied or moved, so
 * growing costs one allocation of a quarter of a megabyte whatever the size, and it wastes at most
 * one page. Only the first page starts small, at {@value #INITIAL_CHUNKS} chunks, and grows by a
 * quarter by copying until it is full, so that a wheel with a few timers does not pay for a whole
 * page. It used to double, which left up to half of it free: a thousand timers among 16 TTLs took
 * 66 chunks of 128, 4.5 bytes per timer of free chunks, most of what put them over 40 bytes per
 * timer. Growing by a quarter leaves at most a fifth free, for about three times as many copies
 * on the way to a full page, whose sizes still add up to a few times the page's. The chunks a
 * workload holds go up and down as buckets fill and empty, so a first page that grows in finer
 * steps ends nearer its usual peak, where a rarer, higher peak grows it again: a copy of at most a
 * quarter of a megabyte, and only until the first page is full.
 * The price is one more load per slot access, of the page from the array of pages: that array
 * has one entry per 65,536 slots (a few hundred at ten million timers), so it stays in cache.
 *
 * <p>Why the slab records each chunk's bucket by number and not by reference: a chunk changes
 * buckets each time it is taken: in the flow of expiring timers at a million, before slots of
 * level 1 were sorted in place ({@link KeySort}), about once per four fired timers, as each key of
 * level 0 took one for its few timers. A reference stored in an old array runs G1's post-write
 * barrier, which queues the card of the store, a chunk at random here, for G1's refinement threads
 * to scan; those scans took half of the process's CPU in that flow.
 * An {@code int} runs no barrier. With numbers the cards refined per fired timer went from 0.22 to
 * about 0.15, and the process's CPU per fired timer down by a tenth with random delays and by a
 * sixth with 16 TTLs (docs/benchmarks.md). The price is one more load from a slot to its bucket,
 * from an array of one reference per bucket, which stays in cache, and 12 bytes per bucket (its
 * number, that array's entry), paid for in a wheel of a thousand timers by the 8 bytes that each
 * level no longer keeps ({@link Level#passOffset()}).
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
  /** log2 of the slots in a full page. */
  static final int PAGE_SHIFT = 16;
  /** Slots in a full page. */
  static final int PAGE_SLOTS = 1 << PAGE_SHIFT;
  /** log2 of the chunks in a full page. */
  private static final int PAGE_CHUNK_SHIFT = PAGE_SHIFT - CHUNK_SHIFT;
  /** Chunks in a full page. */
  static final int PAGE_CHUNKS = 1 << PAGE_CHUNK_SHIFT;
  /** The most slots: slot numbers lie below {@link WheelTimer#LISTED}. */
  static final int MAX_SLOTS = WheelTimer.LISTED;
  /** The most pages. */
  private static final int MAX_PAGES = MAX_SLOTS >>> PAGE_SHIFT;

  /**
   * The pages of slots: slot {@code s} is {@code pages[s >>> PAGE_SHIFT][s & (PAGE_SLOTS - 1)]};
   * a slot not in use is null. Entries past the last page are null.
   */
  private WheelTimer<T>[][] pages;
  /** The chunk after each chunk in its chain, or {@link #NO_CHUNK}, paged as {@link #pages}. */
  private int[][] links;
  /**
   * The {@linkplain Bucket#number number} of the bucket whose chain each chunk in use is in, paged
   * as {@link #links}; stale for a free chunk. A pending timer's bucket is the bucket of its slot's
   * chunk ({@link #bucketOf}), so that moving a timer to another bucket stores no reference in the
   * timer (see {@link WheelTimer}), and taking a chunk stores none here (see the class notes).
   */
  private int[][] bucketNumbers;
  /** Every bucket of the wheel, at its number; exactly as long as the wheel has buckets. */
  private Bucket<T>[] bucketsByNumber = newBuckets(0);
  /** The number of chunks. */
  private int chunks;
  /** The first free chunk, or {@link #NO_CHUNK}. */
  private int free;
  /** How many chunks are free. */
  int freeChunks;

  @SuppressWarnings("unchecked")
  Slab() {
    pages = (WheelTimer<T>[][]) new WheelTimer<?>[1][];
    pages[0] = newSlots(INITIAL_CHUNKS << CHUNK_SHIFT);
    links = new int[1][];
    links[0] = new int[INITIAL_CHUNKS];
    bucketNumbers = new int[1][];
    bucketNumbers[0] = new int[INITIAL_CHUNKS];
    free = NO_CHUNK;
    chain(0, INITIAL_CHUNKS);
  }

  /** The number of chunks. */
  int chunks() {
    return chunks;
  }

  /** The timer in a slot of a chunk in use, or {@code null}. */
  WheelTimer<T> get(int slot) {
    return pages[slot >>> PAGE_SHIFT][slot & (PAGE_SLOTS - 1)];
  }

  /** Puts a timer (or {@code null}) in a slot of a chunk in use. */
  void set(int slot, WheelTimer<T> timer) {
    pages[slot >>> PAGE_SHIFT][slot & (PAGE_SLOTS - 1)] = timer;
  }

  /** The page that holds a slot, at {@link #offset}: a chunk's slots are all in one page. */
  WheelTimer<T>[] pageOf(int slot) {
    return pages[slot >>> PAGE_SHIFT];
  }

  /** Where a slot lies in its page. */
  static int offset(int slot) {
    return slot & (PAGE_SLOTS - 1);
  }

  /** The chunk after {@code chunk} in its chain, or {@link #NO_CHUNK}. */
  int next(int chunk) {
    return links[chunk >>> PAGE_CHUNK_SHIFT][chunk & (PAGE_CHUNKS - 1)];
  }

  /** The bucket whose chain holds the chunk of a slot in use. */
  Bucket<T> bucketOf(int slot) {
    int chunk = slot >>> CHUNK_SHIFT;
    return bucket(bucketNumbers[chunk >>> PAGE_CHUNK_SHIFT][chunk & (PAGE_CHUNKS - 1)]);
  }

  /** The bucket numbered {@code number}, below {@link #bucketCount()}. */
  Bucket<T> bucket(int number) {
    return bucketsByNumber[number];
  }

  /** Records that a chunk just taken is in the chain of {@code bucket}. */
  void setBucket(int chunk, Bucket<T> bucket) {
    bucketNumbers[chunk >>> PAGE_CHUNK_SHIFT][chunk & (PAGE_CHUNKS - 1)] = bucket.number;
  }

  /** How many buckets the wheel has: their numbers are 0 up to one less. */
  int bucketCount() {
    return bucketsByNumber.length;
  }

  /**
   * Makes room for {@code more} buckets, numbered from {@link #bucketCount()} on, which the wheel
   * then makes and {@linkplain #register registers}: the array grows once for them all, to exactly
   * the buckets there will be.
   */
  void addBucketNumbers(int more) {
    bucketsByNumber = Arrays.copyOf(bucketsByNumber, bucketsByNumber.length + more);
  }

  /** Records a new bucket at its number, one that {@link #addBucketNumbers} made room for. */
  void register(Bucket<T> bucket) {
    bucketsByNumber[bucket.number] = bucket;
  }

  /** Makes {@code next} the chunk after {@code chunk} in its chain. */
  void link(int chunk, int next) {
    links[chunk >>> PAGE_CHUNK_SHIFT][chunk & (PAGE_CHUNKS - 1)] = next;
  }

  /** Takes a free chunk, all of whose slots are null, growing the slab if none is free. */
  int take() {
    if (free == NO_CHUNK) {
      grow();
    }
    int chunk = free;
    free = next(chunk);
    link(chunk, NO_CHUNK);
    freeChunks--;
    return chunk;
  }

  /**
   * Gives back a chain of {@code count} chunks from {@code first} to {@code last}, all of whose
   * slots are null.
   */
  void give(int first, int last, int count) {
    link(last, free);
    free = first;
    freeChunks += count;
  }

  /** The first free chunk, or {@link #NO_CHUNK}; for tests. */
  int firstFree() {
    return free;
  }

  /** Forgets every chunk's contents and frees them all, keeping the pages. */
  void clear() {
    for (WheelTimer<T>[] page : pages) {
      if (page != null) {
        Arrays.fill(page, null);
      }
    }
    int all = chunks;
    free = NO_CHUNK;
    freeChunks = 0;
    chain(0, all);
  }

  /**
   * Adds free chunks: the first page grows by a quarter up to a full page; after it, a new full
   * page is added, and nothing is copied but the array of pages when it doubles.
   */
  private void grow() {
    if (chunks < PAGE_CHUNKS) {
      int grown = grownFirstPage(chunks);
      pages[0] = Arrays.copyOf(pages[0], grown << CHUNK_SHIFT);
      links[0] = Arrays.copyOf(links[0], grown);
      bucketNumbers[0] = Arrays.copyOf(bucketNumbers[0], grown);
      chain(chunks, grown);
      return;
    }
    int page = chunks >>> PAGE_CHUNK_SHIFT;
    if (page == MAX_PAGES) {
      throw new IllegalStateException("a timing wheel holds at most " + chunks + " chunks of "
          + CHUNK + " timer slots, " + MAX_SLOTS + " slots in all");
    }
    if (page == pages.length) {
      pages = Arrays.copyOf(pages, Math.min(MAX_PAGES, 2 * page));
      links = Arrays.copyOf(links, pages.length);
      bucketNumbers = Arrays.copyOf(bucketNumbers, pages.length);
    }
    pages[page] = newSlots(PAGE_SLOTS);
    links[page] = new int[PAGE_CHUNKS];
    bucketNumbers[page] = new int[PAGE_CHUNKS];
    chain(chunks, chunks + PAGE_CHUNKS);
  }

  /** The chunks of a first page of {@code chunks} grown by a quarter, at most a full page. */
  static int grownFirstPage(int chunks) {
    return Math.min(PAGE_CHUNKS, chunks + Math.max(1, chunks >>> 2));
  }

  /** Puts the new chunks {@code [from, to)} in front of the free chain, in order. */
  private void chain(int from, int to) {
    for (int chunk = from; chunk < to; chunk++) {
      link(chunk, chunk + 1 < to ? chunk + 1 : free);
    }
    free = from;
    freeChunks += to - from;
    chunks = Math.max(chunks, to);
  }

  @SuppressWarnings("unchecked")
  private static <T> WheelTimer<T>[] newSlots(int length) {
    return (WheelTimer<T>[]) new WheelTimer<?>[length];
  }

  @SuppressWarnings("unchecked")
  private static <T> Bucket<T>[] newBuckets(int length) {
    return (Bucket<T>[]) new Bucket<?>[length];
  }
}
