package io.tributary.benchmarks;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import javax.imageio.ImageIO;

/**
 * A PNG of a benchmark's medians: two panels side by side, throughput (records/s, higher is better)
 * and p99 latency (ms, lower is better), one group of bars per scenario and one bar per broker
 * (Kafka, Tributary, an earlier Tributary build), each value printed over its bar. A scenario
 * without latency (a consumer) has no bar in the latency panel. Drawn with Java2D, headless; the
 * same input gives the same image.
 */
final class ComparisonChart {

    /** One broker's medians in one scenario: records/s and p99 ms (NaN when it has none). */
    record Bar(String scenario, String broker, double recordsPerSecond, double p99Ms) {
    }

    private static final int PANEL_WIDTH = 640;
    private static final int HEIGHT = 460;
    private static final int TOP = 70;
    private static final int BOTTOM = 80;
    private static final int LEFT = 80;
    private static final int RIGHT = 20;
    private static final Color[] COLORS = {new Color(0x7f7f7f), new Color(0x1f77b4), new Color(0x9ecae1)};

    private ComparisonChart() {
    }

    /**
     * Writes the chart of {@code bars} to {@code file} (its directory created if missing).
     *
     * @param title the line over both panels, e.g. the benchmark's size and setup
     * @throws IOException when the file cannot be written
     */
    static void write(Path file, String title, List<Bar> bars) throws IOException {
        System.setProperty("java.awt.headless", "true");
        BufferedImage image = new BufferedImage(2 * PANEL_WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, image.getWidth(), image.getHeight());
            List<String> scenarios = new ArrayList<>(new LinkedHashSet<>(bars.stream().map(Bar::scenario).toList()));
            List<String> brokers = new ArrayList<>(new LinkedHashSet<>(bars.stream().map(Bar::broker).toList()));
            g.setColor(Color.BLACK);
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
            g.drawString(title, LEFT, 24);
            legend(g, brokers);
            panel(g, 0, "Throughput, records/s (higher is better)", scenarios, brokers, bars, Bar::recordsPerSecond,
                "%,.0f");
            panel(g, PANEL_WIDTH, "p99 latency, ms (lower is better)", scenarios, brokers, bars, Bar::p99Ms, "%.1f");
        } finally {
            g.dispose();
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        if (!ImageIO.write(image, "png", file.toFile())) {
            throw new IOException("no PNG writer in this JDK");
        }
    }

    private static void legend(Graphics2D g, List<String> brokers) {
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        int x = LEFT;
        for (int i = 0; i < brokers.size(); i++) {
            g.setColor(COLORS[i % COLORS.length]);
            g.fillRect(x, 36, 14, 14);
            g.setColor(Color.BLACK);
            g.drawString(brokers.get(i), x + 20, 48);
            x += 40 + g.getFontMetrics().stringWidth(brokers.get(i));
        }
    }

    private static void panel(Graphics2D g, int originX, String heading, List<String> scenarios, List<String> brokers,
                              List<Bar> bars, ToDoubleFunction<Bar> value, String format) {
        int x0 = originX + LEFT;
        int x1 = originX + PANEL_WIDTH - RIGHT;
        int y0 = HEIGHT - BOTTOM;
        int y1 = TOP;
        // Only scenarios with a value here (a consumer has no latency).
        scenarios = scenarios.stream().filter(sc -> bars.stream()
            .anyMatch(b -> b.scenario().equals(sc) && !Double.isNaN(value.applyAsDouble(b)))).toList();
        double max = bars.stream().mapToDouble(value).filter(v -> !Double.isNaN(v)).max().orElse(1);
        double step = niceCeiling(max * 1.15 / 4);
        int ticks = (int) Math.ceil(max * 1.15 / step);
        double top = step * ticks;
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 13));
        g.setColor(Color.BLACK);
        g.drawString(heading, x0, y1 - 8);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        FontMetrics metrics = g.getFontMetrics();
        for (int i = 0; i <= ticks; i++) {
            double v = step * i;
            int y = y0 - (int) Math.round((y0 - y1) * (double) i / ticks);
            g.setColor(new Color(0xe0e0e0));
            g.drawLine(x0, y, x1, y);
            g.setColor(Color.DARK_GRAY);
            String label = String.format(Locale.ROOT, step == Math.rint(step) ? "%,.0f" : "%.1f", v);
            g.drawString(label, x0 - 6 - metrics.stringWidth(label), y + 4);
        }
        g.setColor(Color.BLACK);
        g.setStroke(new BasicStroke(1f));
        g.drawLine(x0, y0, x1, y0);
        int groupWidth = (x1 - x0) / Math.max(1, scenarios.size());
        int barWidth = Math.max(6, (int) (groupWidth * 0.7 / Math.max(1, brokers.size())));
        for (int s = 0; s < scenarios.size(); s++) {
            int groupX = x0 + s * groupWidth + (groupWidth - barWidth * brokers.size()) / 2;
            for (int b = 0; b < brokers.size(); b++) {
                Bar bar = find(bars, scenarios.get(s), brokers.get(b));
                double v = bar == null ? Double.NaN : value.applyAsDouble(bar);
                if (Double.isNaN(v)) {
                    continue;
                }
                int h = (int) Math.round((y0 - y1) * v / top);
                int x = groupX + b * barWidth;
                g.setColor(COLORS[b % COLORS.length]);
                g.fillRect(x, y0 - h, barWidth - 2, h);
                g.setColor(Color.BLACK);
                String text = String.format(Locale.ROOT, format, v);
                g.drawString(text, x + (barWidth - 2 - metrics.stringWidth(text)) / 2, y0 - h - 4);
            }
            g.setColor(Color.BLACK);
            drawWrapped(g, scenarios.get(s), x0 + s * groupWidth, groupWidth, y0 + 16);
        }
    }

    /** {@code text} centred under its group, on as many lines as its width needs. */
    private static void drawWrapped(Graphics2D g, String text, int x, int width, int y) {
        FontMetrics metrics = g.getFontMetrics();
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : text.split(" ")) {
            String candidate = line.isEmpty() ? word : line + " " + word;
            if (metrics.stringWidth(candidate) > width - 8 && !line.isEmpty()) {
                lines.add(line.toString());
                line = new StringBuilder(word);
            } else {
                line = new StringBuilder(candidate);
            }
        }
        lines.add(line.toString());
        for (int i = 0; i < lines.size() && i < 4; i++) {
            String l = lines.get(i);
            g.drawString(l, x + (width - metrics.stringWidth(l)) / 2, y + i * (metrics.getHeight()));
        }
    }

    private static Bar find(List<Bar> bars, String scenario, String broker) {
        return bars.stream().filter(b -> b.scenario().equals(scenario) && b.broker().equals(broker)).findFirst()
            .orElse(null);
    }

    /** The smallest of 1, 2, 2.5 or 5 times a power of ten that is at least {@code v}. */
    static double niceCeiling(double v) {
        if (v <= 0 || Double.isNaN(v)) {
            return 1;
        }
        double power = Math.pow(10, Math.floor(Math.log10(v)));
        for (double step : new double[] {1, 2, 2.5, 5, 10}) {
            if (step * power >= v) {
                return step * power;
            }
        }
        return 10 * power;
    }
}
