package io.github.timerqueue.trace;

import io.github.timerqueue.TimerHandle;
import io.github.timerqueue.TimerQueue;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A {@link TimerQueue} that records what its user does into a {@link TraceRecorder}, then does it
 * on the queue it wraps: schedule (with the delay, and the range for {@code scheduleWithin}),
 * cancel, reschedule, clear and drain, and every advance of the clock. Payloads are not recorded;
 * each timer gets an identity, consecutive from 0 in the order timers are created, which it keeps
 * through every re-arm.
 *
 * <pre>{@code
 * TimerConfig config = TimerConfig.builder().startTime(System.nanoTime()).resolution(1_000_000).build();
 * TraceRecorder recorder = TraceRecorder.start(Path.of("timers.trace"),
 *     TraceHeader.of(TimeUnit.NANOSECONDS, config.resolution(), config.startTime()));
 * TimerQueue<Connection> timeouts =
 *     RecordingTimerQueue.wrap(TimerQueues.create("wheel", config), recorder);
 * ...
 * recorder.close();   // finishes the trace; then: timer-bench/run --trace timers.trace
 * }</pre>
 *
 * <p>It keeps the whole {@code TimerQueue} contract of the queue it wraps, and the same cost plus,
 * per operation, a few stores into the recorder's buffer (never a wait for I/O, see {@link
 * TraceRecorder}) and one small handle object per {@code schedule}. Delays are recorded as {@code
 * deadline - now()}: with deadlines computed from a real clock that runs ahead of the queue's, they
 * vary by up to the time between advances. An {@code advance} with a {@code limit} is recorded as
 * an advance of the clock; a replay fires every due timer at it.
 *
 * @param <T> the type of the payloads carried by the timers
 */
public final class RecordingTimerQueue<T> implements TimerQueue<T> {
  /*
   * The wrapped queue carries this queue's handles as its payloads: a fired timer's handle comes
   * back from the wrapped queue's advance as the payload, so no map from handle to identity is
   * needed and nothing is allocated but the handle itself. The records are written only after the
   * wrapped queue has accepted the operation, so a call that throws leaves no record; an advance is
   * written before it runs, so that what its handlers do follows it in the trace.
   */
  private final TimerQueue<Object> queue;
  private final TraceRecorder recorder;
  private final Consumer<TimerHandle<Object>> fire = this::fire;
  private Consumer<? super TimerHandle<T>> handler;
  private long nextId;

  private RecordingTimerQueue(TimerQueue<Object> queue, TraceRecorder recorder) {
    this.queue = queue;
    this.recorder = recorder;
  }

  /**
   * Returns a queue that records into {@code recorder} and keeps its timers in {@code queue}. The
   * wrapped queue must be empty, and from now on only used through the returned queue. Its clock
   * should start where the recorder's {@link TraceHeader#startTime()} says.
   *
   * @param queue an empty queue of any strategy
   * @param recorder where the operations are recorded; {@link TraceRecorder#disabled()} records
   *     nothing
   * @param <T> the type of the payloads
   * @return the recording queue
   * @throws IllegalArgumentException if {@code queue} holds timers
   */
  @SuppressWarnings("unchecked")
  public static <T> RecordingTimerQueue<T> wrap(TimerQueue<?> queue, TraceRecorder recorder) {
    Objects.requireNonNull(queue, "queue");
    Objects.requireNonNull(recorder, "recorder");
    if (queue.size() != 0) {
      throw new IllegalArgumentException("the queue to record must be empty, but it holds "
          + queue.size() + " timers, whose operations the trace could not name");
    }
    // Sound: the queue is empty, and only this class schedules on it from now on.
    return new RecordingTimerQueue<>((TimerQueue<Object>) queue, recorder);
  }

  @Override
  public String strategy() {
    return queue.strategy();
  }

  @Override
  public long now() {
    return queue.now();
  }

  @Override
  public TimerHandle<T> schedule(long deadline, T payload) {
    RecordedTimer<T> timer = new RecordedTimer<>(this, nextId, payload);
    timer.timer = queue.schedule(deadline, timer);
    recorder.schedule(nextId++, deadline - queue.now());
    return timer;
  }

