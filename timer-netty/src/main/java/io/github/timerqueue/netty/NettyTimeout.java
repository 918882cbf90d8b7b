package io.github.timerqueue.netty;

import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.UndeclaredThrowableException;

/**
 * A Netty {@link Timeout}, and the task of the service's timeout behind it: the service runs this
 * object, which runs the Netty task with itself as the timeout, so the task sees the handle
 * {@link NettyTimer#newTimeout} returned. State is the service's handle's, read through.
 */
final class NettyTimeout implements Timeout, io.github.timerqueue.runtime.TimerTask {
  // Netty 4.2 added TimerTask.cancelled(Timeout), a default method called when cancel() cancels
  // the timeout. This module compiles against 4.1, which lacks it, and must run on both: so the
  // method is looked up once, here, in the netty-common found at run time, and called through a
  // method handle when present (4.2), never when absent (4.1). The lookup is on Netty's interface,
  // not on the task's class, so that on 4.1 a method a task happens to name cancelled is not
  // taken for an override.
  private static final MethodHandle NETTY_CANCELLED = cancelledCallback(TimerTask.class);

  private final NettyTimer timer;
  private final TimerTask task;
  /**
   * The service's handle. Set by the thread that scheduled this timeout as soon as the service
   * returns it; the service may run the task, or another thread may stop the timer, before that,
   * and they set it too from the handle they are given. Every writer writes the same handle.
   */
  private volatile io.github.timerqueue.runtime.Timeout handle;

  NettyTimeout(NettyTimer timer, TimerTask task) {
    this.timer = timer;
    this.task = task;
  }

  void bind(io.github.timerqueue.runtime.Timeout handle) {
    this.handle = handle;
  }

  @Override
  public void run(io.github.timerqueue.runtime.Timeout expired) throws Exception {
    bind(expired);
    task.run(this);
  }

  /**
   * Calls Netty 4.2's {@code TimerTask.cancelled(Timeout)} with this timeout, if the netty-common
   * at run time has it; the service calls this on the thread whose {@code cancel} cancelled the
   * timeout, and hands what it throws to its uncaught-exception handler, as for {@code run}.
   */
  @Override
  public void cancelled(io.github.timerqueue.runtime.Timeout cancelled) {
    if (NETTY_CANCELLED != null) {
      bind(cancelled);
      callCancelled(NETTY_CANCELLED, task, this);
    }
  }

  /**
   * A handle on {@code cancelled(Timeout)} as {@code taskType} declares it, typed {@code
   * (TimerTask, Timeout) void}; {@code null} if it has none. For {@link TimerTask} itself: present
   * from Netty 4.2.
   */
  static MethodHandle cancelledCallback(Class<? extends TimerTask> taskType) {
    try {
      return MethodHandles.publicLookup()
          .findVirtual(taskType, "cancelled", MethodType.methodType(void.class, Timeout.class))
          .asType(MethodType.methodType(void.class, TimerTask.class, Timeout.class));
    } catch (NoSuchMethodException | IllegalAccessException absent) {
      return null;
    }
  }

  /** Calls a handle of {@link #cancelledCallback}, passing on what it throws unchanged. */
  static void callCancelled(MethodHandle callback, TimerTask task, Timeout timeout) {
    try {
      callback.invokeExact(task, timeout);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable checked) {
      // Only a task that throws a checked exception sneakily gets here.
      throw new UndeclaredThrowableException(checked);
    }
  }

  @Override
  public Timer timer() {
    return timer;
  }

  @Override
  public TimerTask task() {
    return task;
  }

  @Override
  public boolean isExpired() {
    return handle.isExpired();
  }

  @Override
  public boolean isCancelled() {
    return handle.isCancelled();
  }

  @Override
  public boolean cancel() {
    return handle.cancel();
  }

  @Override
  public String toString() {
    io.github.timerqueue.runtime.Timeout current = handle;
    String state = current.isPending() ? "pending"
        : current.isExpired() ? "expired"
        : "cancelled";
    return "NettyTimeout{" + state + ", task=" + task + "}";
  }
}
