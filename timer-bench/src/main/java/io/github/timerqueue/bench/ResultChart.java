package io.github.timerqueue.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.CategoryChart;

/**
 * The results as one PNG: a bar chart per workload (and TTL count) of time by contender, one bar
 * per population, on a logarithmic axis because the contenders differ by orders of magnitude; and
 * a chart of memory per pending timer.
 */
final class ResultChart {
  private ResultChart() {}

  /** Draws the charts into {@code png}. */
  static void write(Results results, Path png) throws IOException {
    List<CategoryChart> charts = new ArrayList<>();
    Map<String, List<Results.Row>> panels = new LinkedHashMap<>();
    for (Results.Row row : results.rows()) {
      String title = row.ttls() == 0 ? row.workload().label()
          : row.workload().label() + ", " + row.ttls() + (row.ttls() == 1 ? " TTL" : " TTLs");
      panels.computeIfAbsent(title, t -> new ArrayList<>()).add(row);
    }
    for (Map.Entry<String, List<Results.Row>> panel : panels.entrySet()) {
      CategoryChart chart = timeChart(results, panel.getKey(), panel.getValue());
      if (chart != null) {
        charts.add(chart);
      }
    }
    if (!results.bytesPerTimer().isEmpty()) {
      charts.add(memoryChart(results));
    }
    Charts.writeGrid(charts, png);
  }

  private static CategoryChart timeChart(Results results, String title, List<Results.Row> rows) {
    Workload workload = rows.get(0).workload();
    CategoryChart chart = Charts.newChart(title,
        workload.perFiredTimer() ? "ns per fired timer (log)" : "ns per operation (log)");
    List<String> contenders = new ArrayList<>();
    for (String contender : results.contenders()) {
      if (workload.runsOn(contender)) {
        contenders.add(contender);
      }
    }
    double smallest = Double.POSITIVE_INFINITY;
    double largest = 0;
    for (Results.Row row : rows) {
      List<Double> nanos = new ArrayList<>();
      for (String contender : contenders) {
        Double value = results.find(row, contender).map(Measurement::nanos)
            .filter(v -> v > 0 && Double.isFinite(v)).orElse(null);
        nanos.add(value);
        if (value != null) {
          smallest = Math.min(smallest, value);
          largest = Math.max(largest, value);
        }
      }
      chart.addSeries(Numbers.count(row.pending()) + " timers", contenders, nanos);
    }
    if (smallest == Double.POSITIVE_INFINITY) {
      return null;
    }
    Charts.logarithmicAxis(chart, smallest, largest);
    return chart;
  }

  private static CategoryChart memoryChart(Results results) {
    CategoryChart chart = Charts.newChart(
        "memory per pending timer, " + Numbers.count(results.memoryTimers()) + " timers", "bytes");
    List<String> contenders = new ArrayList<>();
    List<Double> bytes = new ArrayList<>();
    for (String contender : results.contenders()) {
      Double value = results.bytesPerTimer().get(contender);
      if (value != null) {
        contenders.add(contender);
        bytes.add(value);
      }
    }
    chart.addSeries("JOL", contenders, bytes);
    chart.getStyler().setLegendVisible(false);
    return chart;
  }
}
