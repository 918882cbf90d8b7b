package io.github.timerqueue.conformance;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;

/**
 * Counts the bytes the calling thread allocates while it runs a piece of code, with HotSpot's
 * per-thread allocation counter ({@code com.sun.management.ThreadMXBean}). It counts bytes, not
 * time: a test that the hot paths of a strategy allocate nothing asserts on it; how fast they are is
 * measured with JMH, not here.
 *
 * <p>On a JVM without that counter, or with it disabled, {@link #bytesAllocatedBy} skips the
 * calling test (a JUnit assumption) rather than passing it.
 */
public final class AllocationCounter {

  /*
   * Reading the counter is a plain call that allocates nothing once the MXBean exists and its
   * method has run; the first reads are made here, in the class initializer, so that whatever the
   * counter's own first call allocates (class loading, the MXBean) is never charged to a workload.
   * bytesAllocatedBy still subtracts what an empty measurement reads, in case a JVM charges the
   * reading itself.
   */

  private static final com.sun.management.ThreadMXBean THREADS = threads();
  private static final long EMPTY_MEASUREMENT = emptyMeasurement();

  private AllocationCounter() {}

  /**
   * Returns whether this JVM counts the bytes each thread allocates, and counts them now.
   *
   * @return {@code true} if {@link #bytesAllocatedBy} measures; {@code false} if it skips
   */
  public static boolean isSupported() {
    return THREADS != null && THREADS.isThreadAllocatedMemoryEnabled();
  }

  /**
   * Runs {@code workload} once on the calling thread and returns the bytes that thread allocated
   * meanwhile. Allocations made by other threads are not counted. Exact on HotSpot; the cost is
   * that of the workload plus two reads of a thread-local counter.
   *
   * @param workload the code to measure; it runs exactly once
   * @return the bytes the calling thread allocated while {@code workload} ran, {@code >= 0}
   * @throws org.opentest4j.TestAbortedException if the JVM does not count per-thread allocation
   *     ({@link #isSupported()} is {@code false}), which skips the calling test
   * @throws NullPointerException if {@code workload} is null
   */
  public static long bytesAllocatedBy(Runnable workload) {
    assumeTrue(isSupported(), "this JVM counts no per-thread allocation");
    if (workload == null) {
      throw new NullPointerException("workload is null");
    }
    long before = THREADS.getCurrentThreadAllocatedBytes();
    workload.run();
    long after = THREADS.getCurrentThreadAllocatedBytes();
    return Math.max(0, after - before - EMPTY_MEASUREMENT);
  }

  private static com.sun.management.ThreadMXBean threads() {
    java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    if (!(threads instanceof com.sun.management.ThreadMXBean)) {
      return null;
    }
    com.sun.management.ThreadMXBean counter = (com.sun.management.ThreadMXBean) threads;
    return counter.isThreadAllocatedMemorySupported() ? counter : null;
  }

  private static long emptyMeasurement() {
    if (THREADS == null || !THREADS.isThreadAllocatedMemoryEnabled()) {
      return 0;
    }
    long fewest = Long.MAX_VALUE;
    for (int i = 0; i < 100; i++) {
      long before = THREADS.getCurrentThreadAllocatedBytes();
      fewest = Math.min(fewest, THREADS.getCurrentThreadAllocatedBytes() - before);
    }
    return fewest;
  }
}
