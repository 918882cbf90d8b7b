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
 * The idle-connection pattern that only {@code TimerService} can express: each thread owns one
 * timeout and pushes it 30 s into the future on every operation, as a server does on each read.
 * The peers have no reschedule (their users cancel and schedule anew, which {@link
 * RuntimeScheduleCancelBenchmark} measures), so they are not run here.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class RuntimeRescheduleBenchmark {

  /** A registered strategy; a peer fails the set-up. */
  @Param({"heap", "hitime", "wheel", "cascade", "lawn"})
  public String impl;

  private RuntimeTimer timer;

  /** Starts the service's timer thread. */
  @Setup(Level.Trial)
  public void setUp() {
    if (!RuntimeContenders.isStrategy(impl)) {
      throw new UnsupportedOperationException(impl + " has no reschedule; not run");
    }
    timer = RuntimeContenders.start(impl);
  }

  /** Stops it. */
  @TearDown(Level.Trial)
  public void tearDown() {
    timer.close();
  }

  /** One thread's timeout, armed before measurement starts. */
  @State(Scope.Thread)
  public static class OwnTimeout {
    Object timeout;

    /** Arms the thread's timeout. */
    @Setup(Level.Trial)
    public void setUp(RuntimeRescheduleBenchmark benchmark) {
      timeout = benchmark.timer.schedule(
          RuntimeScheduleCancelBenchmark.TIMEOUT_NANOS, Action.NOTHING);
    }
  }

  /** Re-arms one timeout from one thread. */
  @Benchmark
  @Threads(1)
  public boolean oneThread(OwnTimeout own) {
    return reschedule(own);
  }

  /** Re-arms its own timeout from each of four threads. */
  @Benchmark
  @Threads(4)
  public boolean fourThreads(OwnTimeout own) {
    return reschedule(own);
  }

  private boolean reschedule(OwnTimeout own) {
    if (!timer.reschedule(own.timeout, RuntimeScheduleCancelBenchmark.TIMEOUT_NANOS)) {
      throw new IllegalStateException(impl + ": a 30 s timeout was not pending at reschedule");
    }
    return true;
  }
}
