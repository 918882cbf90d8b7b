package io.github.timerqueue.bench.runtime;

import java.util.ArrayList;
import java.util.List;

/** Renders the runtime comparison as an aligned text table and as Markdown. */
final class RuntimeTable {
  private static final List<String> HEADER = List.of(
      "impl", "sched+cancel 1T ops/s", "sched+cancel 4T ops/s", "B/op 1T", "B/op 4T",
      "reschedule 1T ops/s", "reschedule 4T ops/s",
      "late p50", "late p99", "late p99.9", "late max", "idle wake-ups/s", "service wake-ups/s");

  private RuntimeTable() {}

  static String text(List<String> about, List<RuntimeRow> rows) {
    List<List<String>> cells = cells(rows);
    int[] widths = new int[HEADER.size()];
    for (List<String> line : cells) {
      for (int c = 0; c < line.size(); c++) {
        widths[c] = Math.max(widths[c], line.get(c).length());
      }
    }
    StringBuilder out = new StringBuilder();
    for (String line : about) {
      out.append(line).append('\n');
    }
    for (List<String> line : cells) {
      for (int c = 0; c < line.size(); c++) {
        String cell = line.get(c);
        out.append(c == 0 ? String.format("%-" + widths[c] + "s", cell)
            : String.format("  %" + widths[c] + "s", cell));
      }
      out.append('\n');
    }
    return out.toString();
  }

  static String markdown(List<String> about, List<RuntimeRow> rows) {
    List<List<String>> cells = cells(rows);
    StringBuilder out = new StringBuilder();
    for (String line : about) {
      out.append(line).append("  \n");
    }
    out.append('\n');
    for (int r = 0; r < cells.size(); r++) {
      out.append("| ").append(String.join(" | ", cells.get(r))).append(" |\n");
      if (r == 0) {
        out.append("|---").append("|---:".repeat(HEADER.size() - 1)).append("|\n");
      }
    }
    return out.toString();
  }

  private static final List<String> FLOOD_HEADER = List.of(
      "impl", "flood scheduled/s", "probe p50", "probe p99", "probe max", "probes",
      "widest backlog");

  /** The flood table ({@link Flood}), as aligned text. */
  static String floodText(List<Flood.Result> floods) {
    List<List<String>> cells = floodCells(floods);
    int[] widths = new int[FLOOD_HEADER.size()];
    for (List<String> line : cells) {
      for (int c = 0; c < line.size(); c++) {
        widths[c] = Math.max(widths[c], line.get(c).length());
      }
    }
    StringBuilder out = new StringBuilder(floodAbout()).append('\n');
    for (List<String> line : cells) {
      for (int c = 0; c < line.size(); c++) {
        out.append(c == 0 ? String.format("%-" + widths[c] + "s", line.get(c))
            : String.format("  %" + widths[c] + "s", line.get(c)));
      }
      out.append('\n');
    }
    return out.toString();
  }

  /** The flood table ({@link Flood}), as Markdown. */
  static String floodMarkdown(List<Flood.Result> floods) {
    List<List<String>> cells = floodCells(floods);
    StringBuilder out = new StringBuilder(floodAbout()).append("  \n\n");
    for (int r = 0; r < cells.size(); r++) {
      out.append("| ").append(String.join(" | ", cells.get(r))).append(" |\n");
      if (r == 0) {
        out.append("|---").append("|---:".repeat(FLOOD_HEADER.size() - 1)).append("|\n");
      }
    }
    return out.toString();
  }

  private static String floodAbout() {
    return "flood: " + Flood.PRODUCERS + " threads schedule zero-delay timeouts as fast as they can"
        + " for " + Flood.MEASURE_NANOS / 1_000_000_000 + " s (after "
        + Flood.WARM_UP_NANOS / 1_000_000 + " ms); a probe keeps one 1 ms timer armed (deadline"
        + " read before the call); widest backlog: most timeouts scheduled and not yet run";
  }

  private static List<List<String>> floodCells(List<Flood.Result> floods) {
    List<List<String>> cells = new ArrayList<>();
    cells.add(FLOOD_HEADER);
    for (Flood.Result flood : floods) {
      Lateness probe = flood.probe();
      cells.add(List.of(flood.impl(),
          RuntimeCompare.operations(flood.scheduledPerSecond()),
          RuntimeCompare.millis(probe.percentile(50)),
          RuntimeCompare.millis(probe.percentile(99)),
          RuntimeCompare.millis(probe.max()),
          Integer.toString(probe.ran()),
          String.format("%,d", flood.widestBacklog()) + (flood.drained() ? "" : " (not drained)")));
    }
    return cells;
  }

  private static List<List<String>> cells(List<RuntimeRow> rows) {
    List<List<String>> cells = new ArrayList<>();
    cells.add(HEADER);
    for (RuntimeRow row : rows) {
      Lateness late = row.lateness();
      IdleWakeups.Rate idle = row.idle();
      cells.add(List.of(row.impl(),
          RuntimeCompare.operations(row.scheduleCancel1()),
          RuntimeCompare.operations(row.scheduleCancel4()),
          RuntimeCompare.bytes(row.bytesPerOp1()),
          RuntimeCompare.bytes(row.bytesPerOp4()),
          RuntimeCompare.operations(row.reschedule1()),
          RuntimeCompare.operations(row.reschedule4()),
          late == null ? "failed" : RuntimeCompare.millis(late.percentile(50)),
          late == null ? "failed" : RuntimeCompare.millis(late.percentile(99)),
          late == null ? "failed" : RuntimeCompare.millis(late.percentile(99.9)),
          late == null ? "failed" : RuntimeCompare.millis(late.max())
              + (late.ran() < late.scheduled() ? " (" + late.ran() + " ran)" : ""),
          idle == null ? "failed" : RuntimeCompare.rate(idle.contextSwitchesPerSecond()),
          idle == null ? "failed" : RuntimeCompare.rate(idle.serviceWakeupsPerSecond())));
    }
    return cells;
  }
}
