package io.github.timerqueue.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * The results as a table, workload by contender: as aligned text for the terminal and as Markdown
 * for docs/benchmarks.md. Each cell is the time (ns per operation, or per fired timer for the
 * expiring workloads) with its 99.9% confidence half-width, the bytes allocated per the same unit,
 * and the whole process's CPU time per the same unit with the share of it outside the benchmark
 * thread ({@link ProcessCpuProfiler}); the Markdown puts the CPU in a table of its own.
 */
final class ResultTable {
  private static final String CPU_LEGEND = "CPU: the whole JVM's CPU time per the same unit"
      + " (benchmark thread, collector, G1 refinement, JIT; " + ProcessCpuProfiler.class
      .getSimpleName() + "); others: its share outside the benchmark thread (refinement: in G1's"
      + " concurrent refinement threads). Wall time hides that share while a core is free and"
      + " charges it erratically when none is.\n";

  private ResultTable() {}

  /** The table as aligned plain text, with its notes. */
  static String text(Results results) {
    Map<Workload, Integer> notes = results.agronaNotes();
    List<String[]> lines = new ArrayList<>();
    List<String> header = new ArrayList<>(List.of("workload", "pending"));
    for (String contender : results.contenders()) {
      header.add(contender);
      header.add("alloc");
      header.add("cpu (others)");
    }
    lines.add(header.toArray(String[]::new));
    for (Results.Row row : results.rows()) {
      List<String> line = new ArrayList<>(List.of(row.label(), Numbers.count(row.pending())));
      for (String contender : results.contenders()) {
        Optional<Measurement> m = results.find(row, contender);
        String mark = mark(notes, row.workload(), contender);
        if (m.isPresent()) {
          line.add(time(m.get()) + mark);
          line.add(Numbers.bytes(m.get().bytes()) + " B");
          line.add(Double.isNaN(m.get().cpuNanos()) ? "-"
              : Numbers.nanos(m.get().cpuNanos()) + " (" + percent(m.get().othersShare()) + ")");
        } else {
          line.add(absent(row.workload(), contender) + mark);
          line.add("");
          line.add("");
        }
      }
      lines.add(line.toArray(String[]::new));
    }
    if (!results.bytesPerTimer().isEmpty()) {
      List<String> line = new ArrayList<>(
          List.of("memory per timer (B)", Numbers.count(results.memoryTimers())));
      for (String contender : results.contenders()) {
        Double bytes = results.bytesPerTimer().get(contender);
        line.add(bytes == null ? "failed" : String.format(Locale.ROOT, "%.1f", bytes));
        line.add("");
        line.add("");
      }
      lines.add(line.toArray(String[]::new));
    }
    StringBuilder text = new StringBuilder();
    for (String about : results.about()) {
      text.append(about).append('\n');
    }
    text.append('\n').append(align(lines)).append('\n');
    text.append(legend(results, notes));
    if (hasCpu(results)) {
      text.append(CPU_LEGEND);
    }
    return text.toString();
  }

  /** The table in Markdown, with its notes. */
  static String markdown(Results results) {
    Map<Workload, Integer> notes = results.agronaNotes();
    StringBuilder md = new StringBuilder();
    for (String about : results.about()) {
      md.append(about).append("  \n");
    }
    md.append('\n');
    appendHeader(md, "Workload", results.contenders());
    for (Results.Row row : results.rows()) {
      appendRowStart(md, row);
      for (String contender : results.contenders()) {
        Optional<Measurement> m = results.find(row, contender);
        String mark = mark(notes, row.workload(), contender);
        md.append(' ');
        if (m.isPresent()) {
          md.append(time(m.get())).append(" ns, ").append(Numbers.bytes(m.get().bytes()))
              .append(" B");
        } else {
          md.append(absent(row.workload(), contender));
        }
        md.append(mark).append(" |");
      }
      md.append('\n');
    }
    if (!results.bytesPerTimer().isEmpty()) {
      md.append("| memory per pending timer | ").append(Numbers.count(results.memoryTimers()))
          .append(" |");
      for (String contender : results.contenders()) {
        Double bytes = results.bytesPerTimer().get(contender);
        md.append(' ').append(bytes == null ? "failed"
            : String.format(Locale.ROOT, "%.1f B", bytes)).append(" |");
      }
      md.append('\n');
    }
    md.append('\n').append(legend(results, notes).replace("\n", "  \n"));
    return md.toString();
  }

