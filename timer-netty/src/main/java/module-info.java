/**
 * A Netty {@link io.netty.util.Timer} backed by a {@link io.github.timerqueue.runtime.TimerService},
 * {@link io.github.timerqueue.netty.NettyTimer}, so that Netty code runs its timeouts on any
 * {@link io.github.timerqueue.TimerQueue} strategy.
 */
// netty-common 4.1 is an automatic module (io.netty.common); the warning says no more than that.
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module io.github.timerqueue.netty {
  // Transitive: NettyTimer is an io.netty.util.Timer built from a TimerService.Builder.
  requires transitive io.github.timerqueue.runtime;
  requires transitive io.netty.common;

  exports io.github.timerqueue.netty;
}
