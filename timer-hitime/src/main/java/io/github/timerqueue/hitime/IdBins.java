package io.github.timerqueue.hitime;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * The low bins of a {@link HiTimeTimerQueue} that hold their timers by id: a table of the timers
 * by id, the ids that are free, and an {@link IdBin} for each of the {@value #BINS} lowest bins.
 * Which of these bins hold their timers by id, and when, is the queue's to decide (see its notes);
 * this class keeps their entries and ids consistent.
 *
 * <p>A timer held by id moves between these bins as two {@code int}s, with no reference stored and
 * its handle not touched; its {@link HiTimeTimer#slot} is {@link HiTimeTimer#ID_SLOT} with its id,
 * which stays the same from bin to bin until the timer leaves them. Cancelling it only clears its
 * entry in the table: its entry in the bin goes stale, and the id is freed when a pass over the bin
 * or a compaction meets it, so that no id is ever in two entries. A bin compacts when an append
 * finds its array full with at most a quarter of it live, or when a cancel leaves more than three
 * stale entries per timer plus {@value #SLACK}, and frees every id in it when its last timer is
 * cancelled: a bin never holds more than {@code 4 * size + }{@value #SLACK} entries.
 */
final class IdBins<T> {
  /** The bins that may hold their timers by id: those of ticks less than 2^12 ahead. */
  static final int BINS = 12;
  /** Stale entries a bin may hold beyond three per timer before a cancel compacts it. */
  static final int SLACK = 64;
  /** Entries of the first array a bin takes. */
  static final int INITIAL_ENTRIES = 8;
  /** Ids that the first table has room for. */
  static final int INITIAL_IDS = 64;

  private static final HiTimeTimer<?>[] NO_TIMERS = {};
  private static final int[] NO_IDS = {};

  /** The timer of each id in use; {@code null} for an id that is free or whose entry is stale. */
  HiTimeTimer<T>[] byId;
  // Package-private, like the table, so that HiTimeInvariants can check the ids.
  /** {@code freeIds[0]} to {@code freeIds[freeCount - 1]} are free ids below {@link #idsUsed}. */
  int[] freeIds;
  int freeCount;
  /** Every id from here up has never been used since the bins were created or cleared. */
  private int idsUsed;
  /** How many timers the bins hold. */
  private int held;
  final IdBin[] bins = new IdBin[BINS];
  private final EntryArrays entryArrays = new EntryArrays();

  IdBins() {
    for (int b = 0; b < BINS; b++) {
      bins[b] = new IdBin();
    }
    newTables();
  }

  /** Empty tables, which the first timer held by id grows: most queues never hold one. */
  @SuppressWarnings("unchecked")
  private void newTables() {
    byId = (HiTimeTimer<T>[]) NO_TIMERS;
    freeIds = NO_IDS;
    freeCount = 0;
    idsUsed = 0;
  }

  /** How many timers the bins hold. */
  int held() {
    return held;
  }

  /** How many ids are free or in use, for tests: the length of the table that they need. */
  int ids() {
    return idsUsed;
  }

  /** Files a timer that is in no bucket, due at {@code tick}, at the tail of bin {@code bin}. */
  void add(int bin, HiTimeTimer<T> timer, long tick) {
    int id;
    if (freeCount > 0) {
      id = freeIds[--freeCount];
    } else {
      id = idsUsed++;
      if (id == byId.length) {
        int length = Math.max(INITIAL_IDS, id * 2);
        byId = Arrays.copyOf(byId, length);
        freeIds = Arrays.copyOf(freeIds, length);
      }
    }
    byId[id] = timer;
    IdBin target = bins[bin];
    append(target, id, (int) tick);
    target.size++;
    held++;
    timer.slot = HiTimeTimer.ID_SLOT | id;
  }

  /**
   * Appends the entry of a timer held by id to {@code bin}, without counting it: a timer moving
   * down from a bin that the caller empties, which counts it in.
   */
  void append(IdBin bin, int id, int tickLow) {
    int tail = bin.tail;
    int[] entries = bin.entries;
    if (tail == entries.length) {
      if (tail != 0 && bin.size <= tail >>> 3) {
        // At most a quarter of the entries are live: the array has room once the stale go.
        compact(bin);
        tail = bin.tail;
      } else {
        int[] grown = entryArrays.take(Math.max(2 * INITIAL_ENTRIES, entries.length << 1));
        System.arraycopy(entries, 0, grown, 0, tail);
        if (entries.length != 0) {
          entryArrays.give(entries);
        }
        bin.entries = grown;
      }
      entries = bin.entries;
    }
    entries[tail] = id;
    entries[tail + 1] = tickLow;
    bin.tail = tail + 2;
  }

  /** Drops the stale entries of {@code bin}, freeing their ids; keeps the others in order. */
  private void compact(IdBin bin) {
    int[] entries = bin.entries;
    int packed = 0;
    for (int i = 0; i < bin.tail; i += 2) {
      int id = entries[i];
      if (byId[id] != null) {
        entries[packed] = id;
        entries[packed + 1] = entries[i + 1];
        packed += 2;
      } else {
        freeIds[freeCount++] = id;
      }
    }
    bin.tail = packed;
  }

  /**
   * Cancels the timer of {@code id}, which is in bin {@code bin}: its entry goes stale, and the
   * bin compacts if it holds too many stale entries. Returns whether the bin is now empty.
   */
  boolean cancel(int id, int bin) {
    byId[id] = null;
    held--;
    IdBin from = bins[bin];
    if (--from.size == 0) {
      // Every entry is stale now: compacting frees them all.
      compact(from);
      return true;
    }
    if ((from.tail >>> 1) - from.size > 3 * from.size + SLACK) {
      compact(from);
    }
    return false;
  }

  /** Frees the id of a stale entry that a pass over its bin met. */
  void freeStale(int id) {
    freeIds[freeCount++] = id;
  }

  /** Takes the timer of {@code id} out of the bins and frees the id: the timer is leaving them. */
  HiTimeTimer<T> take(int id) {
    HiTimeTimer<T> timer = byId[id];
    byId[id] = null;
    freeIds[freeCount++] = id;
    held--;
    return timer;
  }

  /**
   * Empties a bin whose entries the caller has taken, moved or freed. The bin keeps its array: its
   * next fill is likely to need about as much, and finds the array still in the cache.
   */
  static void emptied(IdBin bin) {
    bin.tail = 0;
    bin.size = 0;
  }

  /** The first timer of a bin that holds timers, left in place. */
  HiTimeTimer<T> first(int bin) {
    int[] entries = bins[bin].entries;
    for (int i = 0; ; i += 2) {
      HiTimeTimer<T> timer = byId[entries[i]];
      if (timer != null) {
        return timer;
      }
    }
  }

  /** Hands each timer of a bin, first to last, to {@code action}. */
  void forEach(int bin, Consumer<? super HiTimeTimer<T>> action) {
    IdBin from = bins[bin];
    for (int i = 0; i < from.tail; i += 2) {
      HiTimeTimer<T> timer = byId[from.entries[i]];
      if (timer != null) {
        action.accept(timer);
      }
    }
  }

  /** Takes every timer out, leaving each not pending, and frees every id. */
  void clear() {
    for (IdBin bin : bins) {
      for (int i = 0; i < bin.tail; i += 2) {
        HiTimeTimer<T> timer = byId[bin.entries[i]];
        if (timer != null) {
          timer.slot = HiTimeTimer.NOT_PENDING;
        }
      }
      emptied(bin);
    }
    Arrays.fill(byId, 0, idsUsed, null);
    freeCount = 0;
    idsUsed = 0;
    held = 0;
  }

  /**
   * Lets go of the arrays kept for reuse and of the arrays of the empty bins and, if the bins hold
   * no timer, of the grown tables of ids: a queue that is cleared or drained keeps no memory for
   * the timers it held.
   */
  void release() {
    entryArrays.clear();
    for (IdBin bin : bins) {
      if (bin.size == 0) {
        bin.entries = IdBin.NO_ENTRIES;
      }
    }
    if (held == 0) {
      newTables();
    }
  }
}
