package io.tributary.benchmarks;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Runs Kafka's {@code org.apache.kafka.tools.ProducerPerformance} against one broker. */
final class ProducerPerformanceRun {

    private final JavaLauncher launcher;
    private final BenchmarkSettings settings;
    private final Path outputDir;
    private final PerfToolRun tool;

    ProducerPerformanceRun(JavaLauncher launcher, BenchmarkSettings settings, Path outputDir, PerfToolRun tool) {
        this.launcher = launcher;
        this.settings = settings;
        this.outputDir = outputDir;
        this.tool = tool;
    }

    /** Produces {@code records} records to {@code topic} on {@code broker} with {@code producerProps}. */
    RunResult run(BrokerUnderTest broker, Scenario scenario, int round, String topic, long records)
            throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("--topic", topic, "--num-records", Long.toString(records),
                "--record-size", Integer.toString(settings.recordSize()), "--throughput", "-1",
                "--bootstrap-server", broker.bootstrap(), "--command-property"));
        scenario.producerProps().forEach((k, v) -> args.add(k + "=" + v));
        Path output = outputDir.resolve(topic + "-" + broker.name() + ".out");
        List<String> command = launcher.mainClass(List.of("-Xms512m", "-Xmx512m"),
                "org.apache.kafka.tools.ProducerPerformance", args);
        PerfToolRun.Measured m = tool.run(broker, command, output);

        Optional<PerfSummary> summary = PerfSummary.find(output);
        String error = null;
        if (m.timedOut()) {
            error = "ProducerPerformance did not finish within " + settings.runTimeout();
        } else if (m.exitCode() != 0 || summary.isEmpty()) {
            error = "ProducerPerformance exited with " + m.exitCode() + (summary.isEmpty() ? " without a summary line" : "");
        } else if (summary.get().records() != records) {
            error = "only " + summary.get().records() + " of " + records + " records were acknowledged";
        } else if (!broker.isAlive()) {
            error = "the broker process exited during the run";
        }
        if (error != null) {
            error += "\n  ProducerPerformance output " + output + " ends with:\n" + LogTail.of(output, 25)
                    + "  broker log " + broker.logFile() + " ends with:\n" + LogTail.of(broker.logFile(), 40);
            return RunResult.failed(broker.name(), scenario.name(), round, m, error);
        }
        return new RunResult(broker.name(), scenario.name(), round, summary.get(), m.brokerCpuS(), m.toolCpuS(),
                m.machineCpuS(), m.wallS(), null);
    }
}
