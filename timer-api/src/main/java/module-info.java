/**
 * The timer-queue SPI: {@link io.github.timerqueue.TimerQueue} and its contract, the registry
 * {@link io.github.timerqueue.TimerQueues} that creates queues by strategy name, and the reference
 * {@code heap} strategy.
 */
// The strategy modules named in the qualified export are built after this one, so the compiler
// cannot see them here: hence the suppressed "module not found" warning.
@SuppressWarnings("module")
module io.github.timerqueue {
  exports io.github.timerqueue;
  exports io.github.timerqueue.spi;
  exports io.github.timerqueue.internal to
      io.github.timerqueue.hitime,
      io.github.timerqueue.wheel,
      io.github.timerqueue.cascade,
      io.github.timerqueue.lawn;

  uses io.github.timerqueue.spi.TimerQueueProvider;

  provides io.github.timerqueue.spi.TimerQueueProvider with
      io.github.timerqueue.heap.HeapTimerQueueProvider;
}
