/**
 * The {@code wheel} timer strategy: the leveled timing wheel of Jane Street's {@code
 * Timing_wheel}, registered with {@link io.github.timerqueue.TimerQueues} under that name.
 *
 * <p>The package is exported because {@link io.github.timerqueue.wheel.TimingWheel} is public API:
 * it adds {@code Timing_wheel}'s own vocabulary (interval numbers, the next alarm time, level durations) to
 * the {@link io.github.timerqueue.TimerQueue} contract. The API module is required transitively
 * because that class's signatures use its types.
 */
module io.github.timerqueue.wheel {
  requires transitive io.github.timerqueue;

  exports io.github.timerqueue.wheel;

  provides io.github.timerqueue.spi.TimerQueueProvider with
      io.github.timerqueue.wheel.TimingWheelProvider;
}
