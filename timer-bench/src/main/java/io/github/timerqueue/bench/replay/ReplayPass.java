package io.github.timerqueue.bench.replay;

import io.github.timerqueue.trace.TraceOp;
import io.github.timerqueue.trace.TraceReader;
import java.io.IOException;
import java.util.function.LongConsumer;

/**
 * One replay of a trace, streamed, on one {@link ReplayTarget}, driven as an event loop drives its
 * timers: before each recorded advance, the loop sleeps for {@code nextExpiryDelay()} and wakes to
 * advance while that comes before the recorded time, then advances to the recorded time.
 *
 * <p>Trace ids map to slots; the slot of a timer that fires or is cancelled is reused, so memory is
 * bounded by the peak population, not the number of timers in the trace. A cancel of a timer that
 * is not pending (it fired, or was never there) does nothing, as on the real queue; a schedule of an
 * id that is pending moves it; a reschedule of one that is not re-arms it.
 *
 * <p>A timed pass measures the cost per record on chunks of records timed whole, and the cost of
 * each kind on a sample of chunks timed operation by operation (see {@link #run}); an advance's
 * time includes the wake-ups before it.
 */
final class ReplayPass implements ReplayTarget.Fired {
  static final int SCHEDULE = 0;
  static final int CANCEL = 1;
  static final int RESCHEDULE = 2;
  static final int ADVANCE = 3;
  static final int CLEAR = 4;
  static final int KINDS = 5;
  static final String[] KIND_NAMES = {"schedule", "cancel", "reschedule", "advance", "clear"};

  private final ReplayTarget target;
  private final long start;
  private final long resolution;
  private final boolean timed;
  private final LongIntMap slotOfId = new LongIntMap();
  private long[] idOfSlot = new long[1024];
  private long[] deadlineOfSlot = new long[1024];
  private int[] freeSlots = new int[1024];
  private int freeCount;
  private int slots;

  /** Ticks since the start: the replay's clock. */
  private long now;

  final long[] counts = new long[KINDS];
  long records;
  long wakeups;
  long idleWakeups;
  long fired;
  long cancelledPending;
  long movedPending;
  long latenessSum;
  long latenessMax;
  long peakPending;
  long peakRecord;
  long dropped;
  final DelayProfile delays = new DelayProfile();

  /** An untimed pass. */
  ReplayPass(ReplayTarget target, long start, long resolution) {
    this(target, start, resolution, null, null);
  }

  /**
   * A pass timed into {@code chunkTimes} and {@code operationTimes} (shared by the passes of one
   * contender), or untimed if they are null.
   *
   * @param resolution trace time units per replay tick
   */
  ReplayPass(ReplayTarget target, long start, long resolution, ChunkTimes chunkTimes,
      OperationTimes operationTimes) {
    this.target = target;
    this.start = start;
    this.resolution = resolution;
    this.timed = chunkTimes != null;
    this.chunkTimes = chunkTimes;
    this.operationTimes = operationTimes;
  }

  /** Records decoded ahead of each timed chunk, so that reading the trace is never timed. */
  private static final int CHUNK = 1024;
  /** One chunk in this many is timed operation by operation, for the split by kind. */
  private static final int SAMPLE_EVERY = 8;

  private final TraceOp[] chunkOps = new TraceOp[CHUNK];
  private final long[] chunkAt = new long[CHUNK];
  private final long[] chunkIds = new long[CHUNK];
  private final long[] chunkDelays = new long[CHUNK];
  private final long[] chunkRanges = new long[CHUNK];
  private long chunks;
  private boolean perOperation;

  /** Where a timed pass records its chunks' times and its single operations' times. */
  private final ChunkTimes chunkTimes;
  private final OperationTimes operationTimes;

  /**
   * Replays the records of {@code trace} up to record {@code stopAfter} (or to the end), calling
   * {@code progress} with the reader's byte offset every 2<sup>16</sup> records.
   *
   * <p>Records are decoded a chunk of {@value #CHUNK} at a time and the chunk is then applied.
   * In a timed pass, seven chunks in eight are timed whole (one {@code nanoTime} pair per chunk,
   * for the mean cost per record, see {@link ChunkTimes}), and the second of every eight operation
   * by operation, for the typical cost of each kind (see {@link OperationTimes}).
   */
  void run(TraceReader trace, long stopAfter, LongConsumer progress) throws IOException {
    int n;
    do {
      n = 0;
      TraceOp op = null;
      while (n < CHUNK && records + n < stopAfter && (op = trace.next()) != null) {
        chunkOps[n] = op;
        chunkAt[n] = trace.time();
        switch (op) {
          case SCHEDULE, RESCHEDULE -> {
            chunkIds[n] = trace.id();
            chunkDelays[n] = trace.delay();
            delays.add(trace.delay() / resolution);
          }
          case SCHEDULE_WITHIN -> {
            chunkIds[n] = trace.id();
            chunkDelays[n] = trace.delay();
            chunkRanges[n] = trace.range();
            delays.add(trace.delay() / resolution);
          }
          case CANCEL -> chunkIds[n] = trace.id();
          case DROPPED -> chunkDelays[n] = trace.count();
          default -> { }
        }
        n++;
      }
      if (n > 0) {
        perOperation = timed && chunks % SAMPLE_EVERY == 1;
        long t0 = System.nanoTime();
        apply(n);
        if (timed && !perOperation) {
          chunkTimes.record(chunks, System.nanoTime() - t0, n);
        }
        chunks++;
        if ((records >>> 16) != ((records + n) >>> 16)) {
          progress.accept(trace.offset());
        }
        records += n;
      }
    } while (n == CHUNK);
  }

