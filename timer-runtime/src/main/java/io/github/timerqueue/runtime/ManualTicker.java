package io.github.timerqueue.runtime;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A clock that a test moves itself, and that runs what is due on the thread that moves it: a
 * {@link TimerService} or {@link TimerScheduledExecutorService} built with this ticker has no timer
 * thread, so nothing fires unless the test calls {@link #advance(Duration) advance}, and nothing
 * sleeps. Like Netty's {@code MockTicker}, Kafka's {@code MockTime} or Caffeine's {@code
 * FakeTicker}, with the service's loop driven by the test.
 *
 * <pre>{@code
 * ManualTicker ticker = new ManualTicker();
 * TimerService timers = TimerService.builder().ticker(ticker).build();
 * AtomicBoolean closed = new AtomicBoolean();
 * Timeout idle = timers.newTimeout(t -> closed.set(true), 30, TimeUnit.SECONDS);
 *
 * ticker.advance(Duration.ofSeconds(20));
 * idle.reschedule(30, TimeUnit.SECONDS);   // activity: the idle timeout starts over
 * ticker.advance(Duration.ofSeconds(29));
 * assertFalse(closed.get());               // 49 s in, 29 s idle: not yet
 * ticker.advance(Duration.ofSeconds(1));
 * assertTrue(closed.get());                // 30 s idle: closed, on this thread, without sleeping
 * timers.close();
 * }</pre>
 *
 * <p>{@link #advance(Duration) advance} moves the time forward in steps: to each moment at which
 * a timer of an attached service may be due (its deadline rounded up to the service's resolution),
 * in order, running there the tasks that are due, and finally to the target. So timers fire in
 * deadline order, each task reads the time it was due at (not the target), never earlier than its
 * deadline, and a periodic task runs once for each of its periods within the advance, each run at
 * its own time. A task that schedules or re-arms a timeout due within the advance sees it fire in
 * the same advance. Timers due at the same moment fire in an order the strategy decides.
 * {@code advance(Duration.ZERO)} runs what is due now, for example a timeout scheduled with no
 * delay.
 *
 * <p>Any thread may schedule, cancel and stop; what they ask for is applied by the next advance.
 * Advances from several threads are serialized, as are {@code stop} and the executor's {@code
 * shutdownNow} with them: they wait for an advance in progress on another thread to end. A task
 * must not advance its own ticker ({@link IllegalStateException}). With a {@linkplain
 * TimerService.Builder#taskExecutor task executor}, due tasks are handed to it instead, and run
 * where it runs them. One ticker may drive several services; a stopped service is let go.
 *
 * <p>Thread-safe. {@link #read()} costs a volatile read.
 */
public final class ManualTicker implements Ticker {
  private volatile long now;
  private final List<TimerService> services = new CopyOnWriteArrayList<>();
  /** The thread in {@link #advance(long)}, guarded by this ticker's monitor; read by others. */
  private volatile Thread advancing;

  /** Creates a ticker that reads 0 until it is advanced. */
  public ManualTicker() {
    this(0);
  }

  /**
   * Creates a ticker that reads {@code startNanos} until it is advanced; for tests of a time near
   * the wrap-around of {@code long}, for example.
   *
   * @param startNanos the first reading, any value
   */
  public ManualTicker(long startNanos) {
    this.now = startNanos;
  }

  /**
   * Returns the current time: the start plus every advance, wrapping around as {@link
   * System#nanoTime()} may.
   *
   * @return the time, in nanoseconds
   */
  @Override
  public long read() {
    return now;
  }

  /**
   * Moves the time forward by {@code amount} and runs, on the calling thread, everything that is
   * due by then in every service built with this ticker, as the class comment says.
   *
   * @param amount how far, zero or more
   * @throws IllegalArgumentException if {@code amount} is negative or more than {@code
   *     Long.MAX_VALUE} nanoseconds
   * @throws IllegalStateException if called from a task this ticker is running
   * @throws NullPointerException if {@code amount} is {@code null}
   */
  public void advance(Duration amount) {
    advance(Durations.nanos(amount, 0, "amount"));
  }

  /**
   * Moves the time forward by {@code amount} {@code unit}s; as {@link #advance(Duration)}.
   *
   * @param amount how far, zero or more; saturated at {@code Long.MAX_VALUE} nanoseconds
   * @param unit the unit of {@code amount}
   * @throws IllegalArgumentException if {@code amount} is negative
   * @throws IllegalStateException if called from a task this ticker is running
   * @throws NullPointerException if {@code unit} is {@code null}
   */
  public void advance(long amount, TimeUnit unit) {
    Objects.requireNonNull(unit, "unit");
    if (amount < 0) {
      throw new IllegalArgumentException("amount must be 0 or more, but was " + amount);
    }
    advance(unit.toNanos(amount));
  }

  private synchronized void advance(long nanos) {
    if (advancing == Thread.currentThread()) {
      throw new IllegalStateException("a task must not advance the ticker that runs it");
    }
    advancing = Thread.currentThread();
    try {
      long remaining = nanos;
      while (true) {
        long sleep = runDue();
        if (sleep == Long.MAX_VALUE || sleep > remaining) {
          break;
        }
        now += sleep;
        remaining -= sleep;
      }
      now += remaining;
      runDue();
    } finally {
      advancing = null;
    }
  }

  /**
   * Turns the loop of every attached service until it would sleep; returns the shortest sleep,
   * {@link Long#MAX_VALUE} when none has anything scheduled. A service that stopped is let go.
   */
  private long runDue() {
    long shortest = Long.MAX_VALUE;
    for (TimerService service : services) {
      long sleep = 0;
      while (sleep == 0 && !service.isStopped()) {
        sleep = service.runOnce();
      }
      if (service.isStopped()) {
        services.remove(service);
      } else {
        shortest = Math.min(shortest, sleep);
      }
    }
    return shortest;
  }

  /** Drives {@code service}'s loop from now on; called once by the service as it is built. */
  void attach(TimerService service) {
    services.add(service);
  }

  /** Whether the calling thread is running this ticker's due tasks. */
  boolean isAdvancing() {
    return advancing == Thread.currentThread();
  }
}
