package io.github.timerqueue.bench;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The floors under {@link ScheduleCancelBenchmark} and {@link RescheduleBenchmark}: per operation,
 * only the memory that a strategy with handle objects cannot avoid touching, with no timer
 * structure around it. Not a contender: it shows what this machine's caches and TLB charge for
 * those touches, as the pending timers go from 10^6 to 10^7, so that a strategy's growth over that
 * range can be told apart from the memory system's, and against a peer measured in the same run.
 *
 * <p>Each method takes the next slot of the same sequence {@link ScheduleCancelBenchmark} uses and
 * reads the caller's handle array there. {@link #handle} then reads the handle's owner and writes
 * its position, as every strategy's ownership check and bookkeeping do: two dependent misses once
 * the handles outgrow the cache. {@link #handleAndSlot} also writes the slot the handle's position
 * names, in an array of two slots per timer, as a cancel that clears its bucket slot does: a third
 * dependent miss. The handles are 32 bytes, as the strategies' are, allocated in order, as the
 * benchmark's fill allocates them.
 *
 * <p>{@link #reschedule} is the floor under {@link RescheduleBenchmark} for a strategy that files
 * a timer in a bucket slot and moves it at once: it appends the handle at the tail of a few buckets
 * that stay in cache, as if the new bucket's tail had been touched just before, and then, as {@link
 * #handleAndSlot} does, clears the slot the handle names. The handle goes on naming a slot in the large
 * array, so each reschedule clears a slot at random as a real one does. A real strategy also finds
 * its buckets, and its new bucket's tail may miss, so it can only cost more than this. As {@link
 * TimerBenchmark} does, the set-up collects garbage after filling, so the append pays G1's barrier
 * for a reference store into an old array, as a long-running program's does.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class MemoryFloorBenchmark {
  /** Number of handles, as the pending timers of {@link ScheduleCancelBenchmark}. */
  @Param({"1000000", "10000000"})
  int pending;

  private Handle[] handles;
  private Object[] bucketSlots;
  private final Object[] tails = new Object[TAILS];
  private int tail;
  private SlotSequence slots;
  private final Object owner = new Object();

  /** Slots at the tails of the buckets {@link #reschedule} appends to: 16 KB, which stay in the first-level cache. */
  private static final int TAILS = 4096;

  /** A handle's fields: header, owner, payload, deadline, position (32 bytes, compressed oops). */
  static final class Handle {
    Object owner;
    Object payload;
    long deadline;
    int position;
  }

  @Setup(Level.Trial)
  public void fill() {
    handles = new Handle[pending];
    bucketSlots = new Object[2 * pending];
    SplittableRandom random = new SplittableRandom(Scenario.SEED);
    for (int i = 0; i < pending; i++) {
      Handle handle = new Handle();
      handle.owner = owner;
      handle.position = random.nextInt(bucketSlots.length);
      bucketSlots[handle.position] = handle;
      handles[i] = handle;
    }
    slots = SlotSequence.uniform(Scenario.cycle(pending), pending, Scenario.SEED + 2);
    System.gc();
  }

  /** Reads a random handle's owner and writes its position. */
  @Benchmark
  public boolean handle() {
    Handle handle = handles[slots.next()];
    if (handle.owner != owner) {
      return false;
    }
    handle.position ^= 1;
    return true;
  }

  /** As {@link #handle}, then clears the bucket slot the handle's position names. */
  @Benchmark
  public boolean handleAndSlot() {
    Handle handle = handles[slots.next()];
    if (handle.owner != owner) {
      return false;
    }
    int position = handle.position ^ 1;
    handle.position = position;
    bucketSlots[position] = null;
    return true;
  }

  /**
   * As {@link #handleAndSlot}, but appends the handle at the next cached tail before it clears the
   * slot: the barrier's fence then waits for no store that missed.
   */
  @Benchmark
  public boolean reschedule() {
    Handle handle = handles[slots.next()];
    if (handle.owner != owner) {
      return false;
    }
    int position = handle.position ^ 1;
    handle.position = position;
    tails[tail] = handle;
    tail = (tail + 1) & (TAILS - 1);
    bucketSlots[position] = null;
    return true;
  }
}
