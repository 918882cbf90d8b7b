package io.github.timerqueue.conformance;

import io.github.timerqueue.TimerHandle;
import io.github.timerqueue.TimerQueue;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * An advance handler that records each timer it is handed, with the queue's clock and the timer's
 * pending state at that moment, and fails if a timer is handed over twice without being re-armed.
 */
final class Recorder<T> implements Consumer<TimerHandle<T>> {
  private final TimerQueue<T> queue;
  final List<TimerHandle<T>> fired = new ArrayList<>();
  final List<Long> firedAt = new ArrayList<>();
  final List<Boolean> pendingWhenHandedOver = new ArrayList<>();

  Recorder(TimerQueue<T> queue) {
    this.queue = queue;
  }

  @Override
  public void accept(TimerHandle<T> timer) {
    fired.add(timer);
    firedAt.add(queue.now());
    pendingWhenHandedOver.add(timer.isPending());
  }

  List<T> payloads() {
    List<T> payloads = new ArrayList<>();
    for (TimerHandle<T> timer : fired) {
      payloads.add(timer.payload());
    }
    return payloads;
  }

  void reset() {
    fired.clear();
    firedAt.clear();
    pendingWhenHandedOver.clear();
  }
}
