package io.github.timerqueue.bench;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * The results as one PNG: a bar chart per workload (and TTL count) of time by contender, one bar
 * per population, on a logarithmic axis because the contenders differ by orders of magnitude; and
 * a chart of memory per pending timer.
 */
final class ResultChart {
  private static final int WIDTH = 620;
  private static final int HEIGHT = 400;
  private static final int COLUMNS = 2;

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
    int columns = Math.min(COLUMNS, Math.max(1, charts.size()));
    int rows = Math.max(1, (charts.size() + columns - 1) / columns);
    BufferedImage grid =
        new BufferedImage(columns * WIDTH, rows * HEIGHT, BufferedImage.TYPE_INT_RGB);
    Graphics2D graphics = grid.createGraphics();
    graphics.setColor(Color.WHITE);
    graphics.fillRect(0, 0, grid.getWidth(), grid.getHeight());
    for (int i = 0; i < charts.size(); i++) {
      graphics.drawImage(BitmapEncoder.getBufferedImage(charts.get(i)),
          (i % columns) * WIDTH, (i / columns) * HEIGHT, null);
    }
    graphics.dispose();
    ImageIO.write(grid, "png", png.toFile());
  }

  private static CategoryChart timeChart(Results results, String title, List<Results.Row> rows) {
    Workload workload = rows.get(0).workload();
    CategoryChart chart = newChart(title,
        workload.perFiredTimer() ? "ns per fired timer (log)" : "ns per operation (log)");
    chart.getStyler().setYAxisLogarithmic(true);
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
    // Bars grow from the axis' minimum, which a logarithmic axis cannot put at zero; whole
    // decades at both ends keep the axis labelled.
    double bottom = Math.pow(10, Math.floor(Math.log10(smallest)));
    double top = Math.pow(10, Math.ceil(Math.log10(largest * 1.5)));
    chart.getStyler().setYAxisMin(bottom);
    chart.getStyler().setYAxisMax(Math.max(top, bottom * 10));
    return chart;
  }

  private static CategoryChart memoryChart(Results results) {
    CategoryChart chart = newChart(
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

  private static CategoryChart newChart(String title, String yTitle) {
    CategoryChart chart = new CategoryChartBuilder()
        .width(WIDTH)
        .height(HEIGHT)
        .title(title)
        .yAxisTitle(yTitle)
        .build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
    chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
    chart.getStyler().setChartBackgroundColor(Color.WHITE);
    chart.getStyler().setLabelsVisible(true);
    chart.getStyler().setLabelsPosition(0.92);
    chart.getStyler().setDecimalPattern("#,##0.#");
    return chart;
  }
}
