package dev.everett.cli;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.text.DecimalFormat;
import java.nio.file.Path;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.labels.StandardCategoryItemLabelGenerator;
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
                null, "ratio in Everett's favour, log scale (1 = parity; > 1: Everett smaller or faster)", data,
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
        renderer.setBase(1.0); // bars grow from parity: right when Everett is ahead, left when behind
        renderer.setDefaultItemLabelGenerator(new StandardCategoryItemLabelGenerator("{2}×", new DecimalFormat("0.00")));
        renderer.setDefaultItemLabelsVisible(true);
        LogAxis axis = new LogAxis(plot.getRangeAxis().getLabel());
        axis.setBase(2);
        axis.setTickUnit(new NumberTickUnit(1));
        axis.setNumberFormatOverride(new DecimalFormat("0.##"));
        double low = 1;
        double high = 1;
        for (DemoResult.Row r : result.chartRows()) {
            low = Math.min(low, r.advantage());
            high = Math.max(high, r.advantage());
        }
        axis.setRange(Math.max(1e-3, low / 1.6), high * 1.6);
        plot.setRangeAxis(axis);
        ChartUtils.saveChartAsPNG(file.toFile(), chart, 900, 420);
    }
}
