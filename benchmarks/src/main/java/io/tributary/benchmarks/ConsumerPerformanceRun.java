package io.tributary.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Runs Kafka's {@code org.apache.kafka.tools.ConsumerPerformance} against one broker: a consumer in
 * a new group reads a topic from the beginning until it has {@code records} records. The group's
 * FindCoordinator, JoinGroup, SyncGroup and OffsetFetch are inside the measured time. For a share
 * scenario, Kafka's {@code ShareConsumerPerformance} instead: {@link Scenario#SHARE_CONSUMERS} share
 * consumers of a new share group whose {@code share.auto.offset.reset} is set to earliest first
 * (the share group's heartbeats and every ShareFetch with its acknowledgements are measured).
 */
final class ConsumerPerformanceRun {

    private final PerfToolRun tool;

    ConsumerPerformanceRun(PerfToolRun tool) {
        this.tool = tool;
    }

    /** Consumes {@code records} records of {@code topic} on {@code broker} in group {@code topic}-group. */
    RunResult run(SystemUnderTest broker, Scenario scenario, int round, String topic, long records)
            throws Exception {
        String group = topic + "-group";
        String tool = "org.apache.kafka.tools.ConsumerPerformance";
        List<String> args = new java.util.ArrayList<>(List.of("--bootstrap-server", broker.bootstrap(), "--topic", topic,
                "--group", group, "--timeout", "60000"));
        if (scenario.share()) {
            broker.readShareGroupFromEarliest(group);
            tool = "org.apache.kafka.tools.ShareConsumerPerformance";
            args.addAll(List.of("--num-records", Long.toString(records), "--threads",
                    Integer.toString(Scenario.SHARE_CONSUMERS)));
        } else {
            args.addAll(List.of("--messages", Long.toString(records)));
        }
        if (!scenario.consumerProps().isEmpty()) {
            args.add("--command-property");
            scenario.consumerProps().forEach((k, v) -> args.add(k + "=" + v));
        }
        PerfToolRun.Measured m = this.tool.run(broker, tool, args, topic + "-" + broker.name() + "-consumer.out");

        Optional<PerfSummary> summary = summary(m.output());
        String error = null;
        if (m.exitCode() != 0 || summary.isEmpty()) {
            error = tool.substring(tool.lastIndexOf('.') + 1) + " exited with " + m.exitCode() + (summary.isEmpty() ? " without a result line" : "");
        } else if (summary.get().records() < records) {
            error = "only " + summary.get().records() + " of " + records + " records were consumed";
        } else if (!broker.isAlive()) {
            error = "a broker process exited during the run";
        }
        return error != null || m.timedOut() ? this.tool.failed(broker, scenario, round, m,
                tool.substring(tool.lastIndexOf('.') + 1), error)
                : PerfToolRun.succeeded(broker, scenario, round, m, summary.get());
    }

    /**
     * ConsumerPerformance's result: a header line {@code start.time, end.time, data.consumed.in.MB, MB.sec,
     * data.consumed.in.nMsg, nMsg.sec, rebalance.time.ms, fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec}
     * and one line of values (ShareConsumerPerformance's has the same columns in another order). Throughput is over the whole run (group join included); there is no latency.
     */
    static Optional<PerfSummary> summary(Path output) throws IOException {
        List<String> lines = Files.readAllLines(output, StandardCharsets.ISO_8859_1);
        for (int i = 0; i + 1 < lines.size(); i++) {
            List<String> header = Arrays.stream(lines.get(i).split(",")).map(String::trim).toList();
            int records = header.indexOf("data.consumed.in.nMsg");
            int recordsPerSecond = header.indexOf("nMsg.sec");
            int mbPerSecond = header.indexOf("MB.sec");
            if (records < 0 || recordsPerSecond < 0 || mbPerSecond < 0) {
                continue;
            }
            String[] values = lines.get(i + 1).split(",");
            if (values.length != header.size()) {
                return Optional.empty();
            }
            return Optional.of(new PerfSummary(Long.parseLong(values[records].trim()),
                    Double.parseDouble(values[recordsPerSecond].trim()), Double.parseDouble(values[mbPerSecond].trim()),
                    Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN));
        }
        return Optional.empty();
    }
}
