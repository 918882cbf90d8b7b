package io.github.timerqueue.bench;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerHandle;
import io.github.timerqueue.TimerQueue;
import io.github.timerqueue.TimerQueues;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * A full drain, as the cascade issue asks: {@code timers} timers spread uniformly over 24 hours at
 * a 1 ms resolution (times in nanoseconds), then an event loop that advances the clock by {@code
 * nextExpiryDelay()} until every timer has fired. One invocation is the whole drain; divide the
 * score by {@code timers} for the cost per timer. The queue is filled again before each invocation,
 * outside measurement.
 *
 * <p>Strategies only: Agrona's wheel has no next-deadline query, so it cannot run this loop; it
 * would poll each of the 86,400,000 ticks instead. Not part of {@link Compare}'s table; run it with
 * JMH's command line:
 *
 * <pre>
 * java -jar timer-bench/target/benchmarks.jar FullDrainBenchmark -p strategy=heap,hitime,wheel,cascade,lawn
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 3)
@Measurement(iterations = 5)
public class FullDrainBenchmark {
  private static final long RESOLUTION = TimeUnit.MILLISECONDS.toNanos(1);
  private static final long SPREAD = TimeUnit.HOURS.toNanos(24);

  /** A registered strategy. */
  @Param({"heap", "hitime", "wheel", "cascade", "lawn"})
  public String strategy;

  /** How many timers the drain fires. */
  @Param({"1000000"})
  public int timers;

  private long[] deadlines;
  private TimerQueue<Object> queue;
  private Consumer<TimerHandle<Object>> sink;
  private int fired;

  /** Draws the deadlines once, so every strategy and every invocation drains the same timers. */
  @Setup(Level.Trial)
  public void drawDeadlines(Blackhole blackhole) {
    SplittableRandom random = new SplittableRandom(Scenario.SEED);
    deadlines = new long[timers];
    for (int i = 0; i < timers; i++) {
      deadlines[i] = random.nextLong(1, SPREAD + 1);
    }
    sink = timer -> {
      fired++;
      blackhole.consume(timer);
    };
  }

  /** Fills a new queue with the timers, outside measurement. */
  @Setup(Level.Invocation)
  public void fill() {
    queue = TimerQueues.create(strategy, TimerConfig.builder().resolution(RESOLUTION).build());
    Object payload = new Object();
    for (long deadline : deadlines) {
      queue.schedule(deadline, payload);
    }
    fired = 0;
  }

  /** Advances by {@code nextExpiryDelay()} until the queue is empty; returns the steps taken. */
  @Benchmark
  public long drain() {
    long steps = 0;
    for (long delay = queue.nextExpiryDelay(); delay != Long.MAX_VALUE;
        delay = queue.nextExpiryDelay()) {
      queue.advance(queue.now() + delay, sink);
      steps++;
    }
    if (fired != timers) {
      throw new IllegalStateException(strategy + " fired " + fired + " of " + timers + " timers");
    }
    return steps;
  }
}
