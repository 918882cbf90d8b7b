package io.github.timerqueue.bench.replay;

import io.github.timerqueue.bench.Charts;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.CategoryChart;

/**
 * A trace replay as one PNG: nanoseconds per operation of each kind the trace holds, by contender,
 * on a logarithmic axis; memory per pending timer at the trace's peak; and the wake-ups an event
 * loop would make, with those that fired nothing.
 */
final class ReplayChart {
  private ReplayChart() {}

  /** Draws the replay's charts into {@code png}. */
  static void write(List<ReplayResult> results, Path png) throws IOException {
    List<String> contenders = results.stream().map(r -> r.contender().label()).toList();
    List<CategoryChart> charts = new ArrayList<>();
    charts.add(timeChart(results, contenders));
    if (results.stream().anyMatch(r -> !Double.isNaN(r.bytesPerTimer()))) {
      CategoryChart memory = Charts.newChart("memory per pending timer, at the peak", "bytes");
      memory.addSeries("JOL", contenders,
          results.stream().map(r -> Double.isNaN(r.bytesPerTimer()) ? null : r.bytesPerTimer())
              .toList());
      memory.getStyler().setLegendVisible(false);
      charts.add(memory);
    }
    CategoryChart wakeups = Charts.newChart("event-loop wake-ups", "wake-ups");
    wakeups.addSeries("all", contenders, results.stream().map(r -> (double) r.wakeups()).toList());
    wakeups.addSeries("fired nothing", contenders,
        results.stream().map(r -> (double) r.idleWakeups()).toList());
    charts.add(wakeups);
    Charts.writeGrid(charts, png);
  }

  private static CategoryChart timeChart(List<ReplayResult> results, List<String> contenders) {
    CategoryChart chart = Charts.newChart("replay, by operation", "ns per operation (log)");
    double smallest = Double.POSITIVE_INFINITY;
    double largest = 0;
    List<Double> mix = new ArrayList<>();
    for (ReplayResult r : results) {
      mix.add(positive(r.nanosPerOp()));
    }
    chart.addSeries("trace's mix", contenders, mix);
    for (int kind = 0; kind < ReplayPass.KINDS; kind++) {
      List<Double> nanos = new ArrayList<>();
      for (ReplayResult r : results) {
        nanos.add(positive(r.nanosByKind()[kind]));
      }
      if (nanos.stream().anyMatch(v -> v != null)) {
        chart.addSeries(ReplayPass.KIND_NAMES[kind], contenders, nanos);
      }
    }
    for (ReplayResult r : results) {
      for (double v : r.nanosByKind()) {
        if (positive(v) != null) {
          smallest = Math.min(smallest, v);
          largest = Math.max(largest, v);
        }
      }
      if (positive(r.nanosPerOp()) != null) {
        smallest = Math.min(smallest, r.nanosPerOp());
        largest = Math.max(largest, r.nanosPerOp());
      }
    }
    if (smallest < Double.POSITIVE_INFINITY) {
      Charts.logarithmicAxis(chart, smallest, largest);
    }
    return chart;
  }

  /** The value, or null (no bar) where it is not a positive number: a log axis cannot show it. */
  private static Double positive(double value) {
    return value > 0 && Double.isFinite(value) ? value : null;
  }
}