  private void apply(int n) {
    for (int i = 0; i < n; i++) {
      long time = chunkAt[i];
      switch (chunkOps[i]) {
        case ADVANCE -> advance(tick(time));
        case SCHEDULE -> schedule(chunkIds[i], deadline(time, chunkDelays[i]));
        case SCHEDULE_WITHIN -> scheduleWithin(chunkIds[i], deadline(time, chunkDelays[i]),
            deadline(time, chunkDelays[i] + chunkRanges[i]));
        case CANCEL -> cancel(chunkIds[i]);
        case RESCHEDULE -> reschedule(chunkIds[i], deadline(time, chunkDelays[i]));
        case CLEAR -> clear();
        case DROPPED -> dropped += chunkDelays[i];
      }
      long size = target.size();
      if (size > peakPending) {
        peakPending = size;
        peakRecord = records + i + 1;
      }
    }
  }

  private long tick(long time) {
    return Long.divideUnsigned(time - start, resolution);
  }

  /** The deadline in ticks, rounded up: a replayed timer is never earlier than the recorded one. */
  private long deadline(long time, long delay) {
    return Long.divideUnsigned(time - start + delay + resolution - 1, resolution);
  }

  private void schedule(long id, long deadline) {
    int slot = slotOfId.get(id);
    long t0 = clock();
    if (slot == LongIntMap.ABSENT) {
      slot = allocate(id);
      target.schedule(slot, deadline);
    } else {
      target.reschedule(slot, deadline);
    }
    count(SCHEDULE, t0);
    deadlineOfSlot[slot] = deadline;
  }

  private void scheduleWithin(long id, long earliest, long latest) {
    int slot = slotOfId.get(id);
    long t0 = clock();
    if (slot == LongIntMap.ABSENT) {
      slot = allocate(id);
    } else {
      target.cancel(slot);
    }
    target.scheduleWithin(slot, earliest, latest);
    count(SCHEDULE, t0);
    deadlineOfSlot[slot] = earliest;
  }

  private void cancel(long id) {
    int slot = slotOfId.get(id);
    long t0 = clock();
    if (slot != LongIntMap.ABSENT) {
      target.cancel(slot);
    }
    count(CANCEL, t0);
    if (slot != LongIntMap.ABSENT) {
      cancelledPending++;
      release(slot);
    }
  }

  private void reschedule(long id, long deadline) {
    int slot = slotOfId.get(id);
    long t0 = clock();
    if (slot == LongIntMap.ABSENT) {
      slot = allocate(id);
      target.schedule(slot, deadline);
    } else {
      target.reschedule(slot, deadline);
      movedPending++;
    }
    count(RESCHEDULE, t0);
    deadlineOfSlot[slot] = deadline;
  }

  private void clear() {
    long t0 = clock();
    target.clear();
    count(CLEAR, t0);
    for (int slot = 0; slot < slots; slot++) {
      if (slotOfId.get(idOfSlot[slot]) == slot) {
        release(slot);
      }
    }
  }

  private void advance(long to) {
    long t0 = clock();
    while (true) {
      long delay = target.nextExpiryDelay();
      if (delay == Long.MAX_VALUE || now + delay - to >= 0) {
        break;
      }
      now += delay;
      wakeups++;
      int count = target.advance(now, this);
      if (count == 0) {
        idleWakeups++;
        if (delay == 0) {
          break; // a strategy that says "due now" and fires nothing: do not spin
        }
      }
    }
    now = to;
    target.advance(to, this);
    count(ADVANCE, t0);
  }

  @Override
  public void fired(int slot, long at) {
    fired++;
    long late = at - deadlineOfSlot[slot];
    latenessSum += late;
    latenessMax = Math.max(latenessMax, late);
    release(slot);
  }

  private int allocate(long id) {
    int slot;
    if (freeCount > 0) {
      slot = freeSlots[--freeCount];
    } else {
      slot = slots++;
      if (slot == idOfSlot.length) {
        idOfSlot = java.util.Arrays.copyOf(idOfSlot, slot * 2);
        deadlineOfSlot = java.util.Arrays.copyOf(deadlineOfSlot, slot * 2);
        freeSlots = java.util.Arrays.copyOf(freeSlots, slot * 2);
      }
    }
    idOfSlot[slot] = id;
    slotOfId.put(id, slot);
    return slot;
  }

  private void release(int slot) {
    slotOfId.remove(idOfSlot[slot]);
    freeSlots[freeCount++] = slot;
  }

  private long clock() {
    return perOperation ? System.nanoTime() : 0;
  }

  private void count(int kind, long t0) {
    counts[kind]++;
    if (perOperation) {
      operationTimes.add(kind, System.nanoTime() - t0);
    }
  }

  /** The replay's clock at the end, in ticks since the start. */
  long now() {
    return now;
  }
}
