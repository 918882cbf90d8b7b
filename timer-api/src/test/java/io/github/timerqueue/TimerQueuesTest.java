package io.github.timerqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.testing.NullPointerTester;
import java.util.List;
import org.junit.jupiter.api.Test;

class TimerQueuesTest {

  @Test
  void listsTheHeapStrategy() {
    assertThat(TimerQueues.strategies()).contains("heap");
    assertThat(TimerQueues.description("heap")).contains("heap");
  }

  @Test
  void strategiesIsSortedAndUnmodifiable() {
    assertThat(List.copyOf(TimerQueues.strategies())).isSorted();
    assertThatThrownBy(() -> TimerQueues.strategies().add("mine"))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void createsAQueueByNameWithTheGivenConfiguration() {
    TimerQueue<String> queue =
        TimerQueues.create("heap", TimerConfig.builder().startTime(-42).resolution(8).build());

    assertThat(queue.strategy()).isEqualTo("heap");
    assertThat(queue.now()).isEqualTo(-42);
    assertThat(TimerQueues.<String>create("heap").now()).isZero();
  }

  @Test
  void unknownStrategyIsRejectedWithTheAvailableNames() {
    assertThatThrownBy(() -> TimerQueues.create("no-such-timer"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'no-such-timer'")
        .hasMessageContaining(TimerQueues.strategies().toString());
    assertThatThrownBy(() -> TimerQueues.description("no-such-timer"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'no-such-timer'");
  }

  @Test
  void unknownOptionIsRejectedWithTheKeysTheStrategyAccepts() {
    TimerConfig config = TimerConfig.builder().option("levelBits", "8,8").build();

    assertThatThrownBy(() -> TimerQueues.create("heap", config))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'heap'")
        .hasMessageContaining("'levelBits'")
        .hasMessageContaining("accepts: []");
  }

  @Test
  void nullArgumentsAreRejected() {
    new NullPointerTester()
        .setDefault(String.class, "heap")
        .setDefault(TimerConfig.class, TimerConfig.defaults())
        .testAllPublicStaticMethods(TimerQueues.class);
  }
}
