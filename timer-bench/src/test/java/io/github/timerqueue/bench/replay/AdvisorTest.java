package io.github.timerqueue.bench.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AdvisorTest {

  private static ReplayResult result(String strategy, Map<String, String> options, double nanos,
      double bytes) {
    return result(strategy, nanos, 0, bytes, 0, options);
  }

  private static ReplayResult result(String strategy, double nanos, double spread, double bytes,
      double meanLateness, Map<String, String> options) {
    return new ReplayResult(new Contender(strategy, options), new double[ReplayPass.KINDS], nanos,
        spread, 1000, bytes, 0, 0, 10, meanLateness, 0);
  }

  private static final TraceProfile PROFILE = new TraceProfile(100, new long[] {50, 48, 0, 2, 0},
      180, 1000, 3, 97, 0, 2, 1024, 8192, 0);

  @Test
  void picksTheFastestTimerqueueStrategyEvenWhenAgronaIsFaster() {
    List<ReplayResult> results = List.of(
        result("heap", Map.of(), 100, 64),
        result("wheel", Map.of(), 40, 115),
        result("agrona", Map.of(), 20, 32));

    assertThat(Advisor.pick(results).contender().strategy()).isEqualTo("wheel");
    assertThat(Advisor.recommend(PROFILE, results, "1 ms"))
        .startsWith("Use `wheel` at a resolution of 1 ms for this trace")
        .contains("2.50× as fast as the next strategy, `heap` (100 ns)")
        .contains("Agrona's DeadlineTimerWheel replays it in 20.0 ns per operation (`wheel` is"
            + " 2.00× slower than it)");
  }

  @Test
  void amongStrategiesWithinFivePercentPicksTheSmallestAndSaysSo() {
    List<ReplayResult> results = List.of(
        result("cascade", Map.of(), 100, 62),
        result("hitime", Map.of(), 104, 50),
        result("heap", Map.of(), 180, 64));

    assertThat(Advisor.pick(results).contender().strategy()).isEqualTo("hitime");
    assertThat(Advisor.recommend(PROFILE, results, "1 ms"))
        .contains("within 5% of `cascade` (100 ns) with less memory (50.0 against 62.0 bytes per"
            + " timer)");
  }

  @Test
  void namesTheOptionsOfTheChosenConfiguration() {
    List<ReplayResult> results = List.of(
        result("wheel", Map.of(), 80, 115),
        result("wheel", Map.of("levelBits", "8,8,8,8,8,8,8"), 50, 71));

    assertThat(Advisor.recommend(PROFILE, results, "1 ms"))
        .startsWith("Use `wheel` with `levelBits=8,8,8,8,8,8,8` at a resolution of 1 ms");
  }

  @Test
  void saysWhenTheTraceIsIncomplete() {
    TraceProfile dropped = new TraceProfile(100, new long[] {50, 48, 0, 2, 0}, 180, 1000, 3, 97,
        0, 2, 1024, 8192, 12);

    assertThat(Advisor.recommend(dropped, List.of(result("heap", Map.of(), 10, 64)), "1 ms"))
        .endsWith("the recorder dropped 12 operations, so the trace is incomplete; record with a"
            + " larger buffer.");
  }

  /** The cache trace's case: lawn and wheel neck and neck, their order in time swapping. */
  @Test
  void strategiesWithinTheNoiseGetTheSameAdviceWhicheverIsFasterAndItNamesBoth() {
    List<ReplayResult> lawnFaster = List.of(
        result("lawn", 79.4, 0.30, 38, 0, Map.of()),
        result("wheel", 99.6, 0.10, 39, 0, Map.of()),
        result("heap", 185, 0.05, 58, 0, Map.of()));
    List<ReplayResult> wheelFaster = List.of(
        result("lawn", 99.6, 0.30, 38, 0, Map.of()),
        result("wheel", 79.4, 0.10, 39, 0, Map.of()),
        result("heap", 185, 0.05, 58, 0, Map.of()));

    assertThat(Advisor.pick(lawnFaster).contender().strategy()).isEqualTo("lawn");
    assertThat(Advisor.pick(wheelFaster).contender().strategy()).isEqualTo("lawn");
    assertThat(Advisor.recommend(PROFILE, wheelFaster, "1 ms"))
        .startsWith("Use `lawn` at a resolution of 1 ms")
        .contains("in 99.6 ns per operation, within 30% of `wheel` (79.4 ns) with less memory"
            + " (38.0 against 39.0 bytes per timer)")
        .contains("`lawn` and `wheel` are within the noise of this replay: a typical chunk of the"
            + " trace took up to 30% longer in its next-best pass than in its best, and results"
            + " closer than that (or than 5%) count as a tie")
        .contains("and 1.86× as fast as `heap`");
  }

  @Test
  void memoryThatDiffersByLessThanAByteIsShownToATenth() {
    List<ReplayResult> results = List.of(
        result("lawn", 45.1, 0.50, 38.7, 0, Map.of()),
        result("hitime", 42.5, 0.17, 39.2, 0, Map.of()));

    assertThat(Advisor.recommend(PROFILE, results, "1 ms"))
        .startsWith("Use `lawn`")
        .contains("with less memory (38.7 against 39.2 bytes per timer)");
  }

  @Test
  void aGapWiderThanTheNoiseIsNoTie() {
    List<ReplayResult> results = List.of(
        result("lawn", 99.6, 0.10, 38, 0, Map.of()),
        result("wheel", 79.4, 0.10, 39, 0, Map.of()));

    assertThat(Advisor.tied(results.get(0), results.get(1))).isFalse();
    assertThat(Advisor.pick(results).contender().strategy()).isEqualTo("wheel");
    assertThat(Advisor.recommend(PROFILE, results, "1 ms"))
        .contains("1.25× as fast as the next strategy, `lawn` (99.6 ns)")
        .doesNotContain("within the noise");
  }

  @Test
  void aTieOnMemoryIsDecidedByLatenessThenWakeUps() {
    List<ReplayResult> results = List.of(
        result("cascade", 100, 0, 40, 0.75, Map.of()),
        result("wheel", 102, Double.NaN, 40, 0.25, Map.of()));

    assertThat(Advisor.pick(results).contender().strategy()).isEqualTo("wheel");
    assertThat(Advisor.recommend(PROFILE, results, "1 ms"))
        .contains("within 5% of `cascade` (100 ns) with less lateness (a mean of 0.25 against"
            + " 0.75 ticks)")
        .contains("`wheel` and `cascade` are within the noise");
  }

  @Test
  void heapWithinTheNoiseIsNamedAmongTheTiedNotComparedBeside() {
    List<ReplayResult> results = List.of(
        result("lawn", 152, 1.0, 38, 0, Map.of()),
        result("heap", 247, 1.3, 58, 0, Map.of()));

    assertThat(Advisor.recommend(PROFILE, results, "1 ms"))
        .startsWith("Use `lawn`")
        .contains("`lawn` and `heap` are within the noise of this replay: a typical chunk of the"
            + " trace took up to 130% longer")
        .doesNotContain("as fast as `heap`");
  }
}
