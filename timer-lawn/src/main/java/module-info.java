/**
 * The {@code lawn} timer strategy: one first-in, first-out queue per distinct TTL, the queues' heads
 * in a heap. Found by {@link java.util.ServiceLoader} under the name {@code "lawn"}.
 */
module io.github.timerqueue.lawn {
  requires io.github.timerqueue;

  provides io.github.timerqueue.spi.TimerQueueProvider with
      io.github.timerqueue.lawn.LawnTimerQueueProvider;
}