  /**
   * The whole process's CPU time per operation (per fired timer for the expiring workloads) in
   * Markdown, workload by contender, with the shares spent outside the benchmark thread and in G1's
   * concurrent refinement; empty if no measurement has it (a run without {@link
   * ProcessCpuProfiler}).
   */
  static String cpuMarkdown(Results results) {
    if (!hasCpu(results)) {
      return "";
    }
    StringBuilder md = new StringBuilder();
    appendHeader(md, "Process CPU", results.contenders());
    for (Results.Row row : results.rows()) {
      appendRowStart(md, row);
      for (String contender : results.contenders()) {
        Optional<Measurement> m = results.find(row, contender);
        String cell;
        if (m.isEmpty()) {
          cell = absent(row.workload(), contender);
        } else if (Double.isNaN(m.get().cpuNanos())) {
          cell = "-";
        } else {
          cell = Numbers.nanos(m.get().cpuNanos()) + " ns, " + percent(m.get().othersShare())
              + " others (" + percent(m.get().refineShare()) + " refinement)";
        }
        md.append(' ').append(cell).append(" |");
      }
      md.append('\n');
    }
    md.append('\n').append(CPU_LEGEND.replace("\n", "  \n"));
    return md.toString();
  }

  /**
   * Each strategy's time as a ratio to Agrona's in the same row (below 1: faster than Agrona), and
   * its memory per pending timer as a ratio to Agrona's, in Markdown; empty if Agrona was not run.
   * A row Agrona cannot express is left out.
   */
  static String ratiosToAgrona(Results results) {
    return ratiosToAgrona(results, "strategy ÷ Agrona", Measurement::nanos, true);
  }

  /**
   * Each strategy's process CPU time per operation ({@link Measurement#cpuNanos()}) as a ratio to
   * Agrona's in the same row, in Markdown; empty if Agrona was not run or no measurement has it.
   * A row Agrona cannot express is left out.
   */
  static String cpuRatiosToAgrona(Results results) {
    if (!hasCpu(results)) {
      return "";
    }
    return ratiosToAgrona(results, "process CPU ÷ Agrona", Measurement::cpuNanos, false);
  }

  /** Appends a Markdown table's header: {@code title}, the pending timers, then {@code columns}. */
  private static void appendHeader(StringBuilder md, String title, List<String> columns) {
    md.append("| ").append(title).append(" | Pending |");
    for (String column : columns) {
      md.append(' ').append(column).append(" |");
    }
    md.append("\n|---|---:|").append("---:|".repeat(columns.size())).append('\n');
  }

  /** Appends the first two cells of {@code row}: its label and its pending timers. */
  private static void appendRowStart(StringBuilder md, Results.Row row) {
    md.append("| ").append(row.label()).append(" | ").append(Numbers.count(row.pending()))
        .append(" |");
  }

  private static String ratiosToAgrona(Results results, String title,
      ToDoubleFunction<Measurement> value, boolean withMemory) {
    List<String> strategies = new ArrayList<>(results.contenders());
    if (!strategies.remove(Contenders.AGRONA) || strategies.isEmpty()) {
      return "";
    }
    StringBuilder md = new StringBuilder();
    appendHeader(md, title, strategies);
    for (Results.Row row : results.rows()) {
      Optional<Measurement> agrona = results.find(row, Contenders.AGRONA);
      if (agrona.isEmpty()) {
        continue;
      }
      appendRowStart(md, row);
      for (String strategy : strategies) {
        Optional<Measurement> m = results.find(row, strategy);
        md.append(' ').append(m.isPresent()
            ? ratio(value.applyAsDouble(m.get()), value.applyAsDouble(agrona.get()))
            : absent(row.workload(), strategy))
            .append(" |");
      }
      md.append('\n');
    }
    Double agronaBytes = results.bytesPerTimer().get(Contenders.AGRONA);
    if (withMemory && agronaBytes != null) {
      md.append("| memory per pending timer | ").append(Numbers.count(results.memoryTimers()))
          .append(" |");
      for (String strategy : strategies) {
        Double bytes = results.bytesPerTimer().get(strategy);
        md.append(' ').append(bytes == null ? "failed" : ratio(bytes, agronaBytes)).append(" |");
      }
      md.append('\n');
    }
    return md.toString();
  }

