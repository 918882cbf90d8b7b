package io.github.timerqueue.bench;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * The look shared by the benchmark's charts, and the grid that puts several of them in one PNG, so
 * that the comparison's chart and a trace replay's chart read alike.
 */
public final class Charts {
  private static final int WIDTH = 620;
  private static final int HEIGHT = 400;
  private static final int COLUMNS = 2;

  private Charts() {}

  /**
   * A bar chart in the house style: white, values printed on the bars, legend below.
   *
   * @param title the chart's title
   * @param yTitle the title of its value axis
   * @return a chart without series
   */
  public static CategoryChart newChart(String title, String yTitle) {
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

  /**
   * Makes the value axis logarithmic, spanning whole decades around the values: bars grow from the
   * axis' minimum, which a logarithmic axis cannot put at zero, and whole decades at both ends keep
   * the axis labelled. The minimum is at most half the smallest value, so that its bar spans at
   * least a factor of two: a value just above a power of ten would otherwise have no bar.
   *
   * @param chart the chart
   * @param smallest the smallest positive value it shows
   * @param largest the largest value it shows
   */
  public static void logarithmicAxis(CategoryChart chart, double smallest, double largest) {
    double bottom = Math.pow(10, Math.floor(Math.log10(smallest / 2)));
    double top = Math.pow(10, Math.ceil(Math.log10(largest * 1.5)));
    chart.getStyler().setYAxisLogarithmic(true);
    chart.getStyler().setYAxisMin(bottom);
    chart.getStyler().setYAxisMax(Math.max(top, bottom * 10));
  }

  /**
   * Draws {@code charts} two to a row into one PNG.
   *
   * @param charts the charts, in reading order
   * @param png the file to write, replaced if it exists
   * @throws IOException if the file cannot be written
   */
  public static void writeGrid(List<CategoryChart> charts, Path png) throws IOException {
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
}
