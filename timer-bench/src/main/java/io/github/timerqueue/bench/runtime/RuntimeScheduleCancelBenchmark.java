package io.github.timerqueue.bench.runtime;

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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The timeout pattern on a real, shared timer: schedule a 30 s timeout and cancel it, from 1 and
 * from 4 threads at once. Nothing ever fires; the timer thread only applies (or, for the peers,
 * sweeps) the cancellations while the callers run. Each operation makes whatever the contender's
 * API makes per timeout (a handle; for Kafka also its task), so B/op compares the APIs as used.
 *
 * <p>The {@code impl} values below are only defaults for JMH's own command line: the launcher
 * ({@link RuntimeCompare}) passes every registered strategy and the peers.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class RuntimeScheduleCancelBenchmark {
  /** Long enough that no timeout of a run ever fires. */
  static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(30);

  /** A registered strategy (run through {@code TimerService}) or a peer. */
  @Param({"heap", "hitime", "wheel", "cascade", "lawn", "netty", "kafka", "stpe"})
  public String impl;

  private RuntimeTimer timer;

  /** Starts the contender's timer thread. */
  @Setup(Level.Trial)
  public void setUp() {
    timer = RuntimeContenders.start(impl);
  }

  /** Stops it. */
  @TearDown(Level.Trial)
  public void tearDown() {
    timer.close();
  }

  /** Schedules and cancels a timeout from one thread. */
  @Benchmark
  @Threads(1)
  public boolean oneThread() {
    return scheduleCancel();
  }

  /** Schedules and cancels a timeout from each of four threads. */
  @Benchmark
  @Threads(4)
  public boolean fourThreads() {
    return scheduleCancel();
  }

  private boolean scheduleCancel() {
    Object timeout = timer.schedule(TIMEOUT_NANOS, Action.NOTHING);
    if (!timer.cancel(timeout)) {
      // A 30 s timeout cannot have fired: a contender that loses it must fail, not look fast.
      throw new IllegalStateException(impl + ": a fresh timeout was not pending at cancel");
    }
    return true;
  }
}
