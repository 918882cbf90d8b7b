/** A user's module: what it must require to use the runtime, a strategy by name, and Netty. */
module com.example.consumer {
  requires io.github.timerqueue.netty;   // and, transitively, io.github.timerqueue.runtime
  requires io.github.timerqueue;         // for TimerQueues; the runtime does not export it onward

  exports com.example.consumer;
}
