package io.github.timerqueue.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The fixed log-linear buckets of the lateness histogram, and its percentiles. */
class LatenessHistogramTest {

  @Test
  void smallValuesHaveABucketEach() {
    for (int value = 0; value < LatenessHistogram.SUB_BUCKETS; value++) {
      assertThat(LatenessHistogram.bucket(value)).isEqualTo(value);
      assertThat(LatenessHistogram.upperBound(value)).isEqualTo(value);
    }
  }

  @Test
  void bucketsTileTheNonNegativeLongsInOrder() {
    long lowest = 0;
    for (int bucket = 0; bucket < LatenessHistogram.BUCKETS; bucket++) {
      long upper = LatenessHistogram.upperBound(bucket);
      assertThat(LatenessHistogram.bucket(lowest)).as("lowest of bucket %d", bucket).isEqualTo(bucket);
      assertThat(LatenessHistogram.bucket(upper)).as("upper of bucket %d", bucket).isEqualTo(bucket);
      assertThat(upper).isGreaterThanOrEqualTo(lowest);
      lowest = upper + 1;
    }
    assertThat(lowest).as("the last bucket ends at Long.MAX_VALUE").isEqualTo(Long.MIN_VALUE);
  }

  @Test
  void eachBucketIsWithinAnEighthOfItsValues() {
    SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < 100_000; i++) {
      long value = random.nextLong(Long.MAX_VALUE) >>> random.nextInt(63);
      long upper = LatenessHistogram.upperBound(LatenessHistogram.bucket(value));
      assertThat(upper).isGreaterThanOrEqualTo(value);
      assertThat((double) (upper - value)).isLessThanOrEqualTo(value / 8.0);
    }
  }

  @Test
  void percentilesReportTheBucketBoundAtTheirRankCappedAtTheMaximum() {
    LatenessHistogram histogram = new LatenessHistogram();
    for (int i = 1; i <= 100; i++) {
      histogram.record(i * 1_000L);
    }
    histogram.record(-5); // a clock that stepped back counts as on time

    LatenessHistogram.Snapshot snapshot = histogram.snapshot();

    assertThat(snapshot.total()).isEqualTo(101);
    assertThat(snapshot.valueAt(0)).isZero();
    assertThat(snapshot.valueAt(50)).isBetween(50_000L, 50_000L + 50_000L / 8);
    assertThat(snapshot.valueAt(99)).isBetween(99_000L, 100_000L);
    assertThat(snapshot.valueAt(100)).isEqualTo(100_000L);
    assertThat(snapshot.max()).isEqualTo(100_000L);
    assertThat(new LatenessHistogram().snapshot().valueAt(99)).isZero();
    assertThatThrownBy(() -> snapshot.valueAt(100.5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("between 0 and 100, but was 100.5");
    assertThatThrownBy(() -> snapshot.valueAt(Double.NaN))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
