package io.tributary.benchmarks;

import java.io.PrintStream;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * Prints, per scenario, each broker's medians across rounds and Tributary's ratios to Kafka. For
 * clusters ({@code benchmark.cluster} above 1) the latency columns are p50, p99 and p99.9 instead of
 * avg and p99, and the CPU is the sum of the cluster's broker processes.
 */
final class Report {

    private static final String HEADER = String.format("  %-10s %12s %8s %9s %8s %13s %12s %13s %6s",
            "broker", "records/s", "MB/s", "avg ms", "p99 ms", "broker CPU s", "CPU us/rec", "work us/rec", "runs");
    private static final String CLUSTER_HEADER = String.format("  %-10s %12s %8s %7s %7s %8s %13s %12s %13s %6s",
            "cluster", "records/s", "MB/s", "p50 ms", "p99 ms", "p99.9 ms", "brokers CPU s", "CPU us/rec",
            "work us/rec", "runs");

    private final BenchmarkSettings settings;
    private final BenchmarkSecurity security;
    private final List<RunResult> results;

    Report(BenchmarkSettings settings, BenchmarkSecurity security, List<RunResult> results) {
        this.settings = settings;
        this.security = security;
        this.results = List.copyOf(results);
    }

    void print(PrintStream out) {
        boolean cluster = settings.cluster() > 1;
        out.printf("%nResults: %,d records x %d B, %d partitions, medians of %d round(s) per %s, clients on %s%n",
                settings.records(), settings.recordSize(), settings.partitions(), settings.rounds(),
                cluster ? "cluster" : "broker", security.describe());
        if (cluster) {
            out.printf("Clusters of %d brokers on this machine, topics with replication factor %d and"
                            + " min.insync.replicas=%d; CPU is the sum of the %d broker processes%n", settings.cluster(),
                    settings.cluster(), Math.max(1, settings.cluster() - 1), settings.cluster());
        }
        for (Scenario scenario : settings.scenarios()) {
            out.printf("%n%s (%s)%n%s%n", scenario.name(), scenario.describe(), cluster ? CLUSTER_HEADER : HEADER);
            Medians kafka = medians("kafka", scenario);
            Medians tributary = medians("tributary", scenario);
            kafka.print(out, cluster);
            tributary.print(out, cluster);
            if (settings.baselineJar() != null) {
                Medians baseline = medians("baseline", scenario);
                baseline.print(out, cluster);
                if (baseline.runs > 0 && tributary.runs > 0) {
                    out.printf("  tributary/baseline: throughput %.2fx, CPU per record %.2fx (work threads %.2fx)%s%n",
                            tributary.recordsPerSecond / baseline.recordsPerSecond,
                            tributary.cpuMicrosPerRecord / baseline.cpuMicrosPerRecord,
                            tributary.workCpuMicrosPerRecord / baseline.workCpuMicrosPerRecord,
                            scenario.consume() ? "" : ", p99 latency " + ratio(tributary.p99Ms, baseline.p99Ms));
                }
            }
            if (kafka.runs > 0 && tributary.runs > 0 && cluster) {
                out.printf("  tributary/kafka: throughput %.2fx (higher is better), CPU per record %.2fx"
                                + " (work threads %.2fx; lower is better)%s%n",
                        tributary.recordsPerSecond / kafka.recordsPerSecond,
                        tributary.cpuMicrosPerRecord / kafka.cpuMicrosPerRecord,
                        tributary.workCpuMicrosPerRecord / kafka.workCpuMicrosPerRecord,
                        scenario.consume() ? "" : String.format(", p50 latency %s, p99 %s, p99.9 %s",
                                ratio(tributary.p50Ms, kafka.p50Ms), ratio(tributary.p99Ms, kafka.p99Ms),
                                ratio(tributary.p999Ms, kafka.p999Ms)));
            } else if (kafka.runs > 0 && tributary.runs > 0) {
                out.printf("  tributary/kafka: throughput %.2fx (higher is better), CPU per record %.2fx"
                                + " (work threads %.2fx; lower is better)%s%n",
                        tributary.recordsPerSecond / kafka.recordsPerSecond,
                        tributary.cpuMicrosPerRecord / kafka.cpuMicrosPerRecord,
                        tributary.workCpuMicrosPerRecord / kafka.workCpuMicrosPerRecord,
                        scenario.consume() ? "" : String.format(", avg latency %.2fx, p99 latency %s",
                                tributary.avgLatencyMs / kafka.avgLatencyMs, ratio(tributary.p99Ms, kafka.p99Ms)));
            } else {
                out.println("  tributary/kafka: no ratio, a broker has no successful run");
            }
        }
    }

