/**
 * The {@code hitime} timer strategy: the xor-bin hierarchical timeout manager, registered with
 * {@link io.github.timerqueue.TimerQueues} under that name.
 */
module io.github.timerqueue.hitime {
  requires io.github.timerqueue;

  provides io.github.timerqueue.spi.TimerQueueProvider with
      io.github.timerqueue.hitime.HiTimeTimerQueueProvider;
}
