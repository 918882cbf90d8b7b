package com.example.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.timerqueue.TimerQueues;
import org.junit.jupiter.api.Test;

/** Runs on the module path: the strategy is found by ServiceLoader across modules, and fires. */
class MainTest {
  @Test
  void runsOnTheModulePath() {
    assertTrue(Main.class.getModule().isNamed(), "tests run in module com.example.consumer");
    assertEquals("io.github.timerqueue.wheel",
        TimerQueues.class.getModule().getLayer().findModule("io.github.timerqueue.wheel")
            .map(Module::getName).orElse("timer-wheel not resolved as a module"));
  }

  @Test
  void theWheelStrategyIsFound() {
    assertTrue(TimerQueues.strategies().contains("wheel"), TimerQueues.strategies().toString());
  }

  @Test
  void aTimeoutFiresThroughTimerServiceAndThroughNetty() throws InterruptedException {
    assertTrue(Main.fireThroughTimerService());
    assertTrue(Main.fireThroughNettyTimer());
  }
}
