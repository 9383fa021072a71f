package io.tributary.adminui.throughput;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads samples out of a broker's {@code /actuator/prometheus} answer (text exposition format):
 * {@link #samples} gives the series of the metrics asked for with their labels; {@link #parse} the three
 * throughput counters {@code kafka_server_brokertopicmetrics_bytesin_total}, {@code _bytesout_total} and
 * {@code _messagesin_total}, each summed over its {@code topic} series. Every other line (comments, other
 * metrics, unparsable or non-finite values) is ignored.
 */
public final class PrometheusText {

    static final String BYTES_IN = "kafka_server_brokertopicmetrics_bytesin_total";
    static final String BYTES_OUT = "kafka_server_brokertopicmetrics_bytesout_total";
    static final String MESSAGES_IN = "kafka_server_brokertopicmetrics_messagesin_total";

    /**
     * One series' value.
     *
     * @param name   the metric name as exposed ({@code _total} included for counters)
     * @param labels label names to their values, unescaped ({@code \"}, {@code \\}, {@code \n})
     */
    public record Sample(String name, Map<String, String> labels, double value) {
    }

    private PrometheusText() {
    }

    /** The counters in {@code text}; 0 for a counter without series (no topic had traffic yet). */
    public static Counters parse(String text) {
        double bytesIn = 0;
        double bytesOut = 0;
        double messagesIn = 0;
        for (Sample sample : samples(text, Set.of(BYTES_IN, BYTES_OUT, MESSAGES_IN))) {
            switch (sample.name()) {
                case BYTES_IN -> bytesIn += sample.value();
                case BYTES_OUT -> bytesOut += sample.value();
                default -> messagesIn += sample.value();
            }
        }
        return new Counters(bytesIn, bytesOut, messagesIn);
    }

    /** The samples in {@code text} of the metrics named in {@code names}, in the order of the text. */
    public static List<Sample> samples(String text, Set<String> names) {
        List<Sample> samples = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isEmpty() || line.charAt(0) == '#') {
                continue;
            }
            int nameEnd = 0;
            while (nameEnd < line.length() && line.charAt(nameEnd) != '{' && line.charAt(nameEnd) != ' ') {
                nameEnd++;
            }
            String name = line.substring(0, nameEnd);
            if (names.contains(name)) {
                Sample sample = sample(name, line, nameEnd);
                if (sample != null) {
                    samples.add(sample);
                }
            }
        }
        return samples;
    }

    /** The labels and value after the name (a timestamp may follow the value), or null when unparsable. */
    private static Sample sample(String name, String line, int nameEnd) {
        Map<String, String> labels = new LinkedHashMap<>();
        int from = nameEnd;
        if (from < line.length() && line.charAt(from) == '{') {
            from = labels(line, from + 1, labels);
            if (from < 0) {
                return null;
            }
        }
        if (from >= line.length()) {
            return null;
        }
        String[] rest = line.substring(from).trim().split("\\s+");
        try {
            double v = Double.parseDouble(rest[0]);
            return Double.isFinite(v) ? new Sample(name, Map.copyOf(labels), v) : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * Reads {@code name="value",...} from {@code i} (just after the opening brace) into {@code labels};
     * the index after the closing brace, or -1 when the line ends first.
     */
    private static int labels(String line, int i, Map<String, String> labels) {
        while (i < line.length()) {
            char c = line.charAt(i);
            if (c == '}') {
                return i + 1;
            }
            if (c == ',' || c == ' ') {
                i++;
                continue;
            }
            int eq = line.indexOf('=', i);
            if (eq < 0 || eq + 1 >= line.length() || line.charAt(eq + 1) != '"') {
                return -1;
            }
            String label = line.substring(i, eq).trim();
            StringBuilder value = new StringBuilder();
            int j = eq + 2;
            for (; j < line.length() && line.charAt(j) != '"'; j++) {
                char v = line.charAt(j);
                if (v == '\\' && j + 1 < line.length()) {
                    char escaped = line.charAt(++j);
                    value.append(escaped == 'n' ? '\n' : escaped);
                } else {
                    value.append(v);
                }
            }
            if (j >= line.length()) {
                return -1;
            }
            labels.put(label, value.toString());
            i = j + 1;
        }
        return -1;
    }
}
