package io.github.timerqueue.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How results are printed and drawn, on hand-made measurements. */
class ResultRenderingTest {
  private static final List<String> CONTENDERS = List.of("heap", Contenders.AGRONA);

  @TempDir
  Path dir;

  private final Results results = new Results(
      List.of("hand-made results"),
      CONTENDERS,
      List.of(
          new Results.Row(Workload.RESCHEDULE, 0, 1_000),
          new Results.Row(Workload.TTL, 16, 1_000_000),
          new Results.Row(Workload.NEXT_EXPIRY_DELAY, 0, 1_000)),
      List.of(
          new Measurement(Workload.RESCHEDULE, "heap", 1_000, 0, 21.04, 0.5, 0.0004,
              30.4, 31.2, 20.4),
          new Measurement(Workload.RESCHEDULE, Contenders.AGRONA, 1_000, 0, 18.2, 1.25, 0,
              19.0, 2.4, 0.1),
          new Measurement(Workload.TTL, "heap", 1_000_000, 16, 1234.5, 98.7, 16.2,
              1500, 12, 3),
          new Measurement(Workload.NEXT_EXPIRY_DELAY, "heap", 1_000, 0, 1.234, 0.01, 0,
              1.25, 0.5, 0)),
      1_000_000,
      Map.of("heap", 68.58, Contenders.AGRONA, 33.55));

  @Test
  void tableHasARowPerWorkloadAndPopulationAndAColumnPerContender() {
    String table = ResultTable.text(results);

    assertThat(table).contains("hand-made results");
    assertThat(table.lines().filter(line -> line.startsWith("reschedule"))).singleElement()
        .asString()
        .matches("reschedule +1,000 +21\\.0 ± 0\\.50 +0 B +30\\.4 \\(31%\\)"
            + " +18\\.2 ± 1\\.25 \\[1\\] +0 B +19\\.0 \\(2%\\)");
    assertThat(table).containsPattern("TTL expire \\(16 TTLs\\) +1,000,000 +1,235 ± 98\\.7 +16 B"
        + " +1,500 \\(12%\\) +failed \\[2\\]");
    assertThat(table).containsPattern(
        "nextExpiryDelay +1,000 +1\\.23 ± 0\\.01 +0 B +1\\.25 \\(1%\\) +n/a \\[3\\]");
    assertThat(table).containsPattern("memory per timer \\(B\\) +1,000,000 +68\\.6 +33\\.6");
    assertThat(table).contains("[1] agrona, reschedule: " + Workload.RESCHEDULE.agronaNote());
    assertThat(table).contains("[3] agrona, nextExpiryDelay: not expressible");
    assertThat(table).contains("CPU: the whole JVM's CPU time per the same unit");
  }

  @Test
  void cpuTableShowsTheProcessCpuAndTheSharesOutsideTheBenchmarkThread() {
    String cpu = ResultTable.cpuMarkdown(results);

    assertThat(cpu).contains("| Process CPU | Pending | heap | agrona |");
    assertThat(cpu).contains("| reschedule | 1,000 | 30.4 ns, 31% others (20% refinement) |"
        + " 19.0 ns, 2% others (0% refinement) |");
    assertThat(cpu).contains("| TTL expire (16 TTLs) | 1,000,000 |"
        + " 1,500 ns, 12% others (3% refinement) | failed |");
    assertThat(cpu).contains("| nextExpiryDelay | 1,000 | 1.25 ns, 1% others (0% refinement) |"
        + " n/a |");
    assertThat(ResultTable.cpuRatiosToAgrona(results))
        .contains("| process CPU ÷ Agrona | Pending | heap |")
        .contains("| reschedule | 1,000 | 1.60 |")
        .doesNotContain("TTL expire")
        .doesNotContain("memory");
  }

  @Test
  void withoutTheCpuProfilerThereIsNoCpuTableAndTheCellsSayNotMeasured() {
    List<Measurement> withoutCpu = results.measurements().stream()
        .map(m -> new Measurement(m.workload(), m.contender(), m.pending(), m.ttls(), m.nanos(),
            m.error(), m.bytes(), Double.NaN, Double.NaN, Double.NaN))
        .toList();
    Results noCpu = new Results(results.about(), results.contenders(), results.rows(),
        withoutCpu, results.memoryTimers(), results.bytesPerTimer());

    assertThat(ResultTable.cpuMarkdown(noCpu)).isEmpty();
    List<Measurement> partly = new ArrayList<>(results.measurements());
    partly.set(1, withoutCpu.get(1));
    Results oneWithoutCpu = new Results(results.about(), results.contenders(), results.rows(),
        partly, results.memoryTimers(), results.bytesPerTimer());
    assertThat(ResultTable.cpuMarkdown(oneWithoutCpu))
        .contains("| reschedule | 1,000 | 30.4 ns, 31% others (20% refinement) | - |");
    assertThat(ResultTable.cpuRatiosToAgrona(oneWithoutCpu)).contains("| reschedule | 1,000 | - |");
    assertThat(ResultTable.cpuRatiosToAgrona(noCpu)).isEmpty();
    assertThat(ResultTable.text(noCpu))
        .containsPattern("reschedule +1,000 +21\\.0 ± 0\\.50 +0 B +- +18\\.2")
        .doesNotContain("CPU:");
  }

  @Test
  void markdownTableHasTheSameCells() {
    String markdown = ResultTable.markdown(results);

    assertThat(markdown).contains("| Workload | Pending | heap | agrona |");
    assertThat(markdown).contains(
        "| reschedule | 1,000 | 21.0 ± 0.50 ns, 0 B | 18.2 ± 1.25 ns, 0 B [1] |");
    assertThat(markdown).contains("| nextExpiryDelay | 1,000 | 1.23 ± 0.01 ns, 0 B | n/a [3] |");
    assertThat(markdown).contains("| memory per pending timer | 1,000,000 | 68.6 B | 33.6 B |");
  }

  @Test
  void chartHasAPanelPerWorkloadAndOneForMemoryInTwoColumns() throws Exception {
    Path png = dir.resolve("chart.png");

    ResultChart.write(results, png);

    BufferedImage image = ImageIO.read(png.toFile());
    // Three workload panels and the memory panel: two rows of two.
    assertThat(image.getWidth()).isEqualTo(2 * 620);
    assertThat(image.getHeight()).isEqualTo(2 * 400);
  }

  @Test
  void chartWithAnOddNumberOfPanelsLeavesTheLastCellBlank() throws Exception {
    Path png = dir.resolve("odd.png");
    Results withoutMemory = new Results(results.about(), results.contenders(), results.rows(),
        results.measurements(), results.memoryTimers(), Map.of());

    ResultChart.write(withoutMemory, png);

    BufferedImage image = ImageIO.read(png.toFile());
    assertThat(image.getHeight()).isEqualTo(2 * 400);
    assertThat(image.getRGB(620 + 310, 400 + 200)).isEqualTo(0xFFFFFFFF);
  }
}
