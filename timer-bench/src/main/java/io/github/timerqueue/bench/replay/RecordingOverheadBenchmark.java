package io.github.timerqueue.bench.replay;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerHandle;
import io.github.timerqueue.TimerQueue;
import io.github.timerqueue.TimerQueues;
import io.github.timerqueue.trace.RecordingTimerQueue;
import io.github.timerqueue.trace.TraceHeader;
import io.github.timerqueue.trace.TraceRecorder;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What recording costs: the idle-timeout pattern (re-arm a random one of 10,000 timers to 30 s
 * ahead, the clock moving a millisecond every 64 operations) on a plain queue ({@code off}), on a
 * {@link RecordingTimerQueue} with the disabled recorder ({@code disabled}), and on one recording
 * into a binary trace file ({@code on}).
 *
 * <p>{@link #rearmAtAMillionPerSecond} offers the load: one operation every microsecond,
 * each started on that schedule (an untimed spin before it, {@link Pace}), so the writer thread
 * has the other core's share of a microsecond per operation, as in a service at that rate. Its
 * score is the owner thread's time per operation alone, sampled (every invocation is timed, so the
 * result also has its median). {@link #rearm} runs flat out: far more
 * than a million operations per second, more than the writer keeps up with on a loaded machine,
 * so the recorder drops (and counts) what it cannot buffer. With {@link RecorderProfiler} ({@code
 * -prof}) each {@code on} result also carries the writer thread's CPU time per operation, the
 * other half of what recording costs, and the operations dropped; {@link RecordingOverhead} runs
 * both and says whether recording stays within the 20%.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class RecordingOverheadBenchmark {
  private static final int TIMERS = 10_000;
  private static final long MILLISECOND = 1_000_000;
  private static final long IDLE_TIMEOUT = 30_000 * MILLISECOND;
  /** The offered load: one operation per microsecond, a million per second. */
  static final long PERIOD_NANOS = 1_000;

  /** The recorder of the trial running in this JVM, for {@link RecorderProfiler}; null if none. */
  static volatile TraceRecorder activeRecorder;

  /** {@code off}, {@code disabled} or {@code on}. */
  @Param({"off", "disabled", "on"})
  public String recording;

  /** The strategy under the recording queue. */
  @Param({"wheel"})
  public String strategy;

  private TimerQueue<Object> queue;
  private TraceRecorder recorder;
  private Path file;
  private TimerHandle<Object>[] handles;
  private int[] slots;
  private int next;
  private long now;
  private long operations;
  private final Consumer<TimerHandle<Object>> ignore = timer -> {};

  @Setup(Level.Trial)
  @SuppressWarnings("unchecked")
  public void setUp() throws IOException {
    TimerConfig config = TimerConfig.builder().resolution(MILLISECOND).build();
    TimerQueue<Object> plain = TimerQueues.create(strategy, config);
    switch (recording) {
      case "off" -> queue = plain;
      case "disabled" -> queue = RecordingTimerQueue.wrap(plain, TraceRecorder.disabled());
      case "on" -> {
        file = Files.createTempFile("recording-overhead", ".trace");
        recorder = TraceRecorder.start(file, TraceHeader.of(TimeUnit.NANOSECONDS, MILLISECOND, 0));
        activeRecorder = recorder;
        queue = RecordingTimerQueue.wrap(plain, recorder);
      }
      default -> throw new IllegalArgumentException(
          "recording must be off, disabled or on, but was " + recording);
    }
    handles = (TimerHandle<Object>[]) new TimerHandle<?>[TIMERS];
    for (int i = 0; i < TIMERS; i++) {
      handles[i] = queue.schedule(IDLE_TIMEOUT, this);
    }
    SplittableRandom random = new SplittableRandom(17);
    slots = new int[1 << 16];
    for (int i = 0; i < slots.length; i++) {
      slots[i] = random.nextInt(TIMERS);
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    if (recorder != null) {
      // The writer thread's CPU time is the other half of what recording costs: at a million
      // operations a second, every nanosecond per operation is a thousandth of a core.
      long writerNanos = writerCpuNanos();
      activeRecorder = null;
      recorder.close();
      long recorded = operations - recorder.dropped();
      System.out.printf("%n  recorder: %,d of %,d operations dropped, trace %,d bytes,"
              + " writer thread %.1f ns CPU per recorded operation%n",
          recorder.dropped(), operations, Files.size(file),
          recorded == 0 ? Double.NaN : (double) writerNanos / recorded);
      Files.delete(file);
    }
  }

  /** CPU time of the recorder's writer thread so far, or -1 if the JVM does not measure it. */
  static long writerCpuNanos() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    for (long id : threads.getAllThreadIds()) {
      ThreadInfo info = threads.getThreadInfo(id);
      if (info != null && info.getThreadName().equals("timerqueue-trace-writer")) {
        return threads.getThreadCpuTime(id);
      }
    }
    return -1;
  }

  /** Re-arms a random timer; every 64 operations the clock moves a millisecond. */
  @Benchmark
  public boolean rearm() {
    operations++;
    if ((++next & 63) == 0) {
      now += MILLISECOND;
      queue.advance(now, ignore);
    }
    return queue.reschedule(handles[slots[next & (slots.length - 1)]], now + IDLE_TIMEOUT);
  }

  /**
   * The same at a million operations per second: each invocation starts on a one-microsecond
   * schedule, waiting for its start outside the timed region. Every invocation is timed, so the
   * result has the distribution (its median is free of the preemptions that a shared machine adds
   * to the mean).
   */
  @Benchmark
  @BenchmarkMode(Mode.SampleTime)
  public boolean rearmAtAMillionPerSecond(Pace pace) {
    return rearm();
  }

  /**
   * The schedule of a paced run: an open loop of one operation per {@value #PERIOD_NANOS} ns. An
   * invocation whose start has come runs at once; one that falls more than {@value #MAX_LAG_NANOS}
   * ns behind (a pause, a preemption of the owner) restarts the schedule from now instead of
   * catching up in a burst, which would measure the burst and not the load.
   */
  @State(Scope.Thread)
  public static class Pace {
    static final long MAX_LAG_NANOS = 100_000;
    private long next;

    /** Starts the schedule. */
    @Setup(Level.Iteration)
    public void start() {
      next = System.nanoTime();
    }

    /** Waits, untimed, for this invocation's start. */
    @Setup(Level.Invocation)
    public void await() {
      long now = System.nanoTime();
      while (next - now > 0) {
        Thread.onSpinWait();
        now = System.nanoTime();
      }
      next = now - next > MAX_LAG_NANOS ? now + PERIOD_NANOS : next + PERIOD_NANOS;
    }
  }
}
