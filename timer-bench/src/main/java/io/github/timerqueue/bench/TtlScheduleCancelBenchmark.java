package io.github.timerqueue.bench;

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
import org.openjdk.jmh.annotations.Warmup;

/**
 * Schedule+cancel when every delay is one of a few distinct TTLs (the lawn issue's case: 1 to 16
 * TTLs at 1,000,000 pending timers): as {@link ScheduleCancelBenchmark}, but each new delay is drawn
 * among {@code ttls} whole-resolution TTLs spread evenly over the same wide range. Not part of
 * {@link Compare}'s table; run it with JMH's command line:
 *
 * <pre>
 * java -jar timer-bench/target/benchmarks.jar TtlScheduleCancelBenchmark -prof gc
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g", AgronaWheels.INLINE_SCHEDULE_TIMER})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class TtlScheduleCancelBenchmark {

  /** A registered strategy or {@value Contenders#AGRONA}. */
  @Param({"heap", "hitime", "wheel", "cascade", "lawn", "agrona"})
  public String strategy;

  /** The number of distinct TTLs. */
  @Param({"1", "16"})
  public int ttls;

  /** The number of pending timers, steady through the run. */
  @Param({"1000000"})
  public int pending;

  private Timers timers;
  private SlotSequence slots;
  private DelaySequence delays;
  private long now;

  /**
   * Creates the contender and fills it, then moves the clock one resolution (nothing fires) and
   * collects garbage, so that the timers are measured tenured, as in {@link TimerBenchmark#setUp}.
   */
  @Setup(Level.Trial)
  public void setUp() {
    AgronaWheels.requireInliningOption(strategy);
    timers = Contenders.create(strategy, pending);
    int cycle = Scenario.cycle(pending);
    delays = DelaySequence.among(cycle + 1, ttlChoices(ttls), Scenario.SEED + 7);
    slots = SlotSequence.uniform(cycle, pending, Scenario.SEED + 8);
    long filledAt = Scenario.START_TIME + Scenario.RESOLUTION;
    for (int slot = 0; slot < pending; slot++) {
      timers.schedule(slot, filledAt + delays.next());
    }
    if (timers.advance(filledAt, delays) != 0) {
      throw new IllegalStateException(strategy + " fired timers that were not due");
    }
    now = filledAt;
    System.gc();
  }

  /** The {@code ttls} distinct TTLs of this workload: whole resolutions spread over the range. */
  static long[] ttlChoices(int ttls) {
    long spacing = (Scenario.WIDE_RANGE / Scenario.RESOLUTION) / ttls;
    long[] choices = new long[ttls];
    for (int i = 0; i < ttls; i++) {
      choices[i] = (i + 1) * spacing * Scenario.RESOLUTION;
    }
    return choices;
  }

  /** Checks that no timer was lost. */
  @TearDown(Level.Trial)
  public void checkPopulation() {
    if (timers.size() != pending) {
      throw new IllegalStateException(
          strategy + " holds " + timers.size() + " timers, but " + pending + " are pending");
    }
  }

  /** Cancels a random pending timer and schedules it again; returns whether it was pending. */
  @Benchmark
  public boolean scheduleCancel() {
    int slot = slots.next();
    boolean wasPending = timers.cancel(slot);
    timers.schedule(slot, now + delays.next());
    return wasPending;
  }
}
