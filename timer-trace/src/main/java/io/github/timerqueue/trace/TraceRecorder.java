package io.github.timerqueue.trace;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Records timer operations into a trace without ever making the recording thread wait for I/O.
 *
 * <p>Each method ({@link #advance}, {@link #schedule}, ...) copies its primitive arguments into a
 * bounded ring buffer and returns: a few stores, no allocation, no lock, no system call. A writer
 * thread ({@code timerqueue-trace-writer}, a daemon) empties the buffer into a {@link TraceWriter},
 * waking every 1 to 8 milliseconds (less often while nothing is recorded).
 * If the writer falls behind (a slow disk, a stalled file system) and the buffer is full, the
 * operation is <em>dropped</em> and counted, never waited for; the next operation that finds room
 * first records a {@link TraceOp#DROPPED} record with the count, so the trace says where it is
 * incomplete and by how much. {@link #dropped()} gives the total.
 *
 * <p>A disabled recorder ({@link #disabled()}) does nothing at all: every method returns after one
 * test of a final field, so code can hold a recorder unconditionally and pay nothing when recording
 * is off.
 *
 * <p><b>Threading.</b> The recording methods are to be called by one thread at a time, the thread
 * that owns the timers (a {@code TimerQueue} is single-threaded anyway); if ownership moves between
 * threads, the hand-over must establish happens-before, as for the queue itself. {@link #dropped()},
 * {@link #isEnabled()} and {@link #close()} may be called from any thread.
 *
 * <p>Memory is the ring buffer, 32 bytes per operation of capacity, and the writer's block buffer;
 * it does not grow with the length of the trace.
 */
public final class TraceRecorder implements Closeable {
  /*
   * A single-producer, single-consumer ring of 4 longs per entry: op, id, and two values (delay and
   * range, the time of an advance, or a drop count). The producer publishes its head with a release
   * store, the writer its tail likewise; each reads the other's index with an acquire load, the
   * producer only when its cached tail says the ring is full. The two indices live 128 bytes apart
   * in one array, so that the producer's and the writer's stores never share a cache line (nor the
   * adjacent line the prefetcher pairs with it).
   *
   * A drop is remembered in pendingDrops and written as a DROPPED entry just before the next entry
   * that fits; both need room, so a drop record is never itself dropped without being counted.
   */
  private static final int DEFAULT_CAPACITY = 1 << 16;
  private static final int HEAD = 16;
  private static final int TAIL = 32;
  /** The writer's first sleep when the buffer is empty; it doubles while the buffer stays so. */
  private static final long MIN_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
  /**
   * The writer's longest sleep: at a million operations per second the default buffer fills in
   * 65 ms, so an 8 ms sleep leaves room for stalls, and a quiet program's recorder wakes 125 times a
   * second rather than 1,000.
   */
  private static final long MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(8);
  private static final VarHandle INDEX = MethodHandles.arrayElementVarHandle(long[].class);
  private static final TraceRecorder DISABLED = new TraceRecorder();

  private final long[] ring;
  private final int mask;
  private final long[] indices;
  private final TraceWriter writer;
  private final Thread thread;

  // Producer state.
  private long head;
  private long tailCache;
  private long pendingDrops;
  private volatile long dropped;

  // Writer-thread state, and what close() reads after joining it.
  private volatile boolean closing;
  private IOException failure;
  private boolean closed;

  private TraceRecorder() {
    ring = null;
    mask = 0;
    indices = null;
    writer = null;
    thread = null;
  }

  private TraceRecorder(TraceWriter writer, int capacity) {
    this.writer = writer;
    this.ring = new long[capacity * 4];
    this.mask = capacity - 1;
    this.indices = new long[TAIL + 16];
    this.thread = new Thread(this::drain, "timerqueue-trace-writer");
    thread.setDaemon(true);
    thread.start();
  }

  /**
   * Returns the recorder that records nothing: every method returns at once, {@link #dropped()} is
   * 0 and {@link #close()} does nothing.
   *
   * @return the disabled recorder, a shared instance
   */
  public static TraceRecorder disabled() {
    return DISABLED;
  }

  /**
   * Starts recording into a new binary trace file, with a buffer of 65,536 operations (2 MB): at a
   * million operations per second, 65 ms of I/O stall before anything is dropped.
   *
   * @param file the trace file to create or replace
   * @param header the clock of the trace: the recorded queue's time unit, resolution and start
   * @return a running recorder; {@link #close()} it to finish the trace
   * @throws IOException if the file cannot be created
   */
  public static TraceRecorder start(Path file, TraceHeader header) throws IOException {
    return start(TraceWriter.binary(
        new BufferedOutputStream(Files.newOutputStream(file), 1 << 16), header), DEFAULT_CAPACITY);
  }

  /**
   * Starts recording into {@code writer} through a buffer of {@code capacity} operations.
   *
   * @param writer where the writer thread writes the trace; closed by {@link #close()}
   * @param capacity how many operations the buffer holds: a power of two from 2 to 2<sup>24</sup>
   * @return a running recorder
   * @throws IllegalArgumentException if {@code capacity} is out of range
   */
  public static TraceRecorder start(TraceWriter writer, int capacity) {
    Objects.requireNonNull(writer, "writer");
    if (capacity < 2 || capacity > 1 << 24 || Integer.bitCount(capacity) != 1) {
      throw new IllegalArgumentException(
          "capacity must be a power of two from 2 to 2^24, but was " + capacity);
    }
    return new TraceRecorder(writer, capacity);
  }

  /**
   * Returns whether this recorder records (it is not {@link #disabled()}).
   *
   * @return {@code true} if operations are recorded
   */
  public boolean isEnabled() {
    return ring != null;
  }

  /**
   * Records that the clock moved to {@code now}. Never blocks; allocates nothing.
   *
   * @param now the new time, not earlier than the last one recorded
   */
  public void advance(long now) {
    put(Binary.ADVANCE, 0, now, 0);
  }

  /**
   * Records that timer {@code id} was scheduled {@code delay} after the clock. Never blocks;
   * allocates nothing.
   *
   * @param id the timer's identity
   * @param delay the distance from the clock to the deadline
   */
  public void schedule(long id, long delay) {
    put(Binary.SCHEDULE, id, delay, 0);
  }

  /**
   * Records that timer {@code id} was scheduled between {@code delay} and {@code delay + range}
   * after the clock. Never blocks; allocates nothing.
   *
   * @param id the timer's identity
   * @param delay the distance from the clock to the earliest deadline
   * @param range the width of the range, at least 0
   */
  public void scheduleWithin(long id, long delay, long range) {
    put(Binary.SCHEDULE_WITHIN, id, delay, range);
  }

  /**
   * Records that timer {@code id} was cancelled. Never blocks; allocates nothing.
   *
   * @param id the timer's identity
   */
  public void cancel(long id) {
    put(Binary.CANCEL, id, 0, 0);
  }

  /**
   * Records that timer {@code id} was moved or re-armed to {@code delay} after the clock. Never
   * blocks; allocates nothing.
   *
   * @param id the timer's identity
   * @param delay the distance from the clock to the new deadline
   */
  public void reschedule(long id, long delay) {
    put(Binary.RESCHEDULE, id, delay, 0);
  }

  /** Records that every pending timer was removed. Never blocks; allocates nothing. */
  public void clear() {
    put(Binary.CLEAR, 0, 0, 0);
  }

  /**
   * Returns how many operations were dropped because the buffer was full (or arrived after
   * {@link #close()}). Exact once {@code close} has returned; while recording, a recent value.
   *
   * @return the number of dropped operations
   */
  public long dropped() {
    return dropped;
  }

  /** Whether the writer thread has taken every entry recorded so far; for the recording thread. */
  boolean drained() {
    return ring == null || (long) INDEX.getAcquire(indices, TAIL) == head;
  }

  private void put(int op, long id, long a, long b) {
    if (ring == null) {
      return;
    }
    long needed = pendingDrops == 0 ? 1 : 2;
    int capacity = mask + 1;
    if (head + needed - tailCache > capacity) {
      tailCache = (long) INDEX.getAcquire(indices, TAIL);
      if (head + needed - tailCache > capacity) {
        pendingDrops++;
        dropped++; // only this thread writes it; the volatile store is for readers elsewhere
        return;
      }
    }
    if (pendingDrops != 0) {
      write(head++, Binary.DROPPED, 0, pendingDrops, 0);
      pendingDrops = 0;
    }
    write(head++, op, id, a, b);
    INDEX.setRelease(indices, HEAD, head);
  }

  private void write(long index, int op, long id, long a, long b) {
    int at = (int) (index & mask) << 2;
    ring[at] = op;
    ring[at + 1] = id;
    ring[at + 2] = a;
    ring[at + 3] = b;
  }

  /** The writer thread: empties the ring into the writer until closed and empty. */
  private void drain() {
    long tail = 0;
    long park = MIN_PARK_NANOS;
    while (true) {
      long available = (long) INDEX.getAcquire(indices, HEAD);
      if (available == tail) {
        if (closing) {
          available = (long) INDEX.getAcquire(indices, HEAD);
          if (available == tail) {
            break;
          }
        } else {
          LockSupport.parkNanos(this, park);
          park = Math.min(park * 2, MAX_PARK_NANOS);
          continue;
        }
      }
      park = MIN_PARK_NANOS;
      for (; tail != available; tail++) {
        int at = (int) (tail & mask) << 2;
        if (failure == null) {
          try {
            writeEntry((int) ring[at], ring[at + 1], ring[at + 2], ring[at + 3]);
          } catch (IOException | RuntimeException e) {
            failure = e instanceof IOException io ? io : new IOException(e);
          }
        }
      }
      INDEX.setRelease(indices, TAIL, tail);
    }
  }

  private void writeEntry(int op, long id, long a, long b) throws IOException {
    switch (op) {
      case Binary.ADVANCE -> writer.advance(a);
      case Binary.SCHEDULE -> writer.schedule(id, a);
      case Binary.SCHEDULE_WITHIN -> writer.scheduleWithin(id, a, b);
      case Binary.CANCEL -> writer.cancel(id);
      case Binary.RESCHEDULE -> writer.reschedule(id, a);
      case Binary.CLEAR -> writer.clear();
      case Binary.DROPPED -> writer.dropped(a);
      default -> throw new AssertionError(op);
    }
  }

  /**
   * Writes what the buffer still holds, records any drops not yet recorded, writes the end record
   * and closes the trace; waits for the writer thread to finish. Call it from the recording thread
   * (or after the recording thread has stopped recording). Further calls do nothing.
   *
   * @throws IOException if writing the trace failed at any point; the trace is then incomplete
   *     and reads as truncated or corrupt
   */
  @Override
  public synchronized void close() throws IOException {
    if (ring == null || closed) {
      return;
    }
    closed = true;
    closing = true;
    LockSupport.unpark(thread);
    boolean interrupted = false;
    while (true) {
      try {
        thread.join();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    try {
      if (failure == null && pendingDrops != 0) {
        writer.dropped(pendingDrops);
      }
      pendingDrops = 0;
      writer.close();
    } catch (IOException | RuntimeException e) {
      if (failure == null) {
        failure = e instanceof IOException io ? io : new IOException(e);
      }
    }
    if (failure != null) {
      throw new IOException("writing the timer trace failed; the trace is incomplete", failure);
    }
  }
}
