package io.github.timerqueue.netty;

import io.github.timerqueue.TimerQueues;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every strategy the registry finds: the adapter must behave the same on each. */
final class Strategies {
  private Strategies() {}

  static Stream<String> names() {
    return TimerQueues.strategies().stream();
  }

  /** Runs the test once per registered strategy, with the strategy's name as its argument. */
  @Target(ElementType.METHOD)
  @Retention(RetentionPolicy.RUNTIME)
  @ParameterizedTest(name = "{0}")
  @MethodSource("io.github.timerqueue.netty.Strategies#names")
  @interface Each {}
}