  @Override
  public TimerHandle<T> scheduleWithin(long earliest, long latest, T payload) {
    RecordedTimer<T> timer = new RecordedTimer<>(this, nextId, payload);
    timer.timer = queue.scheduleWithin(earliest, latest, timer);
    recorder.scheduleWithin(nextId++, earliest - queue.now(), latest - earliest);
    return timer;
  }

  @Override
  public boolean cancel(TimerHandle<T> timer) {
    RecordedTimer<T> recorded = own(timer);
    boolean wasPending = queue.cancel(recorded.timer);
    recorder.cancel(recorded.id);
    return wasPending;
  }

  @Override
  public boolean reschedule(TimerHandle<T> timer, long deadline) {
    RecordedTimer<T> recorded = own(timer);
    boolean wasPending = queue.reschedule(recorded.timer, deadline);
    recorder.reschedule(recorded.id, deadline - queue.now());
    return wasPending;
  }

  @Override
  public int advance(long now, Consumer<? super TimerHandle<T>> onExpired) {
    return advance(now, onExpired, Integer.MAX_VALUE);
  }

  @Override
  public int advance(long now, Consumer<? super TimerHandle<T>> onExpired, int limit) {
    Objects.requireNonNull(onExpired, "onExpired");
    if (handler != null || limit < 1) {
      return queue.advance(now, fire, limit); // throws as the contract says, moving nothing
    }
    long clock = queue.now();
    recorder.advance(now - clock >= 0 ? now : clock);
    handler = onExpired;
    try {
      return queue.advance(now, fire, limit);
    } finally {
      handler = null;
    }
  }

  @SuppressWarnings("unchecked")
  private void fire(TimerHandle<Object> timer) {
    handler.accept((RecordedTimer<T>) timer.payload());
  }

  @Override
  public long nextExpiryDelay() {
    return queue.nextExpiryDelay();
  }

  @Override
  public int size() {
    return queue.size();
  }

  @Override
  public void clear() {
    queue.clear();
    recorder.clear();
  }

  @Override
  @SuppressWarnings("unchecked")
  public int drain(Consumer<? super TimerHandle<T>> sink) {
    Objects.requireNonNull(sink, "sink");
    if (handler != null) {
      return queue.drain(timer -> {}); // throws as the contract says
    }
    recorder.clear();
    return queue.drain(timer -> sink.accept((RecordedTimer<T>) timer.payload()));
  }

  @Override
  @SuppressWarnings("unchecked")
  public void forEach(Consumer<? super TimerHandle<T>> action) {
    Objects.requireNonNull(action, "action");
    queue.forEach(timer -> action.accept((RecordedTimer<T>) timer.payload()));
  }

  private RecordedTimer<T> own(TimerHandle<T> timer) {
    Objects.requireNonNull(timer, "timer");
    if (!(timer instanceof RecordedTimer<T> recorded) || recorded.owner != this) {
      throw new IllegalArgumentException(
          "timer " + timer + " was not created by this recording queue");
    }
    return recorded;
  }

  /** A handle of the recording queue: the user's payload, the identity, the wrapped handle. */
  private static final class RecordedTimer<T> implements TimerHandle<T> {
    final RecordingTimerQueue<T> owner;
    final long id;
    final T payload;
    TimerHandle<Object> timer;

    RecordedTimer(RecordingTimerQueue<T> owner, long id, T payload) {
      this.owner = owner;
      this.id = id;
      this.payload = Objects.requireNonNull(payload, "payload");
    }

    @Override
    public T payload() {
      return payload;
    }

    @Override
    public long deadline() {
      return timer.deadline();
    }

    @Override
    public boolean isPending() {
      return timer.isPending();
    }

    @Override
    public String toString() {
      return "RecordedTimer{id=" + id + ", deadline=" + timer.deadline() + ", pending="
          + timer.isPending() + "}";
    }
  }
}
