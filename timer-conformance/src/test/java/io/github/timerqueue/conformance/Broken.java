package io.github.timerqueue.conformance;

import io.github.timerqueue.TimerHandle;
import io.github.timerqueue.TimerQueue;
import java.util.function.Consumer;

/**
 * A queue that forwards to a correct one; {@link ConformanceSuiteSelfTest} overrides one method to
 * break one rule of the contract.
 */
class Broken<T> implements TimerQueue<T> {
  final TimerQueue<T> delegate;

  Broken(TimerQueue<T> delegate) {
    this.delegate = delegate;
  }

  @Override
  public String strategy() {
    return delegate.strategy();
  }

  @Override
  public long now() {
    return delegate.now();
  }

  @Override
  public TimerHandle<T> schedule(long deadline, T payload) {
    return delegate.schedule(deadline, payload);
  }

  @Override
  public TimerHandle<T> scheduleWithin(long earliest, long latest, T payload) {
    return delegate.scheduleWithin(earliest, latest, payload);
  }

  @Override
  public boolean cancel(TimerHandle<T> timer) {
    return delegate.cancel(timer);
  }

  @Override
  public boolean reschedule(TimerHandle<T> timer, long deadline) {
    return delegate.reschedule(timer, deadline);
  }

  @Override
  public int advance(long now, Consumer<? super TimerHandle<T>> onExpired) {
    return advance(now, onExpired, Integer.MAX_VALUE);
  }

  @Override
  public int advance(long now, Consumer<? super TimerHandle<T>> onExpired, int limit) {
    return delegate.advance(now, onExpired, limit);
  }

  @Override
  public long nextExpiryDelay() {
    return delegate.nextExpiryDelay();
  }

  @Override
  public int size() {
    return delegate.size();
  }

  @Override
  public void clear() {
    delegate.clear();
  }

  @Override
  public int drain(Consumer<? super TimerHandle<T>> sink) {
    return delegate.drain(sink);
  }

  @Override
  public void forEach(Consumer<? super TimerHandle<T>> action) {
    delegate.forEach(action);
  }
}
