package io.github.timerqueue.bench.runtime;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * Lateness under load: schedules {@code timers} timers with delays uniform over 0 .. {@code
 * maxDelay} while {@code churners} threads schedule and cancel 30 s timeouts on the same timer,
 * and records each timer's actual run time minus its deadline. The deadline is read from {@code
 * System.nanoTime()} just before the timer is handed over, so the figure includes the scheduling
 * call itself.
 *
 * <p>By default the churners run as fast as they can: a saturating load, under which a timer
 * whose one thread applies every caller's requests may fall behind its producers, and on few cores
 * the churners also take the CPU from the timer thread. With a churn rate (operations per second,
 * all churners together) they work in small paced batches and sleep in between: a heavy but
 * sustainable load, under which lateness shows the timer's own precision.
 *
 * <pre>
 * java -cp timer-bench/target/benchmarks.jar io.github.timerqueue.bench.runtime.LatenessUnderLoad \
 *     [impl,...] [churn operations per second]
 * </pre>
 */
public final class LatenessUnderLoad {
  /** The figures: 10^5 timers, delays up to 100 ms, 4 churning threads, 10 s at most. */
  static final int TIMERS = 100_000;
  static final long MAX_DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
  static final int CHURNERS = 4;
  static final long TIME_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(10);
  private static final long SEED = 0x7173_7465_6c61_7465L;
  private static final long NOT_RUN = Long.MIN_VALUE;
  /** Operations a paced churner does between two sleeps. */
  private static final int CHURN_BATCH = 100;

  private LatenessUnderLoad() {}

  /**
   * Prints p50, p99, p99.9 and max lateness of each contender (all of them by default).
   *
   * @param args optionally a comma-separated list of contenders, then a churn rate in operations
   *     per second (default: as fast as they can)
   * @throws InterruptedException if interrupted while waiting for the timers
   */
  public static void main(String[] args) throws InterruptedException {
    List<String> impls = args.length > 0
        ? Arrays.asList(args[0].split(",")) : RuntimeContenders.names();
    long churnRate = args.length > 1 ? Long.parseLong(args[1]) : 0;
    for (String impl : impls) {
      System.out.println(describe(measureWarm(impl, churnRate)));
    }
  }

  /**
   * Runs the configuration twice on {@code impl} and returns the second: the runs share
   * one JVM, so without a first run the contender measured first would also pay for compiling the
   * code they share, and each contender for compiling its own.
   */
  static Lateness measureWarm(String impl, long churnRate) throws InterruptedException {
    measure(impl, TIMERS, MAX_DELAY_NANOS, CHURNERS, churnRate, TIME_LIMIT_NANOS);
    return measure(impl, TIMERS, MAX_DELAY_NANOS, CHURNERS, churnRate, TIME_LIMIT_NANOS);
  }

  static String describe(Lateness l) {
    return String.format("%-8s p50 %s  p99 %s  p99.9 %s  max %s  (%d of %d ran)", l.impl(),
        RuntimeCompare.millis(l.percentile(50)), RuntimeCompare.millis(l.percentile(99)),
        RuntimeCompare.millis(l.percentile(99.9)), RuntimeCompare.millis(l.max()), l.ran(),
        l.scheduled());
  }

  /**
   * Runs one lateness measurement on a fresh timer of {@code impl}, stopping it afterwards.
   * Timers that have not run by {@code timeLimitNanos} after the last was scheduled are left out
   * of the percentiles (the result says how many ran).
   *
   * @param churnRate schedule+cancel operations per second of all churners together; 0 for as
   *     fast as they can
   */
  static Lateness measure(String impl, int timers, long maxDelayNanos, int churners,
      long churnRate, long timeLimitNanos) throws InterruptedException {
    SplittableRandom random = new SplittableRandom(SEED);
    long[] delays = new long[timers];
    for (int i = 0; i < timers; i++) {
      delays[i] = random.nextLong(maxDelayNanos + 1);
    }
    long[] deadlines = new long[timers];
    long[] lateness = new long[timers];
    Arrays.fill(lateness, NOT_RUN);
    CountDownLatch allRan = new CountDownLatch(timers);
    List<Action> actions = new ArrayList<>(timers);
    for (int i = 0; i < timers; i++) {
      int timer = i;
      actions.add(new Action() {
        @Override
        public void run() {
          lateness[timer] = System.nanoTime() - deadlines[timer];
          allRan.countDown();
        }
      });
    }

    RuntimeTimer timer = RuntimeContenders.start(impl);
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> churnFailure = new AtomicReference<>();
    List<Thread> churn = new ArrayList<>();
    try {
      for (int c = 0; c < churners; c++) {
        Thread thread = new Thread(() -> {
          try {
            churn(timer, stop, churnRate == 0 ? 0 : CHURN_BATCH * churners * 1_000_000_000L
                / churnRate);
          } catch (Throwable t) {
            churnFailure.compareAndSet(null, t);
          }
        }, "churn-" + c);
        thread.setDaemon(true);
        thread.start();
        churn.add(thread);
      }
      Thread.sleep(100); // the churners are running before the first measured timer
      for (int i = 0; i < timers; i++) {
        deadlines[i] = System.nanoTime() + delays[i];
        timer.schedule(delays[i], actions.get(i));
      }
      allRan.await(timeLimitNanos, TimeUnit.NANOSECONDS);
    } finally {
      stop.set(true);
      for (Thread thread : churn) {
        thread.join();
      }
      timer.close();
    }
    if (churnFailure.get() != null) {
      throw new IllegalStateException(impl + ": a churning thread failed", churnFailure.get());
    }
    long[] ran = Arrays.stream(lateness).filter(l -> l != NOT_RUN).toArray();
    return new Lateness(impl, ran, timers);
  }

  /**
   * Schedules and cancels 30 s timeouts until {@code stop}: without a pause if {@code
   * batchIntervalNanos} is 0, else a batch of {@link #CHURN_BATCH} every {@code
   * batchIntervalNanos}, sleeping in between (a churner that falls behind does not sleep).
   */
  private static void churn(RuntimeTimer timer, AtomicBoolean stop, long batchIntervalNanos) {
    long nextBatch = System.nanoTime();
    while (!stop.get()) {
      for (int i = 0; i < CHURN_BATCH; i++) {
        timer.cancel(timer.schedule(RuntimeScheduleCancelBenchmark.TIMEOUT_NANOS, Action.NOTHING));
      }
      if (batchIntervalNanos > 0) {
        nextBatch += batchIntervalNanos;
        long wait = nextBatch - System.nanoTime();
        if (wait > 0) {
          LockSupport.parkNanos(wait);
        }
      }
    }
  }
}
