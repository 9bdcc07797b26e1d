package io.ringd.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** The charts of docs/algorithms.md: XChart, written as PNG. */
final class Charts {

    static final int WIDTH = 760;
    static final int HEIGHT = 500;

    private Charts() {
    }

    /** An empty line chart with the report's style. */
    static XYChart xy(String title, String xTitle, String yTitle) {
        return xy(title, xTitle, yTitle, WIDTH, HEIGHT);
    }

    /** An empty line chart of {@code width} x {@code height} pixels with the report's style. */
    static XYChart xy(String title, String xTitle, String yTitle, int width, int height) {
        XYChart chart = new XYChartBuilder().width(width).height(height).title(title).xAxisTitle(xTitle)
                .yAxisTitle(yTitle).build();
        style(chart.getStyler());
        chart.getStyler().setMarkerSize(7);
        return chart;
    }

    /** An empty bar chart with the report's style. */
    static CategoryChart bars(String title, String xTitle, String yTitle) {
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        style(chart.getStyler());
        chart.getStyler().setAvailableSpaceFill(0.8);
        return chart;
    }

    private static void style(Styler s) {
        s.setChartBackgroundColor(Color.WHITE);
        s.setLegendPosition(Styler.LegendPosition.InsideNW);
        s.setLegendBorderColor(Color.LIGHT_GRAY);
        s.setAntiAlias(true);
    }

    /** A line of points joined, with markers. */
    static XYSeries line(XYChart chart, String name, double[] x, double[] y) {
        XYSeries s = chart.addSeries(name, x, y);
        s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        return s;
    }

    /** Markers only. */
    static XYSeries dots(XYChart chart, String name, double[] x, double[] y) {
        XYSeries s = chart.addSeries(name, x, y);
        s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        return s;
    }

    /** A dashed line without markers (a reference level). */
    static XYSeries reference(XYChart chart, String name, double[] x, double[] y, Color color) {
        XYSeries s = line(chart, name, x, y);
        s.setMarker(SeriesMarkers.NONE);
        s.setLineColor(color);
        s.setLineStyle(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
                new float[] {6f, 4f}, 0f));
        return s;
    }

    /** Writes one chart, or several side by side, to {@code file} (a .png path). */
    static void save(Path file, Chart<?, ?>... charts) throws IOException {
        if (charts.length == 1) {
            BitmapEncoder.saveBitmap(charts[0], file.toString(), BitmapFormat.PNG);
        } else {
            BitmapEncoder.saveBitmap(List.of(charts), 1, charts.length, file.toString(), BitmapFormat.PNG);
        }
    }

    /** Writes charts stacked one above the other. */
    static void saveStacked(Path file, Chart<?, ?>... charts) throws IOException {
        BitmapEncoder.saveBitmap(List.of(charts), charts.length, 1, file.toString(), BitmapFormat.PNG);
    }
}
