package io.github.timerqueue.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How {@code timer-bench/run --update-docs} rewrites the generated section of the docs. */
class GeneratedSectionTest {
  private static final String BEFORE = "# Benchmarks\n\nProse the lead wrote.  \n\n";
  private static final String AFTER = "\n## Notes\n\nMore prose, *untouched*.\n";
  private static final String DOCUMENT = BEFORE + GeneratedSection.BEGIN + "\nold table\n| a |\n"
      + GeneratedSection.END + AFTER;

  @TempDir
  Path dir;

  @Test
  void replacesWhatIsBetweenTheMarkersAndLeavesEverythingElseAsItWas() {
    String updated = GeneratedSection.replace(DOCUMENT, "new table", "benchmarks.md");

    assertThat(updated).isEqualTo(BEFORE + GeneratedSection.BEGIN + "\nnew table\n"
        + GeneratedSection.END + AFTER);
    // Again: the result still has its markers, and the same content gives the same document.
    assertThat(GeneratedSection.replace(updated, "new table\n", "benchmarks.md"))
        .isEqualTo(updated);
  }

  @Test
  void aDocumentWithoutBothMarkersIsRefusedNamingTheMissingOne() {
    String noBegin = DOCUMENT.replace(GeneratedSection.BEGIN + "\n", "");
    String noEnd = DOCUMENT.replace(GeneratedSection.END + "\n", "");

    assertThatThrownBy(() -> GeneratedSection.replace(noBegin, "x", "docs/benchmarks.md"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("docs/benchmarks.md has no line " + GeneratedSection.BEGIN);
    assertThatThrownBy(() -> GeneratedSection.replace(noEnd, "x", "docs/benchmarks.md"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("docs/benchmarks.md has no line " + GeneratedSection.END);
    assertThatThrownBy(() -> GeneratedSection.replace("# Benchmarks\n", "x", "b.md"))
        .hasMessageContaining("goes between a line " + GeneratedSection.BEGIN);
  }

  @Test
  void markersOutOfOrderTwiceOrInsideALineAreRefused() {
    String swapped = BEFORE + GeneratedSection.END + "\nx\n" + GeneratedSection.BEGIN + AFTER;
    String twice = DOCUMENT + GeneratedSection.BEGIN + "\n";
    String inline = BEFORE + "see " + GeneratedSection.BEGIN + "\nx\n" + GeneratedSection.END
        + AFTER;

    assertThatThrownBy(() -> GeneratedSection.replace(swapped, "x", "b.md"))
        .hasMessageContaining("comes before");
    assertThatThrownBy(() -> GeneratedSection.replace(twice, "x", "b.md"))
        .hasMessageContaining("more than one line " + GeneratedSection.BEGIN);
    assertThatThrownBy(() -> GeneratedSection.replace(inline, "x", "b.md"))
        .hasMessageContaining("has no line " + GeneratedSection.BEGIN);
  }

  @Test
  void updatesTheFileInPlace() throws Exception {
    Path file = dir.resolve("benchmarks.md");
    Files.writeString(file, DOCUMENT, StandardCharsets.UTF_8);

    GeneratedSection.update(file, "| ratio |\n");

    assertThat(Files.readString(file)).startsWith(BEFORE).endsWith(AFTER)
        .contains(GeneratedSection.BEGIN + "\n| ratio |\n" + GeneratedSection.END);
  }

  @Test
  void aRunThatWouldUpdateDocsWithoutMarkersStopsBeforeItMeasuresAnything() throws Exception {
    Path file = dir.resolve("benchmarks.md");
    Files.writeString(file, "# Benchmarks\n", StandardCharsets.UTF_8);
    Compare.Settings settings = Compare.Settings.parse("--strategies", "heap", "--update-docs",
        "--docs", file.toString(), "--out", dir.toString());
    ByteArrayOutputStream printed = new ByteArrayOutputStream();

    assertThatThrownBy(() -> Compare.run(settings, new PrintStream(printed, true,
        StandardCharsets.UTF_8)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(file + " has no line " + GeneratedSection.BEGIN);
    assertThat(printed.toString(StandardCharsets.UTF_8)).isEmpty();
    assertThat(Files.readString(file)).isEqualTo("# Benchmarks\n");
  }

  @Test
  void theCommandLeavesOutWhereResultsAndDocsGo() {
    Compare.Settings settings = Compare.Settings.parse("--docs", "/x/docs/benchmarks.md",
        "--full", "--forks", "1", "--out", "/x/results", "--sizes", "1000000", "--update-docs");

    assertThat(settings.updateDocs()).isTrue();
    assertThat(settings.docs()).isEqualTo(Path.of("/x/docs/benchmarks.md"));
    assertThat(settings.command())
        .isEqualTo("timer-bench/run --full --forks 1 --sizes 1000000 --update-docs");
    assertThat(Compare.Settings.parse().updateDocs()).isFalse();
  }

  @Test
  void theSectionNamesItsCommandAndDateAndHoldsTheTablesAndTheChart() {
    List<String> contenders = List.of("hitime", "wheel", Contenders.AGRONA);
    Results results = new Results(
        List.of("timer-bench full run"),
        contenders,
        List.of(new Results.Row(Workload.SCHEDULE_CANCEL, 0, 1_000_000),
            new Results.Row(Workload.NEXT_EXPIRY_DELAY, 0, 1_000_000)),
        List.of(
            new Measurement(Workload.SCHEDULE_CANCEL, "hitime", 1_000_000, 0, 138, 15.8, 0,
                150, 20, 10),
            new Measurement(Workload.SCHEDULE_CANCEL, "wheel", 1_000_000, 0, 273, 49.4, 0,
                300, 40.4, 30.2),
            new Measurement(Workload.SCHEDULE_CANCEL, Contenders.AGRONA, 1_000_000, 0, 177, 53.7,
                0, 200, 5, 0),
            new Measurement(Workload.NEXT_EXPIRY_DELAY, "hitime", 1_000_000, 0, 1.42, 0.03, 0,
                1.5, 1, 0),
            new Measurement(Workload.NEXT_EXPIRY_DELAY, "wheel", 1_000_000, 0, 1.37, 0.03, 0,
                1.4, 1, 0)),
        1_000_000,
        Map.of("hitime", 36.2, "wheel", 38.1, Contenders.AGRONA, 33.6));

    String section = Compare.docsSection(results, "timer-bench/run --full --update-docs",
        ZonedDateTime.of(2026, 11, 26, 4, 30, 0, 0, ZoneOffset.UTC));

    assertThat(section)
        .startsWith("Generated by `timer-bench/run --full --update-docs` on 2026-11-26 04:30 UTC")
        .contains("| schedule+cancel | 1,000,000 | 138 ± 15.8 ns, 0 B | 273 ± 49.4 ns, 0 B |"
            + " 177 ± 53.7 ns, 0 B |")
        .contains("](" + Compare.DOCS_CHART + ")")
        .contains("| strategy ÷ Agrona | Pending | hitime | wheel |")
        .contains("| schedule+cancel | 1,000,000 | 0.78 | 1.54 |")
        .contains("| memory per pending timer | 1,000,000 | 1.08 | 1.13 |")
        .contains("| Process CPU | Pending | hitime | wheel | agrona |")
        .contains("| schedule+cancel | 1,000,000 | 150 ns, 20% others (10% refinement) |"
            + " 300 ns, 40% others (30% refinement) | 200 ns, 5% others (0% refinement) |")
        .contains("| process CPU ÷ Agrona | Pending | hitime | wheel |")
        .contains("| schedule+cancel | 1,000,000 | 0.75 | 1.50 |");
    // Agrona cannot answer nextExpiryDelay: the ratios have no row for it.
    String ratios = section.substring(section.indexOf("strategy ÷ Agrona"));
    assertThat(ratios.substring(0, ratios.indexOf("| Process CPU |")))
        .doesNotContain("nextExpiryDelay");
    assertThat(section.substring(section.indexOf("process CPU ÷ Agrona")))
        .doesNotContain("nextExpiryDelay")
        .doesNotContain("memory per pending timer");
  }
}
