package io.github.timerqueue.bench.runtime;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * Lateness under a flood: {@link #PRODUCERS} threads schedule zero-delay timeouts on one timer as
 * fast as they can (far more than one timer thread can fire on two cores) while a probe thread
 * keeps one 1 ms timer armed, re-arming it as soon as it has run, and records how late each probe
 * ran. A timer that lets its backlog of due timers grow without bound makes the probe wait behind
 * all of it; one that holds its producers back keeps the probe's lateness bounded. Also records
 * how many timeouts the producers got scheduled per second, and the widest gap seen between
 * timeouts scheduled (the call returned) and timeouts run: the backlog, as a caller sees it.
 *
 * <pre>
 * java -cp timer-bench/target/benchmarks.jar io.github.timerqueue.bench.runtime.Flood [impl,...]
 * </pre>
 */
public final class Flood {
  /** The figures: 16 producers, a 1 ms probe. */
  static final int PRODUCERS = 16;
  static final long PROBE_DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
  static final long WARM_UP_NANOS = TimeUnit.MILLISECONDS.toNanos(1000);
  static final long MEASURE_NANOS = TimeUnit.MILLISECONDS.toNanos(3000);
  /** How long the timer is given to run what was scheduled, after the producers stop. */
  static final long DRAIN_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(20);

  /**
   * One flood: the probe's lateness, the producers' rate and the widest backlog seen.
   *
   * @param drained whether every scheduled timeout had run within the drain limit
   */
  record Result(String impl, Lateness probe, double scheduledPerSecond, long widestBacklog,
      boolean drained) {}

  private Flood() {}

  /**
   * Prints the flood figures of each contender (all of them by default).
   *
   * @param args optionally a comma-separated list of contenders
   * @throws InterruptedException if interrupted while waiting for the threads
   */
  public static void main(String[] args) throws InterruptedException {
    List<String> impls = args.length > 0
        ? Arrays.asList(args[0].split(",")) : RuntimeContenders.names();
    for (String impl : impls) {
      System.out.println(describe(measure(impl)));
    }
  }

  static String describe(Result r) {
    Lateness l = r.probe();
    return String.format("%-8s flood: probe p50 %s  p99 %s  max %s (%d probes), %s scheduled/s,"
            + " widest backlog %,d%s", r.impl(),
        RuntimeCompare.millis(l.percentile(50)), RuntimeCompare.millis(l.percentile(99)),
        RuntimeCompare.millis(l.max()), l.ran(), RuntimeCompare.operations(r.scheduledPerSecond()),
        r.widestBacklog(), r.drained() ? "" : " (not drained in 20 s)");
  }

  /**
   * Floods a fresh timer of {@code impl} for a warm-up, then measures for {@link #MEASURE_NANOS};
   * stops it afterwards.
   */
  static Result measure(String impl) throws InterruptedException {
    RuntimeTimer timer = RuntimeContenders.start(impl);
    LongAdder scheduled = new LongAdder();
    LongAdder ran = new LongAdder();
    Action count = new Action() {
      @Override
      public void run() {
        ran.increment();
      }
    };
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> producers = new ArrayList<>();
    Probe probe = new Probe(timer);
    long widest = 0;
    long measuredScheduled;
    long measuredNanos;
    boolean drained;
    try {
      for (int p = 0; p < PRODUCERS; p++) {
        Thread thread = new Thread(() -> {
          try {
            while (!stop.get()) {
              timer.schedule(0, count);
              scheduled.increment();
            }
          } catch (Throwable t) {
            failure.compareAndSet(null, t);
          }
        }, "flood-" + p);
        thread.setDaemon(true);
        thread.start();
        producers.add(thread);
      }
      Thread.sleep(TimeUnit.NANOSECONDS.toMillis(WARM_UP_NANOS));
      probe.start();
      long start = System.nanoTime();
      long scheduledAtStart = scheduled.sum();
      while (System.nanoTime() - start < MEASURE_NANOS) {
        // Scheduled first, then run: never more apart than the backlog really was.
        long returned = scheduled.sum();
        widest = Math.max(widest, returned - ran.sum());
        Thread.sleep(1);
      }
      measuredNanos = System.nanoTime() - start;
      measuredScheduled = scheduled.sum() - scheduledAtStart;
      probe.stop();
      stop.set(true);
      for (Thread thread : producers) {
        thread.join();
      }
      long giveUp = System.nanoTime() + DRAIN_LIMIT_NANOS;
      while (ran.sum() < scheduled.sum() && System.nanoTime() - giveUp < 0) {
        Thread.sleep(1);
      }
      drained = ran.sum() >= scheduled.sum();
    } finally {
      stop.set(true);
      probe.stop();
      timer.close();
    }
    if (failure.get() != null) {
      throw new IllegalStateException(impl + ": a producer failed", failure.get());
    }
    return new Result(impl, probe.lateness(impl), measuredScheduled * 1e9 / measuredNanos, widest,
        drained);
  }

  /**
   * Keeps one timer {@link #PROBE_DELAY_NANOS} ahead armed: each run records its lateness and the
   * probe's own thread arms the next. The deadline is read just before the call, as in {@link
   * LatenessUnderLoad}, so a wait for back-pressure in the call counts as lateness too.
   */
  private static final class Probe {
    private final RuntimeTimer timer;
    private final long[] lateness = new long[1 << 16];
    private volatile int count;
    private volatile boolean stopped;
    private Thread thread;

    Probe(RuntimeTimer timer) {
      this.timer = timer;
    }

    void start() {
      thread = new Thread(this::run, "flood-probe");
      thread.setDaemon(true);
      thread.start();
    }

    private void run() {
      Object ranSignal = new Object();
      while (!stopped && count < lateness.length) {
        long[] deadline = new long[1];
        AtomicBoolean done = new AtomicBoolean();
        Action action = new Action() {
          @Override
          public void run() {
            lateness[count] = System.nanoTime() - deadline[0];
            count = count + 1; // only this timer's task writes; the probe waits for it
            done.set(true);
            synchronized (ranSignal) {
              ranSignal.notifyAll();
            }
          }
        };
        deadline[0] = System.nanoTime() + PROBE_DELAY_NANOS;
        timer.schedule(PROBE_DELAY_NANOS, action);
        synchronized (ranSignal) {
          while (!done.get() && !stopped) {
            try {
              ranSignal.wait(10);
            } catch (InterruptedException e) {
              return;
            }
          }
        }
      }
    }

    void stop() throws InterruptedException {
      stopped = true;
      if (thread != null) {
        thread.join();
      }
    }

    Lateness lateness(String impl) {
      return new Lateness(impl, Arrays.copyOf(lateness, count), count);
    }
  }
}
