package io.github.timerqueue.wheel;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * A bucket of a {@link TimingWheel}: the timers of one slot of a level (stored by key, or coarse),
 * or the wheel's due, firing or overflow timers, in slots in the order they joined. The slots are
 * a chain of chunks of the wheel's {@link Slab}; a timer records its slot's number in the slab
 * ({@link WheelTimer#slot}), and the slab records the bucket of each chunk ({@link
 * Slab#bucketOf}).
 *
 * <p>The bucket's first {@code fill} slots, in chain order, have been filled; a slot whose timer
 * left is a <em>hole</em>. Joining appends at {@code fill}, taking a chunk from the slab when the
 * last one is full; leaving writes only to the timer (its slot becomes {@link
 * WheelTimer#NOT_PENDING}) and to this bucket's counts, and leaves the reference in the slab slot,
 * stale: a slot holds its timer only if the timer still records that slot ({@link #holds}).
 * Emptying a bucket (a level passing its slot, the due timers becoming the firing batch) reads its
 * slots in order, a chunk (a cache line) at a time, and reads each timer anyway, so telling a
 * stale reference costs nothing there; compacting reads each timer too.
 *
 * <p>Why stale references rather than emptying the slot: at a million timers the slot's line is
 * not cached, and the store that empties it misses. The processor would retire that store in the
 * background, except that the next reference store into an old object (appending the timer, or
 * another, to a bucket) runs G1's post-write barrier, whose fence waits for every earlier store,
 * the missed one included: a cancel followed by a schedule paid a memory round trip for a slot
 * nobody reads until the bucket is compacted or emptied. The cost is that a cancelled timer (and
 * its payload) stays reachable from the slab until then: at most {@value #HOLES_PER_TIMER} stale
 * references per timer of the bucket (the hole bound below), and none once the bucket empties.
 *
 * <p>Holes are bounded: a bucket that empties gives all its chunks back; one with more than
 * {@value #HOLES_PER_TIMER} holes per timer (and at least {@value #SPARSE_FILL} filled slots) is
 * compacted, keeping the order and giving back the chunks it no longer needs (and clearing the
 * stale references). So a bucket with {@code n} timers has at most {@code max(3n, SPARSE_FILL -
 * 1)} holes, at most four slots per timer, except the firing batch while it is handed out (its
 * holes are the timers already handed out; it empties by the end of the advance) and a bucket
 * being drained. Compacting moves each timer it keeps once (writing its new slot to it) and
 * follows at least three removals per timer it keeps, so it costs {@code O(1)} amortized per
 * removal: per removal, it reads at most 4/3 slots and their timers and moves at most 1/3 timer.
 *
 * <p>Why three holes per timer and not one: compacting is most of what a cancel or reschedule
 * costs among a million timers beyond the timer's own cache miss, since each slot it reads, hole
 * or not, reads the timer named there (another miss) to tell a stale reference. With one hole per
 * timer it read about two slots and moved about one timer per reschedule, and a reschedule cost
 * 1.2 to 1.6 times what it costs with three (thread CPU time, {@code OperationCpu}, a million
 * timers); five or eight holes per timer measured no faster than three, within the noise, while
 * a bucket may hold more slots. The price is memory after heavy churn: up to four slots (16
 * bytes) per timer in a bucket instead of two; a filled wheel, before any cancel, is unchanged.
 * Telling a hole without reading its timer needs a mark written at the removal, and every such
 * mark measured slower than the reads it saves: clearing the slot (even deferred until after the
 * next append), or a live bit per slot, in an array of its own or in one long per chunk with the
 * chunk's bucket, all made a reschedule cost more, since the removal then stores to a line of its
 * own and the append's post-write barrier fences until that store completes. Measured again
 * with the slot cleared at once, or after the next append, and compaction then telling a hole by
 * its null alone: a schedule+cancel at 10^6 took 1.25 to 1.9 times Agrona's time where the stale
 * references took 1.03 to 1.08 (thread CPU, alternated JVMs). A live bit per slot cleared only
 * when a cancel is settled, after the next append, with compaction reading only the timers it
 * keeps, measured slower as well: a median 1.27 times Agrona's schedule+cancel against 1.12.
 *
 * <p>What made those reads cheaper is their order: compaction reads the timers of {@value
 * #COMPACT_CHUNKS} chunks, loads only, before it moves any of them. A move stores a reference in
 * the slab, and the fence of G1's post-write barrier on that store waits for the loads in flight,
 * so reading one chunk ahead, as before, left about one memory round trip per chunk. Mean thread
 * CPU at 10^6 timers, both builds in one JVM: a schedule+cancel takes 0.82 to 0.84 of its time
 * before, a reschedule 0.78 to 0.81. Groups of 4 or 64 chunks measured within 3% of 16; keeping
 * each group's chunks and live slots in arrays, instead of walking the chain twice, measured
 * slower (0.83 to 0.91) and cost 0.16 bytes per timer at 10^3; five holes per timer instead of
 * three measured the same as three.
 *
 * <p>A slot of a level has a bucket only while it holds timers, and only from its fifth timer on
 * (its first ones are a short list of at most {@link Level#LIST_MAX}, which the {@link Level}
 * holds itself): an emptied bucket goes to the wheel's spare buckets, for the next slot that
 * needs one.
 */
final class Bucket<T> {
  /** Fewest filled slots at which a bucket is compacted for being sparse: two chunks. */
  static final int SPARSE_FILL = 2 * Slab.CHUNK;
  /** The most holes per timer that a bucket of {@value #SPARSE_FILL} filled slots or more keeps. */
  static final int HOLES_PER_TIMER = 3;
  /** Chunks whose timers compaction reads ahead at once, before it moves any of them. */
  static final int COMPACT_CHUNKS = 16;
  /**
   * The fewest timers of a run that {@link #appendRun} moves with an array copy rather than one
   * store each: the copy's barrier is a call into the virtual machine, which costs more than the
   * stores of a shorter run.
   */
  static final int COPY_MIN = 4;
  /** A number that no bucket has ({@link #number}). */
  static final int NO_NUMBER = -1;

  /** The wheel that owns the bucket and its timers. */
  final TimingWheel<T> owner;
  /**
   * Its number among the wheel's buckets, by which the slab names the bucket of each chunk
   * ({@link Slab#bucketOf}); fixed for the bucket's life, whichever slot it serves.
   */
  final int number;
  /**
   * The level whose slot this is, or {@code null} for the due, firing and overflow buckets. A
   * spare bucket keeps the slot it last had.
   */
  Level<T> level;
  /** The slot of {@link #level} this is, or -1. */
  int index;
  /** Whether this is a coarse slot of its level, which holds timers of {@code scheduleWithin}. */
  boolean coarse;
  /** The first chunk of the chain, or {@link Slab#NO_CHUNK} if {@code fill == 0}. */
  int first = Slab.NO_CHUNK;
  /** The last chunk of the chain, which holds slot {@code fill - 1}. */
  int last = Slab.NO_CHUNK;
  /** The number of slots filled: the next timer joins at this one. */
  int fill;
  /** The number of timers: filled slots that are not holes. */
  int size;
  /**
   * Set while the bucket is read slot by slot by the wheel (the firing batch, a bucket being
   * drained), which must then not be compacted.
   */
  boolean handingOut;
  /**
   * How many filled slots at the start of the chain, fewer than a chunk, are known to be holes:
   * where the wheel's next hand-out of a sorted bucket starts reading, past the timers the last
   * one took (TimingWheel#takeSortedDue). A byte, in what the object's alignment leaves
   * free. Compacting or emptying the bucket makes it 0.
   */
  byte leadingHoles;
  /**
   * Whether the bucket's timers are in the order of their keys, as the keys they joined with
   * show ({@link #joinedWithKey}): true from the timer that fills the bucket's first slot, false
   * from an append whose key is below the one before it until the bucket empties. Removing and
   * compacting keep the order, so it may say false of timers that are in order again, never true
   * of timers that are not, in a slot of a level whose slots span at most 2<sup>32</sup> keys
   * (see {@link #lastKey}). It is read only of the slots of level 1 (TimingWheel#becomesSorted),
   * whose buckets come empty from the spare buckets; in other buckets the keys given may be any.
   */
  boolean keysInOrder;
  /**
   * The low 32 bits of the key of the timer appended last. The keys of one slot of a level whose
   * slots span at most 2<sup>32</sup> keys start at a multiple of that span, so their low bits
   * compare as the keys do; level 1's span at most 2<sup>20</sup> ({@link
   * LevelBits#MAX_BITS_PER_LEVEL}). Four bytes, so that the bucket stays 56: with a {@code long}
   * it took 64, and schedule+cancel a median 1.00&times; Agrona's time in JMH rounds where it took
   * 0.94&times; with the {@code int}.
   */
  int lastKey;
  /** The next spare bucket, while this one is spare. */
  Bucket<T> nextSpare;

  /** Makes bucket {@code number}, one the slab has made room for, and registers it there. */
  Bucket(TimingWheel<T> owner, int number) {
    this.owner = owner;
    this.number = number;
    this.index = -1;
    owner.slab.register(this);
  }

  /** Makes an empty bucket the bucket of a slot. */
  void assign(Level<T> level, int index, boolean coarse) {
    this.level = level;
    this.index = index;
    this.coarse = coarse;
  }

  /** The slot number in the slab of the filled slot {@code i} of a chain at chunk {@code chunk}. */
  static int slotIn(int chunk, int i) {
    return (chunk << Slab.CHUNK_SHIFT) | (i & (Slab.CHUNK - 1));
  }

  /**
   * Reads the deadline of every timer of a chunk in one tight loop and returns them combined, so
   * that the processor fetches the timers' cache lines all at once: a bucket that is emptied or
   * handed out calls it as it enters each chunk, and compaction for {@value #COMPACT_CHUNKS} chunks
   * at a time, before the slower work on each timer, where only a timer or two would be in flight
   * at a time. The caller keeps the result (in {@link TimingWheel#readAhead}) so that the reads are
   * not optimized away.
   */
  static <T> long readAhead(Slab<T> slab, int chunk) {
    int first = chunk << Slab.CHUNK_SHIFT;
    WheelTimer<T>[] page = slab.pageOf(first);
    long combined = 0;
    for (int slot = Slab.offset(first), end = slot + Slab.CHUNK; slot < end; slot++) {
      WheelTimer<T> timer = page[slot];
      if (timer != null) {
        combined ^= timer.deadline();
      }
    }
    return combined;
  }

  /**
   * Whether {@code timer}, read from slab slot {@code slot} of this bucket, is pending there, or is
   * a stale reference that a removal left: the timer records the one slot it is pending in (a
   * listed timer's is above every slab slot), and while the stale reference holds a slot no other
   * bucket can have it, nor can this one append there, so a match is exact.
   */
  boolean holds(WheelTimer<T> timer, int slot) {
    return timer != null && timer.slot == slot;
  }

  /** Whether filled slot {@code i} of the bucket starts a new chunk (so the chain moves on). */
  static boolean startsChunk(int i) {
    return i > 0 && (i & (Slab.CHUNK - 1)) == 0;
  }

  /** Appends a timer that is in no bucket, whose key is {@code key}; it is then pending, here. */
  void append(WheelTimer<T> timer, long key) {
    joinedWithKey(key);
    Slab<T> slab = owner.slab;
    takeChunkIfFull(slab);
    int slot = slotIn(last, fill++);
    slab.set(slot, timer);
    timer.slot = slot;
    size++;
    if (level != null) {
      level.joined(this, 1);
    }
  }

  /**
   * Keeps {@link #keysInOrder} as timers of {@code key} join, before they fill their slots, so
   * that telling whether a passed slot of level 1 is in order reads none of its timers: reading
   * each, a line apiece, made a single TTL's flow at 10^6 timers about 8% slower.
   */
  private void joinedWithKey(long key) {
    keysInOrder = fill == 0 || keysInOrder && Integer.compareUnsigned((int) key, lastKey) >= 0;
    lastKey = (int) key;
  }

  /** Adds a chunk from the slab to the chain if slot {@code fill} starts one. */
  private void takeChunkIfFull(Slab<T> slab) {
    if ((fill & (Slab.CHUNK - 1)) == 0) {
      int chunk = slab.take();
      slab.setBucket(chunk, this);
      if (fill == 0) {
        first = chunk;
      } else {
        slab.link(last, chunk);
      }
      last = chunk;
    }
  }

  /**
   * Appends the {@code count} timers of slab slots {@code from, from + 1, ...} of another bucket's
   * chunk, which they are pending in, all of key {@code key}; they are then pending here, in
   * order, and their old slots hold stale references. The references are copied a chunk of this
   * bucket at a time: G1's post-write barrier of an array copy fences once for the copy, where a
   * store per timer fences once per timer, and waits each time for the loads still in flight.
   */
  void appendRun(int from, int count, long key) {
    joinedWithKey(key);
    Slab<T> slab = owner.slab;
    int joined = count;
    while (count > 0) {
      takeChunkIfFull(slab);
      int to = slotIn(last, fill);
      int copied = Math.min(count, Slab.CHUNK - (fill & (Slab.CHUNK - 1)));
      // Taking a chunk may have grown the slab: the source's page is read after it.
      WheelTimer<T>[] source = slab.pageOf(from);
      WheelTimer<T>[] target = slab.pageOf(to);
      int offset = Slab.offset(from);
      if (copied >= COPY_MIN) {
        System.arraycopy(source, offset, target, Slab.offset(to), copied);
      } else {
        for (int i = 0; i < copied; i++) {
          target[Slab.offset(to) + i] = source[offset + i];
        }
      }
      for (int i = 0; i < copied; i++) {
        source[offset + i].slot = to + i;
      }
      fill += copied;
      from += copied;
      count -= copied;
    }
    size += joined;
    if (level != null) {
      level.joined(this, joined);
    }
  }

  /**
   * Puts the timers pending in this bucket's slab slots {@code slots[0]} to {@code
   * slots[count - 1]}, every one of its timers, into a new chain in that order, with no holes, and
   * gives the old chain back to the slab, its references cleared; the timers are then in key
   * order, the last of key {@code lastKey} ({@link KeySort}). The counts do not change.
   */
  void rechain(int[] slots, int count, long lastKey) {
    Slab<T> slab = owner.slab;
    int oldFirst = first;
    int oldLast = last;
    int oldFill = fill;
    startNewChain();
    for (int i = 0; i < count; i++) {
      // Read before a chunk is taken, which may grow the slab.
      WheelTimer<T> timer = slab.get(slots[i]);
      takeChunkIfFull(slab);
      int slot = slotIn(last, fill++);
      slab.set(slot, timer);
      timer.slot = slot;
    }
    for (int start = 0, chunk = oldFirst; start < oldFill; start += Slab.CHUNK) {
      clearChunk(slab, chunk);
      chunk = slab.next(chunk);
    }
    slab.give(oldFirst, oldLast, chunksFor(oldFill));
    keysInOrder = true;
    this.lastKey = (int) lastKey;
  }

  /**
   * Gives back the first {@code chunks} chunks of the chain, whose filled slots are all holes
   * (their references stale), and which do not hold the last filled slot: the part that the wheel
   * has handed out of its sorted bucket ({@link TimingWheel#sorted}), which would otherwise wait
   * for a compaction that moves every timer after it.
   */
  void dropLeadingChunks(int chunks) {
    Slab<T> slab = owner.slab;
    for (int i = 0; i < chunks; i++) {
      int chunk = first;
      clearChunk(slab, chunk);
      first = slab.next(chunk);
      slab.give(chunk, chunk, 1);
      fill -= Slab.CHUNK;
    }
  }

  /** Takes a timer of this bucket out of it; it is then not pending. */
  void remove(WheelTimer<T> timer) {
    timer.slot = WheelTimer.NOT_PENDING;
    vacated();
  }

  /**
   * Counts a timer that left this bucket, whose slot here it no longer records (it is not pending,
   * or pending in another slot, of this bucket or another): that slot is now a hole.
   */
  void vacated() {
    size--;
    if (size == 0) {
      releaseChunks();
    } else if (!handingOut) {
      compactIfSparse();
    }
    if (level != null) {
      level.left(this);
    }
  }

  /**
   * Compacts the bucket if it has more than {@value #HOLES_PER_TIMER} holes per timer and at least
   * {@value #SPARSE_FILL} filled slots; called after each removal, and after a batch was read
   * slot by slot.
   */
  void compactIfSparse() {
    // In longs: a bucket may fill up to Slab.MAX_SLOTS slots, and three times that overflows.
    if (fill >= SPARSE_FILL && fill - size > HOLES_PER_TIMER * (long) size) {
      compact();
    }
  }

  /**
   * Empties the bucket and moves its timers, in order, to the end of {@code into}, or if that is
   * {@code null} files each where its key now belongs ({@link TimingWheel#refileBucket}): the
   * moves of the lazy radix sort. Timers next to each other bound for one bucket (with a single
   * TTL, those armed in one interval) go as a run, with one array copy per chunk they fill ({@link
   * #appendRun}) and one lookup of their bucket.
   *
   * <p>Each chunk goes back to the slab as soon as it has been read, so that filing the timers
   * elsewhere reuses it: moving a bucket costs at most one chunk per bucket it files into beyond
   * those it frees, never a second copy of the bucket. Otherwise a large bucket passed by a level
   * would hold its chunks until all its timers had taken new ones, and the slab would grow to
   * twice the timers it ever holds. A run ends at the end of its chunk, and the next run of its
   * key finds the bucket it joined again without a lookup.
   */
  void moveAll(Bucket<T> into) {
    TimingWheel<T> wheel = owner;
    Slab<T> slab = wheel.slab;
    int chunk = first;
    int end = fill;
    int count = size;
    startNewChain();
    size = 0;
    long readAhead = 0;
    for (int start = 0; start < end; start += Slab.CHUNK) {
      readAhead ^= readAhead(slab, chunk);
      int chunkStart = chunk << Slab.CHUNK_SHIFT;
      int slots = Math.min(Slab.CHUNK, end - start);
      WheelTimer<T> runFirst = null;
      int runStart = 0;
      int runLength = 0;
      long runKey = 0;
      for (int i = 0; i < slots; i++) {
        WheelTimer<T> timer = slab.get(chunkStart + i);
        boolean pending = holds(timer, chunkStart + i);
        // Moved into a bucket outside the levels, whose key order is never read, with no key.
        long key = pending && into == null ? wheel.keyOf(timer) : 0;
        if (runLength > 0 && (!pending || key != runKey)) {
          moveRun(into, runFirst, chunkStart + runStart, runLength, runKey);
          runLength = 0;
        }
        if (pending) {
          if (runLength == 0) {
            runFirst = timer;
            runStart = i;
            runKey = key;
          }
          runLength++;
        }
      }
      if (runLength > 0) {
        moveRun(into, runFirst, chunkStart + runStart, runLength, runKey);
      }
      // The timers moved and the stale references go.
      clearChunk(slab, chunk);
      int read = chunk;
      chunk = slab.next(read);
      slab.give(read, read, 1);
    }
    wheel.readAhead = readAhead;
    if (level != null && count > 0) {
      level.emptied(this, count);
    }
  }

  /**
   * Moves a run of {@code length} timers, pending in slab slots from {@code from} on, the first of
   * them {@code first}, to the end of {@code into}, or if that is {@code null} where their key
   * now belongs: a lone timer by one append, since timers at random keys come one to a run.
   */
  private void moveRun(Bucket<T> into, WheelTimer<T> first, int from, int length, long key) {
    Bucket<T> bucket = into != null ? into : owner.refileBucket(key);
    if (length == 1) {
      bucket.append(first, key);
    } else {
      bucket.appendRun(from, length, key);
    }
  }

  /** Forgets every timer, which is then not pending. */
  void clear() {
    Slab<T> slab = owner.slab;
    int chunk = first;
    for (int i = 0; i < fill; i++) {
      if (startsChunk(i)) {
        chunk = slab.next(chunk);
      }
      int slot = slotIn(chunk, i);
      WheelTimer<T> timer = slab.get(slot);
      if (timer != null) {
        slab.set(slot, null);
        if (holds(timer, slot)) {
          timer.slot = WheelTimer.NOT_PENDING;
        }
      }
    }
    int count = size;
    size = 0;
    releaseChunks();
    if (level != null && count > 0) {
      level.emptied(this, count);
    }
  }

  /** Hands every timer to {@code action}, in order, changing nothing. */
  void forEach(Consumer<? super WheelTimer<T>> action) {
    Slab<T> slab = owner.slab;
    int chunk = first;
    for (int i = 0; i < fill; i++) {
      if (startsChunk(i)) {
        chunk = slab.next(chunk);
      }
      int slot = slotIn(chunk, i);
      WheelTimer<T> timer = slab.get(slot);
      if (holds(timer, slot)) {
        action.accept(timer);
      }
    }
  }

  /** The first timer, or {@code null} if the bucket is empty. */
  WheelTimer<T> first() {
    Slab<T> slab = owner.slab;
    int chunk = first;
    for (int i = 0; i < fill; i++) {
      if (startsChunk(i)) {
        chunk = slab.next(chunk);
      }
      int slot = slotIn(chunk, i);
      WheelTimer<T> timer = slab.get(slot);
      if (holds(timer, slot)) {
        return timer;
      }
    }
    return null;
  }

  /** The number of chunks that {@code fill} slots take. */
  static int chunksFor(int fill) {
    return (fill + Slab.CHUNK - 1) >>> Slab.CHUNK_SHIFT;
  }

  /**
   * Gives every chunk of an empty bucket back to the slab, clearing the stale references it still
   * holds: a free chunk's slots are all null.
   */
  private void releaseChunks() {
    Slab<T> slab = owner.slab;
    if (fill > 0) {
      int chunk = first;
      for (int i = 0; i < fill; i++) {
        if (startsChunk(i)) {
          chunk = slab.next(chunk);
        }
        slab.set(slotIn(chunk, i), null);
      }
      slab.give(first, last, chunksFor(fill));
      startNewChain();
    }
  }

  /** Makes the chain empty, as a bucket's that no timer has filled; the caller keeps the chunks. */
  private void startNewChain() {
    first = Slab.NO_CHUNK;
    last = Slab.NO_CHUNK;
    fill = 0;
    leadingHoles = 0;
  }

  /** Clears every slot of a chunk: a free chunk's slots are all null. */
  private static <T> void clearChunk(Slab<T> slab, int chunk) {
    int chunkStart = chunk << Slab.CHUNK_SHIFT;
    WheelTimer<T>[] page = slab.pageOf(chunkStart);
    Arrays.fill(page, Slab.offset(chunkStart), Slab.offset(chunkStart) + Slab.CHUNK, null);
  }

  /**
   * Moves the timers to the front, in order, clears the stale references and gives back the
   * chunks left unused. Every timer referenced is read, to tell whether it is still here, and every
   * one after the first hole moves, which writes its new slot to it, a line of its own, usually not
   * cached at a million timers. So the pass reads ahead: it reads the timers of the next {@value
   * #COMPACT_CHUNKS} chunks ({@link #readAhead}), a loop of loads only, so that the processor has
   * as many of their lines in flight as it can hold, and only then tells ({@link #liveSlots}) and
   * moves that group's timers, whose lines are then cached. Moving a timer stores its reference in
   * the slab, and G1's post-write barrier on that store fences, waiting for every load still in
   * flight: a read-ahead of one chunk, as before, let the first move of each chunk wait for a
   * memory round trip.
   *
   * <p>The one stale reference kept is the wheel's slot left to settle ({@link
   * TimingWheel#unsettledSlot}), if it is here: a reschedule settles the slot that the operation
   * before it left only after it left its own, which may be in this bucket. It moves as a timer
   * does, but the record moves instead of the timer's slot, so that its bucket still counts the
   * timer out when it is settled.
   */
  private void compact() {
    Slab<T> slab = owner.slab;
    int unsettled = owner.unsettledSlot;
    int readChunk = first;
    int writeChunk = first;
    int aheadChunk = first;
    long readAhead = 0;
    int kept = 0;
    for (int read = 0, ahead = 0; readChunk != Slab.NO_CHUNK; read += Slab.CHUNK, ahead--) {
      if (ahead == 0) {
        for (; ahead < COMPACT_CHUNKS && aheadChunk != Slab.NO_CHUNK; ahead++) {
          readAhead ^= readAhead(slab, aheadChunk);
          aheadChunk = slab.next(aheadChunk);
        }
      }
      int chunkStart = readChunk << Slab.CHUNK_SHIFT;
      WheelTimer<T>[] page = slab.pageOf(chunkStart);
      int offset = Slab.offset(chunkStart);
      int slots = liveSlots(page, offset, chunkStart);
      if (unsettled >= 0 && unsettled >>> Slab.CHUNK_SHIFT == readChunk) {
        slots |= 1 << (unsettled & (Slab.CHUNK - 1));
      }
      for (; slots != 0; slots &= slots - 1, kept++) {
        int from = Integer.numberOfTrailingZeros(slots);
        if (startsChunk(kept)) {
          writeChunk = slab.next(writeChunk);
        }
        if (kept != read + from) {
          WheelTimer<T> timer = page[offset + from];
          int to = slotIn(writeChunk, kept);
          slab.set(to, timer);
          if (chunkStart + from == unsettled) {
            owner.unsettledSlot = to;
          } else {
            timer.slot = to;
          }
        }
      }
      // What is left of this chunk past the timers kept, stale references and moved ones, goes.
      Arrays.fill(page, offset + Math.max(kept - read, 0), offset + Slab.CHUNK, null);
      readChunk = slab.next(readChunk);
    }
    owner.readAhead = readAhead;
    int unused = chunksFor(fill) - chunksFor(kept);
    if (unused > 0) {
      slab.give(slab.next(writeChunk), last, unused);
      slab.link(writeChunk, Slab.NO_CHUNK);
    }
    last = writeChunk;
    fill = kept;
    leadingHoles = 0;
  }

  /**
   * The slots of the chunk that starts at slab slot {@code chunkStart}, at {@code offset} of {@code
   * page}, whose timer is pending there, one bit per slot, lowest first. It reads
   * every timer the chunk references, with no branch on what it finds: holes fall at random, and a
   * branch per slot would be a coin toss for the processor's predictor.
   */
  private static <T> int liveSlots(WheelTimer<T>[] page, int offset, int chunkStart) {
    int live = 0;
    for (int i = 0; i < Slab.CHUNK; i++) {
      WheelTimer<T> timer = page[offset + i];
      if (timer != null) {
        // 1 if and only if the timer records this slot: the unsigned difference minus one is
        // negative only when the difference is zero.
        long difference = (timer.slot ^ (chunkStart + i)) & 0xFFFF_FFFFL;
        live |= (int) ((difference - 1) >>> 63) << i;
      }
    }
    return live;
  }

  @Override
  public String toString() {
    String slot = (coarse ? "coarse slot " : "slot ") + index;
    String name = level == null ? owner.nameOf(this) : slot + " of level " + level.index;
    return "Bucket{" + name + ", size=" + size + ", fill=" + fill + "}";
  }
}
