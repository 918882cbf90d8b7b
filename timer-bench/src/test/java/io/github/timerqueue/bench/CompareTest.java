package io.github.timerqueue.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What the launcher plans to run, and how it reads its command line. */
class CompareTest {

  @Test
  void quickRunComparesEveryContenderOnEveryWorkloadItCanExpress() {
    Compare.Settings settings = Compare.Settings.parse("--strategies", "heap,agrona");

    List<Compare.Batch> plan = settings.plan();

    assertThat(plan).extracting(Compare.Batch::workload).containsExactly(Workload.values());
    assertThat(batch(plan, Workload.SCHEDULE_CANCEL).sizes()).containsExactly(1_000, 1_000_000);
    assertThat(batch(plan, Workload.NEXT_EXPIRY_DELAY).contenders()).containsExactly("heap");
    assertThat(batch(plan, Workload.IDLE_ADVANCE).sizes()).containsExactly(1_000_000);
    assertThat(batch(plan, Workload.TTL).sizes()).containsExactly(1_000_000);
    assertThat(batch(plan, Workload.TTL).ttls()).containsExactly(1, 16, 10_000);
    // 3 workloads x 2 contenders x 2 sizes, idle 2, TTL 2 x 3, nextExpiryDelay 1 x 2.
    assertThat(plan.stream().mapToInt(Compare.Batch::benchmarks).sum()).isEqualTo(12 + 2 + 6 + 2);
  }

  @Test
  void fullRunLeavesOutTtlCountsThatDoNotFitThePopulation() {
    Compare.Settings settings = Compare.Settings.parse("--full", "--workloads", "ttl");

    List<Compare.Batch> plan = settings.plan();

    assertThat(plan).hasSize(2);
    assertThat(plan.get(0).sizes()).containsExactly(1_000);
    assertThat(plan.get(0).ttls()).containsExactly(1, 16);
    assertThat(plan.get(1).sizes()).containsExactly(100_000, 1_000_000);
    assertThat(plan.get(1).ttls()).containsExactly(1, 16, 10_000);
    assertThat(settings.forks()).isEqualTo(2);
  }

  @Test
  void forksRunAsRoundsOfOneForkEachAndTheEstimateCountsEveryRound() {
    Compare.Settings settings = Compare.Settings.parse(
        "--full", "--forks", "3", "--strategies", "heap,agrona", "--workloads", "expire");

    List<Compare.Batch> plan = settings.plan();

    assertThat(plan).hasSize(1);
    assertThat(plan.get(0).options(settings).getForkCount().get()).isEqualTo(1);
    // 2 contenders x 3 sizes, 3 forks each: 18 runs of 3 + 5 s of iterations and 1.1 s more.
    assertThat(Compare.announcement(settings, plan.get(0).benchmarks())).isEqualTo(
        "Comparing heap, agrona on 1 workload: 6 benchmarks, 3 forks each in 3 interleaved"
            + " rounds: 18 runs, about 2:44.");
    assertThat(settings.describe())
        .isEqualTo("3 forks in interleaved rounds, 3 warm-up x 1000 ms, 5 measured x 1000 ms");
    assertThat(Compare.announcement(Compare.Settings.parse("--strategies", "heap"), 2))
        .endsWith(": 2 benchmark runs, about 0:05.");
    assertThat(Compare.announcement(
            Compare.Settings.parse("--strategies", "heap", "--workloads", "expire"), 1))
        .isEqualTo("Comparing heap on 1 workload: 1 benchmark run, about 0:03.");
  }

  @Test
  void ttlCountThatDoesNotFitFailsTheSetUpAndSaysWhy() {
    TtlExpireBenchmark benchmark = new TtlExpireBenchmark();
    benchmark.strategy = "heap";
    benchmark.pending = 1_000;
    benchmark.ttls = 10_000;

    assertThatThrownBy(benchmark::setUp)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ttls=10000 with pending=1000")
        .hasMessageContaining("at most 250 distinct TTLs");
  }

  @Test
  void unknownOptionsAndNamesAreReportedWithWhatIsAllowed() {
    assertThatThrownBy(() -> Compare.Settings.parse("--strategies", "heap,sundial"))
        .hasMessageContaining("unknown contender 'sundial'")
        .hasMessageContaining(Contenders.names().toString());
    assertThatThrownBy(() -> Compare.Settings.parse("--workloads", "sleep"))
        .hasMessageContaining("unknown workload 'sleep'")
        .hasMessageContaining("schedule-cancel");
    assertThatThrownBy(() -> Compare.Settings.parse("--sizes", "0"))
        .hasMessageContaining("--sizes takes whole numbers of at least 1, not '0'");
    assertThatThrownBy(() -> Compare.Settings.parse("--fast"))
        .hasMessageContaining("unknown option: --fast");
    assertThat(Compare.Settings.parse("--help")).isNull();
  }

  private static Compare.Batch batch(List<Compare.Batch> plan, Workload workload) {
    return plan.stream().filter(b -> b.workload() == workload).findFirst().orElseThrow();
  }
}
