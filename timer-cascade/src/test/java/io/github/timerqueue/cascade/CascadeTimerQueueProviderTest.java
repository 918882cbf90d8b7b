package io.github.timerqueue.cascade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerQueue;
import io.github.timerqueue.TimerQueues;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The provider: its name, its one option and how that option is validated. */
class CascadeTimerQueueProviderTest {

  private static TimerQueue<String> create(String levelBits) {
    return TimerQueues.create(CascadeTimerQueueProvider.NAME,
        TimerConfig.builder().option(CascadeTimerQueueProvider.LEVEL_BITS, levelBits).build());
  }

  @Test
  void isFoundByNameAndDescribesItself() {
    CascadeTimerQueueProvider provider = new CascadeTimerQueueProvider();
    assertThat(provider.name()).isEqualTo("cascade");
    assertThat(provider.optionKeys()).containsExactly("levelBits");
    assertThat(provider.description()).contains("cascading");
    assertThat(TimerQueues.strategies()).contains("cascade");
  }

  @Test
  void hasTwoHundredFiftySixBucketsPerLevelByDefault() {
    TimerQueue<String> queue = TimerQueues.create("cascade");
    assertThat(((CascadeTimerQueue<String>) queue).levelBits).isEqualTo(8);
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 7, 16})
  void acceptsLevelBitsFromOneToSixteen(int bits) {
    TimerQueue<String> queue = create(Integer.toString(bits));
    assertThat(((CascadeTimerQueue<String>) queue).levelBits).isEqualTo(bits);
    queue.schedule(1L << 40, "far");
    queue.schedule(3, "near");
    assertThat(queue.advance(3, timer -> {})).isEqualTo(1);
    CascadeInvariants.check((CascadeTimerQueue<String>) queue);
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "17", "-1", "eight", "", " 8", "2147483648", "8.0"})
  void rejectsOtherLevelBitsNamingTheOptionTheValueAndTheRange(String value) {
    assertThatThrownBy(() -> create(value))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("levelBits")
        .hasMessageContaining("'" + value + "'")
        .hasMessageContaining("from 1 to 16");
  }

  @Test
  void unknownOptionKeysAreRejectedByTheRegistry() {
    assertThatThrownBy(() -> TimerQueues.create("cascade",
        TimerConfig.builder().option("levels", "4").build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("levels")
        .hasMessageContaining("levelBits");
  }
}
