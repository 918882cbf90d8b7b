package com.example.consumer;

import io.github.timerqueue.TimerQueues;
import io.github.timerqueue.netty.NettyTimer;
import io.github.timerqueue.runtime.TimerService;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Fires one timeout through TimerService and one through the Netty adapter, both on the "wheel"
 * strategy, and says on which path it ran. Exits non-zero if either does not fire.
 */
public final class Main {
  private Main() {}

  public static void main(String[] args) throws InterruptedException {
    String path = Main.class.getModule().isNamed() ? "module path" : "class path";
    System.out.println("consumer on the " + path + ": strategies " + TimerQueues.strategies());
    boolean serviceFired = fireThroughTimerService();
    boolean nettyFired = fireThroughNettyTimer();
    System.out.println("TimerService fired: " + serviceFired + ", NettyTimer fired: " + nettyFired);
    if (!serviceFired || !nettyFired) {
      System.exit(1);
    }
  }

  static boolean fireThroughTimerService() throws InterruptedException {
    TimerService timers = TimerService.builder()
        .strategy("wheel")
        .resolution(Duration.ofMillis(1))
        .build();
    try {
      CountDownLatch fired = new CountDownLatch(1);
      timers.newTimeout(t -> fired.countDown(), 5, TimeUnit.MILLISECONDS);
      return fired.await(10, TimeUnit.SECONDS);
    } finally {
      timers.stop();
    }
  }

  static boolean fireThroughNettyTimer() throws InterruptedException {
    io.netty.util.Timer timer = NettyTimer.create(TimerService.builder().strategy("wheel"));
    try {
      CountDownLatch fired = new CountDownLatch(1);
      timer.newTimeout(t -> fired.countDown(), 5, TimeUnit.MILLISECONDS);
      return fired.await(10, TimeUnit.SECONDS);
    } finally {
      timer.stop();
    }
  }
}
