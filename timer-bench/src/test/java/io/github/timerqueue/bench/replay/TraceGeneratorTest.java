package io.github.timerqueue.bench.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.timerqueue.trace.TraceOp;
import io.github.timerqueue.trace.TraceReader;
import io.github.timerqueue.trace.TraceWriter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class TraceGeneratorTest {

  static byte[] generate(TraceShape shape, long seed, long operations) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    TraceGenerator.generate(shape, seed, operations,
        TraceWriter.binary(bytes, TraceGenerator.HEADER));
    return bytes.toByteArray();
  }

  /** What a trace holds: records by kind, and the ids of timers cancelled or moved. */
  record Summary(Map<TraceOp, Long> counts, long records, Set<Long> delays, boolean idsValid) {
    long count(TraceOp op) {
      return counts.getOrDefault(op, 0L);
    }
  }

  static Summary summarize(byte[] trace) throws IOException {
    Map<TraceOp, Long> counts = new EnumMap<>(TraceOp.class);
    Set<Long> delays = new HashSet<>();
    Set<Long> scheduled = new HashSet<>();
    boolean idsValid = true;
    long records = 0;
    try (TraceReader reader = TraceReader.open(new ByteArrayInputStream(trace))) {
      for (TraceOp op; (op = reader.next()) != null; ) {
        records++;
        counts.merge(op, 1L, Long::sum);
        switch (op) {
          case SCHEDULE -> {
            idsValid &= scheduled.add(reader.id()); // a new timer gets a new id
            delays.add(reader.delay());
          }
          case RESCHEDULE -> {
            idsValid &= scheduled.contains(reader.id());
            delays.add(reader.delay());
          }
          case CANCEL -> idsValid &= scheduled.contains(reader.id());
          default -> { }
        }
      }
    }
    return new Summary(counts, records, delays, idsValid);
  }

  @ParameterizedTest
  @EnumSource(TraceShape.class)
  void theSameSeedGivesTheSameTraceAndAnotherSeedAnother(TraceShape shape) throws IOException {
    // Past the idle shape's 20,000 connections opened at start, which no seed changes.
    byte[] trace = generate(shape, 42, 40_000);
    assertThat(Arrays.equals(generate(shape, 42, 40_000), trace)).as("same seed").isTrue();
    assertThat(Arrays.equals(generate(shape, 43, 40_000), trace)).as("other seed").isFalse();
  }

  @ParameterizedTest
  @EnumSource(TraceShape.class)
  void writesAtLeastTheOperationsAskedForWithValidIdsInAFewBytesEach(TraceShape shape)
      throws IOException {
    byte[] trace = generate(shape, 1, 50_000);
    Summary summary = summarize(trace);

    assertThat(summary.records()).isBetween(50_000L, 60_000L);
    assertThat(summary.idsValid()).as("cancels and reschedules name scheduled timers").isTrue();
    assertThat((double) trace.length / summary.records()).as("bytes per record").isLessThan(4);
  }

  @ParameterizedTest
  @EnumSource(TraceShape.class)
  void eachShapeHasItsCharacter(TraceShape shape) throws IOException {
    Summary s = summarize(generate(shape, 7, 200_000));
    long schedules = s.count(TraceOp.SCHEDULE);
    switch (shape) {
      case RPC -> {
        // Nearly every request is answered and its timeout cancelled; two timeouts.
        assertThat(s.count(TraceOp.CANCEL)).isBetween(schedules * 90 / 100, schedules);
        assertThat(s.delays()).containsExactlyInAnyOrder(1_000 * ms(), 5_000 * ms());
      }
      case IDLE -> {
        // Touched on every packet: re-arms dominate, one delay.
        assertThat(s.count(TraceOp.RESCHEDULE)).isGreaterThan(5 * schedules);
        assertThat(s.delays()).containsExactly(60_000 * ms());
      }
      case CACHE -> {
        assertThat(s.delays()).containsExactlyInAnyOrder(
            60_000 * ms(), 300_000 * ms(), 3_600_000 * ms());
        assertThat(s.count(TraceOp.CANCEL)).isBetween(1L, schedules / 5);
      }
      case RETRY -> {
        // Back-offs from 80 ms to 3.84 s with jitter: many distinct delays, re-armed on firing.
        assertThat(s.delays()).hasSizeGreaterThan(100)
            .allSatisfy(d -> assertThat(d).isBetween(80 * ms(), 3_840 * ms()));
        assertThat(s.count(TraceOp.RESCHEDULE)).isPositive();
      }
      case PERIODIC -> {
        // Every task is re-armed from its handler with its period.
        assertThat(s.count(TraceOp.SCHEDULE)).isEqualTo(10_000);
        assertThat(s.count(TraceOp.CANCEL)).isZero();
        assertThat(s.count(TraceOp.RESCHEDULE)).isPositive();
      }
    }
  }

  @ParameterizedTest
  @EnumSource(TraceShape.class)
  void shapesAreNamedByTheirLabel(TraceShape shape) {
    assertThat(TraceShape.of(shape.label())).isEqualTo(shape);
    assertThatThrownBy(() -> TraceShape.of("bursty"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("rpc, idle, cache, retry, periodic");
  }

  private static long ms() {
    return TraceGenerator.MILLISECOND;
  }
}
