package io.github.timerqueue.bench.replay;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerHandle;
import io.github.timerqueue.TimerQueue;
import io.github.timerqueue.TimerQueues;
import io.github.timerqueue.trace.TraceHeader;
import io.github.timerqueue.trace.TraceWriter;
import java.io.IOException;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Generates traces of the common {@linkplain TraceShape shapes} of timer load, as a program on an
 * event loop would record them: deterministic for a seed, streamed to a {@link TraceWriter}, with
 * memory bounded by the population of timers, not the length of the trace.
 *
 * <p>Traces are in nanoseconds at a resolution of a millisecond, starting at 0. The generator runs
 * the program against a model: the recorded timers live in a {@code heap} queue (exact to the
 * millisecond) that fires them, and the program's own future actions (a response arriving, a packet,
 * the next request) in a second one. The loop wakes at the earlier of the two, records the advance,
 * fires what is due (handlers may re-arm), then runs the actions due.
 */
public final class TraceGenerator {
  /** One millisecond: the resolution of generated traces, in their unit (nanoseconds). */
  public static final long MILLISECOND = 1_000_000;

  /** The header of every generated trace. */
  public static final TraceHeader HEADER = TraceHeader.of(TimeUnit.NANOSECONDS, MILLISECOND, 0);

  private final TraceWriter out;
  private final SplittableRandom random;
  private final TimerQueue<Timer> timers = TimerQueues.create("heap", TimerConfig.defaults());
  private final TimerQueue<IoAction> actions = TimerQueues.create("heap", TimerConfig.defaults());
  private long nextId;
  private long now;

  private TraceGenerator(TraceWriter out, long seed) {
    this.out = out;
    this.random = new SplittableRandom(seed);
  }

  /**
   * Writes a trace of {@code shape} with at least {@code operations} records (it stops after the
   * loop turn that reaches the count) to {@code out}, and closes it. The same seed gives the same
   * trace.
   *
   * @param shape the shape of the load
   * @param seed the seed of every random draw
   * @param operations how many records to write, at least 1
   * @param out where the trace goes; its header should be {@link #HEADER}
   * @throws IOException if writing fails
   */
  public static void generate(TraceShape shape, long seed, long operations, TraceWriter out)
      throws IOException {
    if (operations < 1) {
      throw new IllegalArgumentException("operations must be at least 1, but was " + operations);
    }
    try (out) {
      new TraceGenerator(out, seed).run(shape, operations);
    } catch (WriteFailed e) {
      throw (IOException) e.getCause();
    }
  }

  /**
   * A recorded timer: its identity, its handle in the model, what happens when it fires, and (for
   * retries) how many attempts it has fired for.
   */
  private static final class Timer {
    final long id;
    final OnFire onFire;
    TimerHandle<Timer> handle;
    int attempt;

    Timer(long id, OnFire onFire) {
      this.id = id;
      this.onFire = onFire;
    }
  }

  @FunctionalInterface
  private interface OnFire {
    void fired(Timer timer) throws IOException;
  }

  private void run(TraceShape shape, long operations) throws IOException {
    switch (shape) {
      case RPC -> every(1, this::rpcRequests);
      case IDLE -> idle();
      case CACHE -> every(1, this::cacheInsert);
      case RETRY -> every(1, this::retryStarts);
      case PERIODIC -> periodic();
    }
    while (out.records() < operations) {
      long wait = Math.min(timers.nextExpiryDelay(), actions.nextExpiryDelay());
      if (wait == Long.MAX_VALUE) {
        return;
      }
      now += Math.max(wait, 1);
      out.advance(now * MILLISECOND);
      timers.advance(now, this::fire);
      actions.advance(now, this::act);
    }
  }

  private void fire(TimerHandle<Timer> handle) {
    try {
      handle.payload().onFire.fired(handle.payload());
    } catch (IOException e) {
      throw new WriteFailed(e);
    }
  }

  private void act(TimerHandle<IoAction> action) {
    try {
      action.payload().run();
    } catch (IOException e) {
      throw new WriteFailed(e);
    }
  }

  /** Runs {@code body} now and every {@code period} milliseconds. */
  private void every(long period, IoAction body) {
    later(0, new IoAction() {
      @Override
      public void run() throws IOException {
        body.run();
        later(period, this);
      }
    });
  }

  private void later(long delay, IoAction action) {
    actions.schedule(now + delay, action);
  }

  /** Something the program does at a later time. */
  @FunctionalInterface
  private interface IoAction {
    void run() throws IOException;
  }

