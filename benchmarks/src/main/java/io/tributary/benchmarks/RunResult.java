package io.tributary.benchmarks;

/**
 * One measured ProducerPerformance or ConsumerPerformance run against one broker.
 *
 * @param broker       broker name
 * @param scenario     scenario name
 * @param round        round number, from 1
 * @param summary      the tool's summary (no latency for ConsumerPerformance), null if the run failed
 * @param brokerCpuS   CPU seconds the broker process (or the cluster's processes, summed) used during the run
 *                     (user + system)
 * @param brokerJitCpuS the part of {@code brokerCpuS} its JIT compiler threads used: a JVM still
 *                     compiling the paths a new connection takes (a new producer deoptimizes hot
 *                     methods) spends up to half of the broker's CPU there, which varies from
 *                     round to round and says nothing of the code under test
 * @param producerCpuS CPU seconds of the tool's JVM (producer or consumer), sampled every 200 ms (a lower bound)
 * @param machineCpuS  busy CPU seconds of the whole machine during the run, all processes
 * @param wallS        wall-clock seconds from starting the tool until it exited
 * @param error        why the run failed, null if it succeeded
 */
record RunResult(String broker, String scenario, int round, PerfSummary summary, double brokerCpuS,
                 double brokerJitCpuS, double producerCpuS, double machineCpuS, double wallS, String error) {

    boolean ok() {
        return summary != null;
    }

    /** Broker CPU microseconds per record sent. */
    double cpuMicrosPerRecord() {
        return brokerCpuS * 1e6 / summary.records();
    }

    /** Broker CPU microseconds per record outside the JIT compiler threads: the work threads' share. */
    double workCpuMicrosPerRecord() {
        return (brokerCpuS - brokerJitCpuS) * 1e6 / summary.records();
    }

    /** One line for the progress log. */
    String line() {
        String head = String.format("  round %d %-9s %-8s", round, broker, scenario);
        if (!ok()) {
            return head + " FAILED: " + error;
        }
        String latency = Double.isNaN(summary.avgLatencyMs()) ? ""
                : String.format(" avg %8.2f ms p50 %4.0f p99 %6.0f p99.9 %6.0f ms", summary.avgLatencyMs(),
                        summary.p50LatencyMs(), summary.p99LatencyMs(), summary.p999LatencyMs());
        return head + String.format(" %,10.0f rec/s %7.2f MB/s%s | broker CPU %6.2f s"
                        + " (%5.2f us/rec; JIT %5.2f s, work %5.2f us/rec), client CPU %6.2f s, machine busy %6.2f s, wall %6.2f s",
                summary.recordsPerSecond(), summary.mbPerSecond(), latency, brokerCpuS, cpuMicrosPerRecord(),
                brokerJitCpuS, workCpuMicrosPerRecord(),
                producerCpuS, machineCpuS, wallS);
    }
}
