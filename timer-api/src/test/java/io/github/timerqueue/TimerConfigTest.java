package io.github.timerqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.testing.EqualsTester;
import com.google.common.testing.NullPointerTester;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TimerConfigTest {

  @Test
  void defaultsStartAtZeroWithResolutionOneAndNoOptions() {
    TimerConfig defaults = TimerConfig.defaults();

    assertThat(defaults.startTime()).isZero();
    assertThat(defaults.resolution()).isEqualTo(1);
    assertThat(defaults.options()).isEmpty();
    assertThat(TimerConfig.builder().build()).isEqualTo(defaults);
  }

  @Test
  void builderSetsEveryValue() {
    TimerConfig config = TimerConfig.builder()
        .startTime(Long.MIN_VALUE)
        .resolution(1_000)
        .option("a", "1")
        .option("b", "2")
        .option("a", "3")
        .build();

    assertThat(config.startTime()).isEqualTo(Long.MIN_VALUE);
    assertThat(config.resolution()).isEqualTo(1_000);
    assertThat(config.options()).isEqualTo(Map.of("a", "3", "b", "2"));
    assertThat(config.option("a")).contains("3");
    assertThat(config.option("c")).isEmpty();
    assertThat(config.toBuilder().build()).isEqualTo(config);
    assertThat(config.toString()).contains("-9223372036854775808", "1000", "a=3");
  }

  @Test
  void resolutionBelowOneIsRejected() {
    for (long resolution : new long[] {0, -1, Long.MIN_VALUE}) {
      assertThatThrownBy(() -> TimerConfig.builder().resolution(resolution))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("resolution must be at least 1")
          .hasMessageContaining(Long.toString(resolution));
    }
  }

  @Test
  void emptyOptionKeyIsRejected() {
    assertThatThrownBy(() -> TimerConfig.builder().option("", "x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("key");
  }

  @Test
  void optionsCannotBeChangedThroughTheMap() {
    TimerConfig config = TimerConfig.builder().option("a", "1").build();

    assertThatThrownBy(() -> config.options().put("b", "2"))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void builderIsNotSharedWithBuiltConfigs() {
    TimerConfig.Builder builder = TimerConfig.builder().option("a", "1");
    TimerConfig first = builder.build();
    builder.option("a", "2").resolution(5);

    assertThat(first.option("a")).contains("1");
    assertThat(first.resolution()).isEqualTo(1);
  }

  @Test
  void equalityIsByValue() {
    new EqualsTester()
        .addEqualityGroup(TimerConfig.defaults(), TimerConfig.builder().build())
        .addEqualityGroup(TimerConfig.builder().startTime(5).build())
        .addEqualityGroup(TimerConfig.builder().resolution(5).build())
        .addEqualityGroup(TimerConfig.builder().option("k", "v").build(),
            TimerConfig.builder().option("k", "v").build())
        .testEquals();
  }

  @Test
  void nullArgumentsAreRejected() {
    NullPointerTester tester = new NullPointerTester();
    tester.testAllPublicStaticMethods(TimerConfig.class);
    tester.testAllPublicInstanceMethods(TimerConfig.defaults());
    tester.testAllPublicInstanceMethods(TimerConfig.builder());
  }
}
