package dev.everett.cli;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.data.category.DefaultCategoryDataset;

/** The demo's chart: one bar per measure, the ratio in Everett's favour, with parity marked at 1. */
final class DemoChart {
    private DemoChart() {
    }

    static void write(DemoResult result, Path file) throws IOException {
        System.setProperty("java.awt.headless", "true");
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        for (DemoResult.Row r : result.chartRows()) {
            data.addValue(r.advantage(), "Everett", r.metric());
        }
        JFreeChart chart = ChartFactory.createBarChart(
                String.format("Everett (%s) vs RocksDB, %,d operations", result.policy.format(), result.operations),
                null, "ratio in Everett's favour (1 = parity; > 1: Everett smaller or faster)", data,
                PlotOrientation.HORIZONTAL, false, false, false);
        chart.setBackgroundPaint(Color.WHITE);
        CategoryPlot plot = chart.getCategoryPlot();
        plot.setBackgroundPaint(new Color(0xF4F6F8));
        plot.setRangeGridlinePaint(Color.GRAY);
        ValueMarker parity = new ValueMarker(1.0, Color.DARK_GRAY, new BasicStroke(2f));
        plot.addRangeMarker(parity);
        BarRenderer renderer = (BarRenderer) plot.getRenderer();
        renderer.setBarPainter(new StandardBarPainter());
        renderer.setSeriesPaint(0, new Color(0x2E6DB4));
        renderer.setShadowVisible(false);
        ChartUtils.saveChartAsPNG(file.toFile(), chart, 900, 420);
    }
}
