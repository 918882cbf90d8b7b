/**
 * The {@code cascade} timer strategy: a cascading timer wheel after the ccan design, levels of
 * 2<sup>levelBits</sup> buckets and a far bucket, found by {@link java.util.ServiceLoader} under the
 * name {@code "cascade"}.
 */
module io.github.timerqueue.cascade {
  requires io.github.timerqueue;

  provides io.github.timerqueue.spi.TimerQueueProvider with
      io.github.timerqueue.cascade.CascadeTimerQueueProvider;
}
