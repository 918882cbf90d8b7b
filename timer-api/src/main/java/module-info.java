/**
 * The timer-queue SPI: {@link io.github.timerqueue.TimerQueue} and its contract, the registry
 * {@link io.github.timerqueue.TimerQueues} that creates queues by strategy name, and the reference
 * {@code heap} strategy.
 */
module io.github.timerqueue {
  exports io.github.timerqueue;
  exports io.github.timerqueue.spi;

  uses io.github.timerqueue.spi.TimerQueueProvider;

  provides io.github.timerqueue.spi.TimerQueueProvider with
      io.github.timerqueue.heap.HeapTimerQueueProvider;
}
