package io.tributary.adminui.throughput;

/**
 * Reads the three throughput counters out of a broker's {@code /actuator/prometheus} answer (text
 * exposition format): {@code kafka_server_brokertopicmetrics_bytesin_total}, {@code _bytesout_total} and
 * {@code _messagesin_total}, each summed over its {@code topic} series. Every other line (comments, other
 * metrics, unparsable values) is ignored.
 */
public final class PrometheusText {

    static final String BYTES_IN = "kafka_server_brokertopicmetrics_bytesin_total";
    static final String BYTES_OUT = "kafka_server_brokertopicmetrics_bytesout_total";
    static final String MESSAGES_IN = "kafka_server_brokertopicmetrics_messagesin_total";

    private PrometheusText() {
    }

    /** The counters in {@code text}; 0 for a counter without series (no topic had traffic yet). */
    public static Counters parse(String text) {
        double bytesIn = 0;
        double bytesOut = 0;
        double messagesIn = 0;
        for (String line : text.split("\n")) {
            if (line.isEmpty() || line.charAt(0) == '#') {
                continue;
            }
            int nameEnd = 0;
            while (nameEnd < line.length() && line.charAt(nameEnd) != '{' && line.charAt(nameEnd) != ' ') {
                nameEnd++;
            }
            String name = line.substring(0, nameEnd);
            if (!name.equals(BYTES_IN) && !name.equals(BYTES_OUT) && !name.equals(MESSAGES_IN)) {
                continue;
            }
            Double value = value(line, nameEnd);
            if (value == null) {
                continue;
            }
            switch (name) {
                case BYTES_IN -> bytesIn += value;
                case BYTES_OUT -> bytesOut += value;
                default -> messagesIn += value;
            }
        }
        return new Counters(bytesIn, bytesOut, messagesIn);
    }

    /** The sample value after the name and labels (a timestamp may follow it), or null. */
    private static Double value(String line, int nameEnd) {
        int from = nameEnd;
        if (from < line.length() && line.charAt(from) == '{') {
            boolean quoted = false;
            int i = from + 1;
            for (; i < line.length(); i++) {
                char c = line.charAt(i);
                if (quoted && c == '\\') {
                    i++;
                } else if (c == '"') {
                    quoted = !quoted;
                } else if (c == '}' && !quoted) {
                    break;
                }
            }
            from = i + 1;
        }
        if (from >= line.length()) {
            return null;
        }
        String[] rest = line.substring(from).trim().split("\\s+");
        try {
            double v = Double.parseDouble(rest[0]);
            return Double.isFinite(v) ? v : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
