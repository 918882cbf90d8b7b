package io.github.timerqueue.bench;

import java.util.concurrent.TimeUnit;
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
 * What every workload shares: a contender, chosen by the {@code strategy} parameter, holding
 * {@code pending} timers that are put in place before measurement starts; a clock; and a check,
 * before and after the run, that the population is what the workload says it is, so that a
 * workload or contender that loses timers fails instead of looking fast.
 *
 * <p>The {@code strategy} values below are only defaults for JMH's own command line: the launcher
 * ({@link Compare}) passes the contenders found at run time. A name that is not registered fails
 * the set-up with a message that lists the contenders there are.
 *
 * <p>The annotations' iteration counts are for running the jar with JMH's own command line; the
 * launcher sets its own.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g", AgronaWheels.INLINE_SCHEDULE_TIMER})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public abstract class TimerBenchmark {

  /** The contender: a registered strategy or {@value Contenders#AGRONA}. */
  @Param({"heap", "hitime", "wheel", "cascade", "lawn", "agrona"})
  public String strategy;

  /** The number of pending timers, steady through the run. */
  @Param({"1000", "100000", "1000000"})
  public int pending;

  Timers timers;
  long now;

  /**
   * Creates the contender, puts the workload's timers in place, and collects garbage, so that the
   * contender is measured with its timers and structure in the old generation, as a long-running
   * program's timers are once they have waited through a few young collections. A strategy that
   * stores references into its timers or arrays pays for each store into an old object with G1's
   * post-write barrier, a fence and, for a card not yet dirty, a trip to the refinement queue,
   * where a store into a young object pays almost nothing: without the collection, what happens to
   * be promoted during the fill would decide what a workload measures.
   */
  @Setup(Level.Trial)
  public void setUp() {
    Workload workload = workload();
    if (!workload.runsOn(strategy)) {
      throw new UnsupportedOperationException(
          workload.label() + " on " + strategy + ": " + workload.agronaNote());
    }
    AgronaWheels.requireInliningOption(strategy);
    timers = Contenders.create(strategy, pending);
    now = Scenario.START_TIME;
    fill();
    checkPopulation("after filling");
    System.gc();
  }

  /** Checks that the workload kept its population. */
  @TearDown(Level.Trial)
  public void tearDown() {
    checkPopulation("at the end of the run");
  }

  /** The workload this benchmark measures. */
  abstract Workload workload();

  /** Puts {@link #pending} timers in place; runs once, outside measurement. */
  abstract void fill();

  /**
   * Fills with timers whose delays come from {@code delays}, then moves the clock one resolution,
   * so that every contender is measured in its working shape: a structure that builds its levels
   * as the clock moves (cascade, like ccan's) would otherwise hold everything in its far list. The
   * delays are counted from the clock after that move, so nothing fires.
   */
  final void fillAtOnce(DelaySequence delays) {
    long filledAt = now + Scenario.RESOLUTION;
    for (int slot = 0; slot < pending; slot++) {
      timers.schedule(slot, filledAt + delays.next());
    }
    if (timers.advance(filledAt, delays) != 0) {
      throw new IllegalStateException(strategy + " fired timers that were not due");
    }
    now = filledAt;
  }

  private void checkPopulation(String when) {
    if (timers != null && timers.size() != pending) {
      throw new IllegalStateException(
          strategy + " holds " + timers.size() + " timers " + when + " of " + workload().label()
              + ", but the workload keeps " + pending + " pending");
    }
  }
}
