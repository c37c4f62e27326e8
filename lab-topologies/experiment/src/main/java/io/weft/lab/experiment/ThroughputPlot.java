package io.weft.lab.experiment;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** The paper's Fig. 3: receiver throughput over time, one line per run, the throttle marked. PNG via XChart. */
final class ThroughputPlot {
    private ThroughputPlot() {
    }

    /** {@code fault}: what struck at {@code throttleAtS} ("throttle", "link-down"), named in the title and marker. */
    static void write(List<RunResult> runs, String fault, double throttleAtS, Path png) throws IOException {
        String what = fault.equals("link-down") ? "link cut" : "TBF throttle";
        XYChart chart = new XYChartBuilder().width(1000).height(500)
                .title("Receiving NIC throughput (rx counter every 100 ms), " + what + " at " + throttleAtS + " s")
                .xAxisTitle("time since traffic start (s)").yAxisTitle("Mbit/s").build();
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setPlotBackgroundColor(Color.WHITE);
        chart.getStyler().setMarkerSize(0);
        double max = 0;
        for (RunResult r : runs) {
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (Throughput.Sample s : r.throughput().samples()) {
                x.add(s.endS());
                y.add(s.mbit());
                max = Math.max(max, s.mbit());
            }
            if (x.isEmpty()) {
                continue;
            }
            XYSeries series = chart.addSeries(r.name(), x, y);
            series.setMarker(SeriesMarkers.NONE);
        }
        XYSeries mark = chart.addSeries(what, List.of(throttleAtS, throttleAtS), List.of(0.0, max * 1.05));
        mark.setMarker(SeriesMarkers.NONE);
        mark.setLineColor(Color.GRAY);
        mark.setLineStyle(new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {4f}, 0f));
        String file = png.toString();
        BitmapEncoder.saveBitmap(chart, file.endsWith(".png") ? file.substring(0, file.length() - 4) : file,
                BitmapEncoder.BitmapFormat.PNG);
    }
}
