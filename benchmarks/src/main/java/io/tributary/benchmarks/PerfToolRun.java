package io.tributary.benchmarks;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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
     * @param brokerCpuS  CPU seconds of the broker process(es) during the run (user + system, summed)
     * @param brokerJitCpuS the part of {@code brokerCpuS} its JIT compiler threads used
     * @param toolCpuS    CPU seconds of the tool's JVM, sampled every 200 ms (a lower bound)
     * @param machineCpuS busy CPU seconds of the whole machine during the run
     * @param wallS       wall-clock seconds from start to exit
     * @param output      the file with the tool's stdout and stderr
     */
    record Measured(int exitCode, boolean timedOut, double brokerCpuS, double brokerJitCpuS, double toolCpuS, double machineCpuS,
                    double wallS, Path output) {
    }

    private final JavaLauncher launcher;
    private final BenchmarkSecurity security;
    private final Path outputDir;
    private final Duration timeout;
    private volatile Process current;

    /**
     * @param security  the clients' security settings, given to every tool as its {@code --command-config}
     * @param outputDir where each run's output file goes
     * @param timeout   longest a run may take before it is killed
     */
    PerfToolRun(JavaLauncher launcher, BenchmarkSecurity security, Path outputDir, Duration timeout) {
        this.launcher = launcher;
        this.security = security;
        this.outputDir = outputDir;
        this.timeout = timeout;
    }

    /**
     * Runs the tool {@code mainClass} (a 512 MB heap JVM) against {@code broker}, with the security
     * settings' config file before {@code args}.
     *
     * @param outputName name of the output file in the output directory
     */
    Measured run(SystemUnderTest broker, String mainClass, List<String> args, String outputName)
            throws IOException, InterruptedException {
        Path output = outputDir.resolve(outputName);
        List<String> toolArgs = new ArrayList<>(security.toolArgs());
        toolArgs.addAll(args);
        List<String> command = launcher.mainClass(List.of("-Xms512m", "-Xmx512m"), mainClass, toolArgs);
        double brokerCpu0 = broker.cpuSeconds();
        double brokerJitCpu0 = broker.jitCpuSeconds();
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
        return new Measured(timedOut ? -1 : process.exitValue(), timedOut, broker.cpuSeconds() - brokerCpu0,
                Math.max(0, broker.jitCpuSeconds() - brokerJitCpu0), toolCpu,
                CpuClock.machineBusySeconds() - machineCpu0, wall, output);
    }

    /**
     * Why a run failed ({@code error}, or a timeout, which wins), and what was measured, with the
     * end of the tool's output and of the broker's log.
     */
    RunResult failed(SystemUnderTest broker, Scenario scenario, int round, Measured m, String tool, String error)
            throws IOException {
        String why = m.timedOut() ? tool + " did not finish within " + timeout : error;
        return new RunResult(broker.name(), scenario.name(), round, null, m.brokerCpuS(), m.brokerJitCpuS(), m.toolCpuS(),
                m.machineCpuS(),
                m.wallS(), why + "\n  " + tool + " output " + m.output() + " ends with:\n" + LogTail.of(m.output(), 25)
                        + "  " + broker.logTail(40));
    }

    /** A successful run. */
    static RunResult succeeded(SystemUnderTest broker, Scenario scenario, int round, Measured m, PerfSummary summary) {
        return new RunResult(broker.name(), scenario.name(), round, summary, m.brokerCpuS(), m.brokerJitCpuS(), m.toolCpuS(),
                m.machineCpuS(), m.wallS(), null);
    }

    /** Kills a tool still running (on shutdown). */
    void killCurrent() {
        Process p = current;
        if (p != null) {
            p.destroyForcibly();
        }
    }
}
