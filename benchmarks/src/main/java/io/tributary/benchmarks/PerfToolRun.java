package io.tributary.benchmarks;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs one of Kafka's performance tools in its own JVM (so its CPU is not the broker's) against a
 * broker, and measures the broker's CPU seconds, the tool's and the machine's around it. One run
 * at a time; {@link #killCurrent()} may be called from another thread.
 */
final class PerfToolRun {

    private static final long SAMPLE_MS = 200;

    /**
     * A finished (or killed) tool run.
     *
     * @param exitCode    the tool's exit code, -1 if it was killed
     * @param timedOut    whether it was killed for running past the timeout
     * @param brokerCpuS  CPU seconds of the broker process during the run (user + system)
     * @param toolCpuS    CPU seconds of the tool's JVM, sampled every 200 ms (a lower bound)
     * @param machineCpuS busy CPU seconds of the whole machine during the run
     * @param wallS       wall-clock seconds from start to exit
     */
    record Measured(int exitCode, boolean timedOut, double brokerCpuS, double toolCpuS, double machineCpuS,
                    double wallS) {
    }

    private final Path outputDir;
    private final Duration timeout;
    private volatile Process current;

    PerfToolRun(Path outputDir, Duration timeout) {
        this.outputDir = outputDir;
        this.timeout = timeout;
    }

    /** Runs {@code command} with stdout and stderr to {@code output}. */
    Measured run(BrokerUnderTest broker, List<String> command, Path output) throws IOException, InterruptedException {
        double brokerCpu0 = broker.cpuSeconds();
        double machineCpu0 = CpuClock.machineBusySeconds();
        long start = System.nanoTime();
        Process process = JavaLauncher.start(command, outputDir, output);
        current = process;
        double toolCpu = 0;
        long deadline = start + timeout.toNanos();
        while (!process.waitFor(SAMPLE_MS, TimeUnit.MILLISECONDS) && System.nanoTime() < deadline) {
            double cpu = CpuClock.processSeconds(process.pid());
            toolCpu = Double.isNaN(cpu) ? toolCpu : cpu;
        }
        boolean timedOut = process.isAlive();
        if (timedOut) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        current = null;
        double wall = (System.nanoTime() - start) / 1e9;
        return new Measured(timedOut ? -1 : process.exitValue(), timedOut, broker.cpuSeconds() - brokerCpu0, toolCpu,
                CpuClock.machineBusySeconds() - machineCpu0, wall);
    }

    /** Kills a tool still running (on shutdown). */
    void killCurrent() {
        Process p = current;
        if (p != null) {
            p.destroyForcibly();
        }
    }
}
