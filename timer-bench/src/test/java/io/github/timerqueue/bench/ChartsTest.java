package io.github.timerqueue.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.knowm.xchart.CategoryChart;

/** The logarithmic value axis of the benchmark's charts. */
class ChartsTest {
  @ParameterizedTest
  @ValueSource(doubles = {0.3, 1, 1.9, 2.58, 14.8, 99, 100, 103, 197.2, 999, 1_000, 1_001})
  void theSmallestBarSpansAtLeastAFactorOfTwoAboveTheAxis(double smallest) {
    CategoryChart chart = Charts.newChart("t", "y");
    double largest = smallest * 8.5;

    Charts.logarithmicAxis(chart, smallest, largest);

    double bottom = chart.getStyler().getYAxisMin();
    double top = chart.getStyler().getYAxisMax();
    assertThat(smallest / bottom).isGreaterThanOrEqualTo(2);
    assertThat(isWholeDecade(bottom)).as("bottom %s", bottom).isTrue();
    assertThat(isWholeDecade(top)).as("top %s", top).isTrue();
    assertThat(top).isGreaterThanOrEqualTo(largest * 1.5).isGreaterThanOrEqualTo(bottom * 10);
  }

  private static boolean isWholeDecade(double value) {
    double exponent = Math.log10(value);
    return Math.abs(exponent - Math.rint(exponent)) < 1e-9;
  }
}
