/** A user's module: what it must require to use the runtime, a strategy by name, and Netty. */
module com.example.consumer {
  requires io.github.timerqueue.netty;   // and, transitively, io.github.timerqueue.runtime
  requires io.github.timerqueue;         // for TimerQueues, which Main names itself

  exports com.example.consumer;
}
