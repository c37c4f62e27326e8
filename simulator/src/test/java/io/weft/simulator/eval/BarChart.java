package io.weft.simulator.eval;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * A grouped bar chart written as PNG with the JDK's own Java2D (headless): one group per case,
 * one bar per series. Enough for the evaluation's plots without a plotting dependency.
 */
final class BarChart {
    private static final Color[] COLOURS = {new Color(0xD5, 0x5E, 0x00), new Color(0xE6, 0x9F, 0x00),
        new Color(0x00, 0x72, 0xB2), new Color(0x99, 0x99, 0x99)};

    private final String title;
    private final String yLabel;
    private final List<String> series;
    private final List<String> groups = new ArrayList<>();
    private final List<double[]> values = new ArrayList<>();

    BarChart(String title, String yLabel, List<String> series) {
        this.title = title;
        this.yLabel = yLabel;
        this.series = series;
    }

    void add(String group, double... v) {
        groups.add(group);
        values.add(v);
    }

    void write(Path file) throws IOException {
        int w = 140 + 110 * groups.size();
        int h = 460;
        int left = 80;
        int top = 60;
        int bottom = h - 90;
        BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, w, h);
        double max = 0;
        for (double[] v : values) {
            for (double x : v) {
                if (Double.isFinite(x)) {
                    max = Math.max(max, x);
                }
            }
        }
        max = niceCeiling(max);
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        g.drawString(title, left, 28);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        g.drawString(yLabel, 10, top - 12);
        // Axis and grid.
        for (int i = 0; i <= 5; i++) {
            double v = max * i / 5;
            int y = bottom - (int) Math.round((bottom - top) * (double) i / 5);
            g.setColor(new Color(0xE0, 0xE0, 0xE0));
            g.drawLine(left, y, w - 20, y);
            g.setColor(Color.BLACK);
            String label = String.format(Locale.ROOT, "%.0f", v);
            g.drawString(label, left - 8 - g.getFontMetrics().stringWidth(label), y + 4);
        }
        g.setStroke(new BasicStroke(1.5f));
        g.drawLine(left, bottom, w - 20, bottom);
        g.drawLine(left, top, left, bottom);
        int groupWidth = 110;
        int barWidth = (groupWidth - 20) / series.size();
        for (int gi = 0; gi < groups.size(); gi++) {
            int x0 = left + 10 + gi * groupWidth;
            double[] v = values.get(gi);
            for (int s = 0; s < series.size(); s++) {
                int x = x0 + s * barWidth;
                if (Double.isNaN(v[s])) {
                    g.setColor(Color.GRAY);
                    g.drawString("n/a", x + 2, bottom - 4);
                    continue;
                }
                if (!Double.isFinite(v[s])) {
                    g.setColor(Color.BLACK);
                    g.drawString("∞", x + barWidth / 3, top + 12);
                    continue;
                }
                int bh = (int) Math.round((bottom - top) * v[s] / max);
                g.setColor(COLOURS[s % COLOURS.length]);
                g.fillRect(x, bottom - bh, barWidth - 2, bh);
            }
            g.setColor(Color.BLACK);
            String[] lines = groups.get(gi).split("\n");
            for (int l = 0; l < lines.length; l++) {
                int sw = g.getFontMetrics().stringWidth(lines[l]);
                g.drawString(lines[l], x0 + (groupWidth - 20 - sw) / 2, bottom + 18 + 15 * l);
            }
        }
        // Legend.
        int lx = left;
        for (int s = 0; s < series.size(); s++) {
            g.setColor(COLOURS[s % COLOURS.length]);
            g.fillRect(lx, h - 30, 14, 14);
            g.setColor(Color.BLACK);
            g.drawString(series.get(s), lx + 20, h - 18);
            lx += 40 + g.getFontMetrics().stringWidth(series.get(s));
        }
        g.dispose();
        Files.createDirectories(file.toAbsolutePath().getParent());
        ImageIO.write(img, "png", file.toFile());
    }

    private static double niceCeiling(double v) {
        if (v <= 0) {
            return 1;
        }
        double p = Math.pow(10, Math.floor(Math.log10(v)));
        for (double m : new double[] {1, 2, 2.5, 5, 10}) {
            if (m * p >= v) {
                return m * p;
            }
        }
        return 10 * p;
    }
}
