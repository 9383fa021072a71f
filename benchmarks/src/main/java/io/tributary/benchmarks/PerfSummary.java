package io.tributary.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * ProducerPerformance's final summary line, e.g. {@code 2000000 records sent, 312345.6 records/sec
 * (29.79 MB/sec), 45.10 ms avg latency, 350.00 ms max latency, 40 ms 50th, 90 ms 95th, 120 ms 99th,
 * 300 ms 99.9th.}
 *
 * @param records          records sent (count)
 * @param recordsPerSecond throughput, records per second
 * @param mbPerSecond      throughput, MB (2^20 bytes) of record values per second
 * @param avgLatencyMs     mean send-to-acknowledgement latency, ms
 * @param p99LatencyMs     99th percentile latency, ms
 * @param p50LatencyMs     median latency, ms
 * @param p95LatencyMs     95th percentile latency, ms
 * @param p999LatencyMs    99.9th percentile latency, ms
 */
record PerfSummary(long records, double recordsPerSecond, double mbPerSecond, double avgLatencyMs,
                   double p99LatencyMs, double p50LatencyMs, double p95LatencyMs, double p999LatencyMs) {

    private static final Pattern SUMMARY = Pattern.compile("^(\\d+) records sent, ([\\d.]+) records/sec "
            + "\\(([\\d.]+) MB/sec\\), ([\\d.]+) ms avg latency, [\\d.]+ ms max latency, (\\d+) ms 50th, "
            + "(\\d+) ms 95th, (\\d+) ms 99th, (\\d+) ms 99\\.9th");

    /** The first summary line in ProducerPerformance's output, if it printed one. */
    static Optional<PerfSummary> find(Path output) throws IOException {
        for (String line : Files.readAllLines(output, StandardCharsets.ISO_8859_1)) {
            Matcher m = SUMMARY.matcher(line.trim());
            if (m.find()) {
                return Optional.of(new PerfSummary(Long.parseLong(m.group(1)), Double.parseDouble(m.group(2)),
                        Double.parseDouble(m.group(3)), Double.parseDouble(m.group(4)),
                        Double.parseDouble(m.group(7)), Double.parseDouble(m.group(5)),
                        Double.parseDouble(m.group(6)), Double.parseDouble(m.group(8))));
            }
        }
        return Optional.empty();
    }
}
