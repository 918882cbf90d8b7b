package io.github.timerqueue.bench.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.timerqueue.trace.TraceFormatException;
import io.github.timerqueue.trace.TraceWriter;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The three bundled traces (generated here, small) replayed on every contender: each gives a
 * recommendation, every contender fires the same timers, and none fires a timer late.
 */
class TraceReplayTest {

  @TempDir
  Path dir;

  private Path trace(TraceShape shape, long operations) throws IOException {
    Path file = dir.resolve(shape.label() + ".trace");
    TraceGenerator.generate(shape, 1, operations, TraceWriter.binary(
        new java.io.BufferedOutputStream(Files.newOutputStream(file)), TraceGenerator.HEADER));
    return file;
  }

  private static TraceReplay.Report replay(Path trace, String... extra) throws IOException {
    List<String> args = new java.util.ArrayList<>(List.of("--trace", trace.toString(),
        "--in-process", "--passes", "1"));
    args.addAll(Arrays.asList(extra));
    return TraceReplay.replay(TraceReplay.Settings.parse(args),
        new PrintStream(OutputStream.nullOutputStream()));
  }

  @ParameterizedTest
  @EnumSource(value = TraceShape.class, names = {"RPC", "IDLE", "CACHE"})
  void eachBundledTraceGetsARecommendationAndEveryContenderAgrees(TraceShape shape)
      throws IOException {
    TraceReplay.Report report = replay(trace(shape, 30_000));

    assertThat(report.results()).extracting(r -> r.contender().label())
        .containsExactlyElementsOf(Contender.all().stream().map(Contender::label).toList());
    // Every contender saw the same trace: the same timers fired, on time to the tick.
    long fired = report.results().get(0).fired();
    assertThat(report.results()).allSatisfy(r -> {
      assertThat(r.fired()).as(r.contender().label()).isEqualTo(fired);
      assertThat(r.maxLateness()).as(r.contender().label()).isZero();
      assertThat(r.nanosPerOp()).as(r.contender().label()).isPositive();
      assertThat(r.bytesPerTimer()).as(r.contender().label()).isPositive();
      assertThat(r.peakPending()).isEqualTo(report.results().get(0).peakPending());
    });
    ReplayResult pick = Advisor.pick(report.results());
    assertThat(pick.contender().strategy()).isNotEqualTo(Contender.AGRONA);
    assertThat(report.recommendation())
        .startsWith("Use `" + pick.contender().strategy() + "`")
        .contains("at a resolution of 1 ms")
        .contains("Why: ")
        .contains("Agrona's DeadlineTimerWheel");
    assertThat(report.json())
        .contains("\"recommended\": \"" + pick.contender().label() + "\"")
        .contains("\"records\": " + report.profile().records());
    assertThat(report.text()).contains(report.recommendation());
  }

  @Test
  void theProfileDescribesTheTrace() throws IOException {
    TraceReplay.Report report = replay(trace(TraceShape.RPC, 30_000), "--only", "heap");

    TraceProfile profile = report.profile();
    assertThat(profile.cancelledShare()).isBetween(0.9, 1.0);
    assertThat(profile.distinctDelays()).isEqualTo(2);
    assertThat(profile.bytesPerRecord()).isLessThan(4);
    assertThat(profile.dropped()).isZero();
  }

  @Test
  void aCoarserResolutionRoundsDeadlinesUpNeverEarly() throws IOException {
    Path file = trace(TraceShape.RETRY, 20_000);

    TraceReplay.Report fine = replay(file, "--only", "heap");
    TraceReplay.Report coarse = replay(file, "--only", "heap", "--resolution", "16000000");

    assertThat(coarse.recommendation()).contains("at a resolution of 16 ms");
    assertThat(coarse.profile().spanTicks()).isEqualTo(fine.profile().spanTicks() / 16);
  }

  @Test
  void aTruncatedTraceStopsTheReplayWithTheOffset() throws IOException {
    Path file = trace(TraceShape.RPC, 20_000);
    byte[] bytes = Files.readAllBytes(file);
    Files.write(file, Arrays.copyOf(bytes, bytes.length - 10));

    assertThatThrownBy(() -> replay(file, "--only", "heap"))
        .isInstanceOf(TraceFormatException.class)
        .hasMessageContaining("byte offset");
  }

  @Test
  void replaysAHandWrittenTextTrace() throws IOException {
    Path file = dir.resolve("hand.txt");
    Files.writeString(file, String.join("\n",
        "# timerqueue-trace 1 unitNanos=1000000 resolution=1 start=0",
        "0 schedule 1 100",
        "0 schedule 2 50",
        "10 cancel 1",
        "200 advance",
        ""), StandardCharsets.US_ASCII);

    TraceReplay.Report report = replay(file, "--only", "heap,wheel,agrona");

    assertThat(report.results()).allSatisfy(r -> {
      assertThat(r.fired()).isEqualTo(1);
      assertThat(r.maxLateness()).isZero();
    });
    // An event loop on an exact strategy wakes once, at 50 ms, between the recorded times.
    assertThat(report.results().get(0).wakeups()).isEqualTo(1);
    assertThat(report.results().get(0).idleWakeups()).isZero();
  }

  @Test
  void theChartHasPanelsForTimeMemoryAndWakeUps() throws IOException {
    Path file = trace(TraceShape.RPC, 2_000);
    TraceReplay.Report measured = replay(file, "--only", "heap,wheel,agrona");
    TraceReplay.Report withoutMemory = replay(file, "--only", "heap,wheel", "--no-memory");

    ReplayChart.write(measured.results(), dir.resolve("measured.png"));
    ReplayChart.write(withoutMemory.results(), dir.resolve("without-memory.png"));

    // Time, memory and wake-ups: two rows of two. Without memory: one row.
    BufferedImage three = ImageIO.read(dir.resolve("measured.png").toFile());
    assertThat(three.getWidth()).isEqualTo(2 * 620);
    assertThat(three.getHeight()).isEqualTo(2 * 400);
    BufferedImage two = ImageIO.read(dir.resolve("without-memory.png").toFile());
    assertThat(two.getHeight()).isEqualTo(400);
  }

  @Test
  void refusesAResolutionThatIsNotAMultipleOfTheTraces() throws IOException {
    Path file = trace(TraceShape.RPC, 1_000);

    assertThatThrownBy(() -> replay(file, "--resolution", "1500000"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a multiple of the trace's resolution 1000000");
  }

  @Test
  void forksAJvmPerContenderAndReadsItsResultBack() throws IOException {
    Path file = trace(TraceShape.RPC, 5_000);

    TraceReplay.Report report = TraceReplay.replay(TraceReplay.Settings.parse(List.of(
        "--trace", file.toString(), "--only", "hitime", "--passes", "1", "--no-memory")),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));

    assertThat(report.results()).singleElement().satisfies(r -> {
      assertThat(r.contender().label()).isEqualTo("hitime");
      assertThat(r.nanosPerOp()).isPositive();
      assertThat(r.bytesPerTimer()).isNaN();
    });
    assertThat(report.profile().records()).isGreaterThanOrEqualTo(5_000);
  }
}