  private static String ratio(double value, double agrona) {
    double ratio = value / agrona;
    return Double.isNaN(ratio) ? "-" : String.format(Locale.ROOT, "%.2f", ratio);
  }

  /** Whether any measurement has the process's CPU time ({@link ProcessCpuProfiler} ran). */
  private static boolean hasCpu(Results results) {
    return results.measurements().stream().anyMatch(m -> !Double.isNaN(m.cpuNanos()));
  }

  /** A percentage, whole: {@code -} where it was not measured. */
  private static String percent(double value) {
    return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.0f%%", value);
  }

  /** The time with its error; a single measured iteration has none. */
  private static String time(Measurement m) {
    String nanos = Numbers.nanos(m.nanos());
    return Double.isNaN(m.error()) ? nanos : nanos + " ± " + Numbers.nanos(m.error());
  }

  private static String absent(Workload workload, String contender) {
    return workload.runsOn(contender) ? "failed" : "n/a";
  }

  private static String mark(Map<Workload, Integer> notes, Workload workload, String contender) {
    Integer note = notes.get(workload);
    return note != null && contender.equals(Contenders.AGRONA) ? " [" + note + "]" : "";
  }

  private static String legend(Results results, Map<Workload, Integer> notes) {
    StringBuilder legend = new StringBuilder();
    legend.append("Time: ns per operation (expire, TTL expire: per fired timer) ± JMH's 99.9%"
        + " confidence half-width. B: bytes allocated per the same unit (-prof gc).\n");
    if (!results.bytesPerTimer().isEmpty()) {
      legend.append("Memory per pending timer: JOL's total size of everything the structure"
          + " holding " + Numbers.count(results.memoryTimers()) + " timers reaches (one shared"
          + " payload), divided by the timers.\n");
    }
    for (Map.Entry<Workload, Integer> note : notes.entrySet()) {
      legend.append('[').append(note.getValue()).append("] ").append(Contenders.AGRONA)
          .append(", ").append(note.getKey().label()).append(": ")
          .append(note.getKey().agronaNote()).append('\n');
    }
    if (results.contenders().contains(Contenders.AGRONA)) {
      legend.append(Contenders.AGRONA).append(": DeadlineTimerWheel with one spoke per ")
          .append(AgronaWheels.TIMERS_PER_SPOKE).append(" pending timers (")
          .append(AgronaWheels.MIN_SPOKES).append(" to ").append(AgronaWheels.MAX_SPOKES)
          .append(" spokes), tick = the common resolution.\n");
    }
    return legend.toString();
  }

  /**
   * Pads columns to their widest cell: the first left-aligned, the others right-aligned, with a
   * wider gap after the population and after each contender's three columns.
   */
  private static String align(List<String[]> lines) {
    int columns = lines.get(0).length;
    int[] widths = new int[columns];
    for (String[] line : lines) {
      for (int c = 0; c < columns; c++) {
        widths[c] = Math.max(widths[c], line[c].length());
      }
    }
    StringBuilder text = new StringBuilder();
    for (String[] line : lines) {
      StringBuilder row = new StringBuilder();
      for (int c = 0; c < columns; c++) {
        String cell = line[c];
        String padding = " ".repeat(widths[c] - cell.length());
        row.append(c == 0 ? cell + padding : padding + cell).append(c % 3 == 1 ? "    " : "  ");
      }
      text.append(row.toString().stripTrailing()).append('\n');
    }
    return text.toString();
  }
}
