package io.tributary.benchmarks;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Runs Kafka's {@code org.apache.kafka.tools.ProducerPerformance} against one broker. */
final class ProducerPerformanceRun {

    private final BenchmarkSettings settings;
    private final PerfToolRun tool;

    ProducerPerformanceRun(BenchmarkSettings settings, PerfToolRun tool) {
        this.settings = settings;
        this.tool = tool;
    }

    /** Produces {@code records} records to {@code topic} on {@code broker} with the scenario's producer settings. */
    RunResult run(SystemUnderTest broker, Scenario scenario, int round, String topic, long records)
            throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("--topic", topic, "--num-records", Long.toString(records),
                "--record-size", Integer.toString(settings.recordSize()), "--throughput", "-1",
                "--bootstrap-server", broker.bootstrap(), "--command-property"));
        scenario.producerProps().forEach((k, v) -> args.add(k + "=" + v));
        if (scenario.producerProps().isEmpty()) {
            args.remove(args.size() - 1); // no --command-property without a property
        }
        if (scenario.transactionDurationMs() > 0) {
            args.addAll(List.of("--transactional-id", topic + "-" + broker.name() + "-txn",
                    "--transaction-duration-ms", Long.toString(scenario.transactionDurationMs())));
        }
        PerfToolRun.Measured m = tool.run(broker, "org.apache.kafka.tools.ProducerPerformance", args,
                topic + "-" + broker.name() + ".out");

        Optional<PerfSummary> summary = PerfSummary.find(m.output());
        String error = null;
        if (m.exitCode() != 0 || summary.isEmpty()) {
            error = "ProducerPerformance exited with " + m.exitCode() + (summary.isEmpty() ? " without a summary line" : "");
        } else if (summary.get().records() != records) {
            error = "only " + summary.get().records() + " of " + records + " records were acknowledged";
        } else if (!broker.isAlive()) {
            error = "a broker process exited during the run";
        }
        return error != null || m.timedOut() ? tool.failed(broker, scenario, round, m, "ProducerPerformance", error)
                : PerfToolRun.succeeded(broker, scenario, round, m, summary.get());
    }
}
