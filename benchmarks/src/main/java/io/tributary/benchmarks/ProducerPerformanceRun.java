package io.tributary.benchmarks;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Runs Kafka's {@code org.apache.kafka.tools.ProducerPerformance} in its own JVM (so its CPU is not
 * the broker's) against one broker, measuring the broker's CPU seconds around it.
 */
final class ProducerPerformanceRun {

    private static final long SAMPLE_MS = 200;

    private final JavaLauncher launcher;
    private final BenchmarkSettings settings;
    private final Path outputDir;
    private volatile Process current;

    ProducerPerformanceRun(JavaLauncher launcher, BenchmarkSettings settings, Path outputDir) {
        this.launcher = launcher;
        this.settings = settings;
        this.outputDir = outputDir;
    }

    /** Produces {@code records} records to {@code topic} on {@code broker} with the scenario's settings. */
    RunResult run(BrokerUnderTest broker, Scenario scenario, int round, String topic, long records)
            throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("--topic", topic, "--num-records", Long.toString(records),
                "--record-size", Integer.toString(settings.recordSize()), "--throughput", "-1",
                "--bootstrap-server", broker.bootstrap(), "--command-property"));
        scenario.producerProps().forEach((k, v) -> args.add(k + "=" + v));
        Path output = outputDir.resolve(topic + "-" + broker.name() + ".out");
        List<String> command = launcher.mainClass(List.of("-Xms512m", "-Xmx512m"),
                "org.apache.kafka.tools.ProducerPerformance", args);

        double brokerCpu0 = broker.cpuSeconds();
        double machineCpu0 = CpuClock.machineBusySeconds();
        long start = System.nanoTime();
        Process process = JavaLauncher.start(command, outputDir, output);
        current = process;
        double producerCpu = 0;
        long deadline = start + settings.runTimeout().toNanos();
        while (!process.waitFor(SAMPLE_MS, TimeUnit.MILLISECONDS) && System.nanoTime() < deadline) {
            double cpu = CpuClock.processSeconds(process.pid());
            producerCpu = Double.isNaN(cpu) ? producerCpu : cpu;
        }
        boolean timedOut = process.isAlive();
        if (timedOut) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        current = null;
        double wall = (System.nanoTime() - start) / 1e9;
        double brokerCpu = broker.cpuSeconds() - brokerCpu0;
        double machineCpu = CpuClock.machineBusySeconds() - machineCpu0;

        Optional<PerfSummary> summary = PerfSummary.find(output);
        String error = null;
        if (timedOut) {
            error = "ProducerPerformance did not finish within " + settings.runTimeout();
        } else if (process.exitValue() != 0 || summary.isEmpty()) {
            error = "ProducerPerformance exited with " + process.exitValue()
                    + (summary.isEmpty() ? " without a summary line" : "");
        } else if (summary.get().records() != records) {
            error = "only " + summary.get().records() + " of " + records + " records were acknowledged";
        } else if (!broker.isAlive()) {
            error = "the broker process exited during the run";
        }
        if (error != null) {
            error += "\n  ProducerPerformance output " + output + " ends with:\n" + LogTail.of(output, 25)
                    + "  broker log " + broker.logFile() + " ends with:\n" + LogTail.of(broker.logFile(), 40);
            return new RunResult(broker.name(), scenario.name(), round, null, brokerCpu, producerCpu, machineCpu,
                    wall, error);
        }
        return new RunResult(broker.name(), scenario.name(), round, summary.get(), brokerCpu, producerCpu,
                machineCpu, wall, null);
    }

    /** Kills a ProducerPerformance still running (on shutdown). */
    void killCurrent() {
        Process p = current;
        if (p != null) {
            p.destroyForcibly();
        }
    }
}