    /** Every broker's medians per scenario, for {@link ComparisonChart}: records/s and p99 ms. */
    List<ComparisonChart.Bar> bars() {
        List<ComparisonChart.Bar> bars = new java.util.ArrayList<>();
        for (Scenario scenario : settings.scenarios()) {
            for (String broker : List.of("kafka", "tributary", "baseline")) {
                Medians m = medians(broker, scenario);
                if (m.runs > 0) {
                    bars.add(new ComparisonChart.Bar(scenario.name(), broker, m.recordsPerSecond,
                            scenario.consume() ? Double.NaN : m.p99Ms));
                }
            }
        }
        return bars;
    }

    /** The chart's title: the run's size and setup. */
    String chartTitle() {
        return String.format(java.util.Locale.ROOT, "%,d records x %d B, %d partitions, %s, medians of %d round(s)%s",
                settings.records(), settings.recordSize(), settings.partitions(), settings.cluster() > 1
                        ? settings.cluster() + " brokers, RF " + settings.cluster() : "1 broker",
                settings.rounds(), security.secured() ? ", " + security.describe() : "");
    }

    /** {@code a / b} as {@code 1.23x}, or n/a when {@code b} is 0 (p99 can round to 0 ms). */
    private static String ratio(double a, double b) {
        return b == 0 || Double.isNaN(b) ? "n/a" : String.format("%.2fx", a / b);
    }

    private Medians medians(String broker, Scenario scenario) {
        List<RunResult> ok = results.stream()
                .filter(r -> r.broker().equals(broker) && r.scenario().equals(scenario.name()) && r.ok()).toList();
        long attempted = results.stream()
                .filter(r -> r.broker().equals(broker) && r.scenario().equals(scenario.name())).count();
        return new Medians(broker, ok.size(), attempted,
                median(ok, r -> r.summary().recordsPerSecond()), median(ok, r -> r.summary().mbPerSecond()),
                median(ok, r -> r.summary().avgLatencyMs()), median(ok, r -> r.summary().p99LatencyMs()),
                median(ok, RunResult::brokerCpuS), median(ok, RunResult::cpuMicrosPerRecord),
                median(ok, RunResult::workCpuMicrosPerRecord), median(ok, r -> r.summary().p50LatencyMs()),
                median(ok, r -> r.summary().p999LatencyMs()));
    }

    /** The median of {@code f} over {@code runs} (mean of the middle two for an even count), NaN if none. */
    static double median(List<RunResult> runs, ToDoubleFunction<RunResult> f) {
        double[] v = runs.stream().mapToDouble(f).sorted().toArray();
        if (v.length == 0) {
            return Double.NaN;
        }
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    /** {@code value} formatted, or "-" when there is none (consumer runs have no latency). */
    private static String orDash(String format, double value) {
        return Double.isNaN(value) ? "-" : String.format(format, value);
    }

    /**
     * One broker's medians in one scenario; throughput in records/s and MB/s, latency in ms, CPU in s
     * and us; {@code workCpuMicrosPerRecord} leaves out the JIT compiler threads.
     */
    private record Medians(String broker, int runs, long attempted, double recordsPerSecond, double mbPerSecond,
                           double avgLatencyMs, double p99Ms, double cpuSeconds, double cpuMicrosPerRecord,
                           double workCpuMicrosPerRecord, double p50Ms, double p999Ms) {
        /** One row; with {@code percentiles} (clusters), p50, p99 and p99.9 instead of avg and p99. */
        void print(PrintStream out, boolean percentiles) {
            if (percentiles) {
                out.printf("  %-10s %,12.0f %8.2f %7s %7s %8s %13.2f %12.2f %13.2f %6s%n", broker, recordsPerSecond,
                        mbPerSecond, orDash("%.1f", p50Ms), orDash("%.1f", p99Ms), orDash("%.1f", p999Ms), cpuSeconds,
                        cpuMicrosPerRecord, workCpuMicrosPerRecord, runs + "/" + attempted);
                return;
            }
            out.printf("  %-10s %,12.0f %8.2f %9s %8s %13.2f %12.2f %13.2f %6s%n", broker, recordsPerSecond,
                    mbPerSecond, orDash("%.2f", avgLatencyMs), orDash("%.1f", p99Ms), cpuSeconds, cpuMicrosPerRecord,
                    workCpuMicrosPerRecord, runs + "/" + attempted);
        }
    }
}