  /** Carries a write failure out of a handler; unwrapped by {@link #generate}. */
  private static final class WriteFailed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    WriteFailed(IOException cause) {
      super(cause);
    }
  }

  private Timer schedule(long delay, OnFire onFire) throws IOException {
    Timer timer = new Timer(nextId++, onFire);
    out.schedule(timer.id, delay * MILLISECOND);
    timer.handle = timers.schedule(now + delay, timer);
    return timer;
  }

  private void reschedule(Timer timer, long delay) throws IOException {
    out.reschedule(timer.id, delay * MILLISECOND);
    timers.reschedule(timer.handle, now + delay);
  }

  private void cancel(Timer timer) throws IOException {
    out.cancel(timer.id);
    timers.cancel(timer.handle);
  }

  private void cancelLater(Timer timer, long delay) {
    later(delay, () -> {
      if (timer.handle.isPending()) {
        cancel(timer);
      }
    });
  }

  private static final OnFire EXPIRES = timer -> {};

  // ---- RPC timeouts

  private void rpcRequests() throws IOException {
    for (int n = poisson(20); n > 0; n--) {
      Timer request = schedule(random.nextInt(10) == 0 ? 5_000 : 1_000, EXPIRES);
      if (random.nextInt(100) < 97) {
        cancelLater(request, exponential(5));
      }
    }
  }

  // ---- Idle timeouts

  private static final int CONNECTIONS = 20_000;
  private static final long IDLE_TIMEOUT = 60_000;
  private Timer[] connections;

  private void idle() throws IOException {
    connections = new Timer[CONNECTIONS];
    for (int c = 0; c < CONNECTIONS; c++) {
      connections[c] = openConnection(c);
    }
    every(1, () -> {
      for (int n = poisson(50); n > 0; n--) {
        // Packets go to the 95% of the connections that are active; the rest time out.
        Timer connection = connections[random.nextInt(CONNECTIONS * 95 / 100)];
        reschedule(connection, IDLE_TIMEOUT);
      }
      if (random.nextInt(20) == 0) {
        int c = random.nextInt(CONNECTIONS);
        cancel(connections[c]);
        connections[c] = openConnection(c);
      }
    });
  }

  private Timer openConnection(int index) throws IOException {
    return schedule(IDLE_TIMEOUT, timer -> connections[index] = openConnection(index));
  }

  // ---- Cache entries with a few TTLs

  private static final long[] TTLS = {60_000, 300_000, 3_600_000};

  private void cacheInsert() throws IOException {
    int draw = random.nextInt(10);
    long ttl = TTLS[draw < 6 ? 0 : draw < 9 ? 1 : 2];
    Timer entry = schedule(ttl, EXPIRES);
    int fate = random.nextInt(10);
    if (fate == 0) {
      cancelLater(entry, 1 + random.nextLong(ttl - 1));
    } else if (fate < 3) {
      later(1 + random.nextLong(ttl - 1), () -> {
        if (entry.handle.isPending()) {
          reschedule(entry, ttl);
        }
      });
    }
  }

  // ---- Retry back-offs

  private static final long BASE_BACKOFF = 100;
  private static final int MAX_ATTEMPTS = 6;

  private void retryStarts() throws IOException {
    for (int n = poisson(2); n > 0; n--) {
      if (random.nextBoolean()) {
        continue; // the first attempt succeeded: no timer
      }
      Timer retry = schedule(backoff(0), this::retried);
      maybeAbandon(retry);
    }
  }

  private void retried(Timer timer) throws IOException {
    timer.attempt++;
    if (timer.attempt < MAX_ATTEMPTS && random.nextBoolean()) {
      reschedule(timer, backoff(timer.attempt));
      maybeAbandon(timer);
    }
  }

  private void maybeAbandon(Timer timer) {
    if (random.nextInt(10) == 0) {
      cancelLater(timer, 1 + random.nextLong(backoff(timer.attempt)));
    }
  }

  private long backoff(int attempt) {
    long base = BASE_BACKOFF << attempt;
    return base + random.nextLong(-base / 5, base / 5 + 1);
  }

  // ---- Periodic tasks

  private static final long[] PERIODS = {1_000, 10_000, 60_000, 3_600_000};
  private static final int TASKS = 10_000;

  private void periodic() throws IOException {
    for (int t = 0; t < TASKS; t++) {
      long period = PERIODS[random.nextInt(PERIODS.length)];
      // Tasks start spread over their first period, as tasks registered over time are.
      schedule(1 + random.nextLong(period), timer -> reschedule(timer, period));
    }
  }

  // ---- Random draws

  private int poisson(double mean) {
    double limit = Math.exp(-mean);
    double product = random.nextDouble();
    int n = 0;
    while (product > limit) {
      n++;
      product *= random.nextDouble();
    }
    return n;
  }

  private long exponential(double mean) {
    return 1 + (long) (-mean * Math.log(1 - random.nextDouble()));
  }
}
