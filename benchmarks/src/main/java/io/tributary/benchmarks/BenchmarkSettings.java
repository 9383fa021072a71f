package io.tributary.benchmarks;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * The benchmark's parameters, read from {@code benchmark.*} system properties.
 *
 * @param records       records produced (or consumed) per measured run (count)
 * @param recordSize    size of each record's value, bytes
 * @param partitions    partitions of each freshly created topic (count)
 * @param rounds        measured runs per scenario and broker (count); medians are taken across them
 * @param scenarios     what to measure, in order (see {@link Scenario#named})
 * @param warmupRecords records produced once per broker and scenario before measuring, not reported (count; 0 skips)
 * @param brokerHeap    heap given to each broker JVM, as for {@code -Xmx} (e.g. {@code 1g})
 * @param runTimeout    longest a single tool run may take before it is killed
 * @param pause         idle time between two runs, to let the previous run's work settle
 * @param tributaryJar  Tributary's executable broker jar; by default the one built in this repository
 *                      ({@code ../broker-service/target/} seen from the benchmarks module)
 * @param security      the clients' listener on both brokers: plaintext, or SASL_SSL with SCRAM-SHA-512
 * @param baselineJar   another Tributary broker jar (an earlier build) that takes turns with the two
 *                      as "baseline", to compare a change with what it changes; null for none
 *                      ({@code benchmark.baseline-jar})
 * @param cluster       brokers per system under test ({@code benchmark.cluster}): 1, a single broker;
 *                      more, a cluster of that many on this machine (a KRaft quorum of combined nodes,
 *                      Tributary brokers on one ZooKeeper) whose topics have every broker as a replica
 *                      and {@code min.insync.replicas} one less
 */
record BenchmarkSettings(long records, int recordSize, int partitions, int rounds, List<Scenario> scenarios,
                         long warmupRecords, String brokerHeap, Duration runTimeout, Duration pause,
                         Path tributaryJar, BenchmarkSecurity.Mode security, Path baselineJar, int cluster) {

    BenchmarkSettings {
        if (records <= 0 || recordSize <= 0 || partitions <= 0 || rounds <= 0 || warmupRecords < 0 || cluster <= 0) {
            throw new IllegalArgumentException("benchmark.records, record-size, partitions, rounds and cluster must be"
                    + " positive and warmup-records not negative");
        }
        if (scenarios.isEmpty()) {
            throw new IllegalArgumentException("benchmark.scenarios names no scenario (acks1, acksall, lz4, consume, roll, txn, "
                + "consumecommitted, consume848, shareconsume)");
        }
    }

    /** Reads the settings, with the defaults of the documented full run. */
    static BenchmarkSettings fromSystemProperties() {
        List<Scenario> scenarios = Arrays.stream(prop("benchmark.scenarios", "acks1,acksall,lz4,consume,roll").split(","))
                .map(String::trim).filter(s -> !s.isEmpty()).map(Scenario::named).toList();
        return new BenchmarkSettings(
                Long.parseLong(prop("benchmark.records", "2000000")),
                Integer.parseInt(prop("benchmark.record-size", "100")),
                Integer.parseInt(prop("benchmark.partitions", "6")),
                Integer.parseInt(prop("benchmark.rounds", "3")),
                scenarios,
                Long.parseLong(prop("benchmark.warmup-records", "300000")),
                prop("benchmark.broker-heap", "1g"),
                Duration.ofSeconds(Long.parseLong(prop("benchmark.run-timeout-s", "900"))),
                Duration.ofSeconds(Long.parseLong(prop("benchmark.pause-s", "3"))),
                tributaryJarFromProperties(),
                BenchmarkSecurity.Mode.named(prop("benchmark.security", "plaintext")),
                optionalPath(prop("benchmark.baseline-jar", "")),
                Integer.parseInt(prop("benchmark.cluster", "1")));
    }

    /** The absolute path {@code value} names, or null when it is empty. */
    private static Path optionalPath(String value) {
        return value.isEmpty() ? null : Path.of(value).toAbsolutePath().normalize();
    }

    /**
     * The Tributary broker jar to launch: {@code benchmark.tributary-jar}, else this repository's build
     * ({@code ../broker-service/target/broker-service-<benchmark.tributary-version>.jar}), absolute.
     */
    static Path tributaryJarFromProperties() {
        return Path.of(prop("benchmark.tributary-jar", "../broker-service/target/broker-service-"
                + prop("benchmark.tributary-version", "0.1.0-SNAPSHOT") + ".jar")).toAbsolutePath().normalize();
    }

    /**
     * Runs a benchmark's {@code run} and exits the JVM with its status: 2, with the failure printed,
     * when it throws (only the message for a bad setting or state, the stack trace otherwise).
     */
    static void runAndExit(java.util.concurrent.Callable<Integer> run) {
        int status;
        try {
            status = run.call();
        } catch (IllegalArgumentException | IllegalStateException e) {
            System.err.println("\nBenchmark failed: " + e.getMessage());
            status = 2;
        } catch (Exception e) {
            System.err.println("\nBenchmark failed:");
            e.printStackTrace();
            status = 2;
        }
        System.exit(status);
    }

    /** A system property, or {@code defaultValue} when it is unset or blank (an empty Maven property). */
    static String prop(String name, String defaultValue) {
        String value = System.getProperty(name);
        return value == null || value.isBlank() ? defaultValue : value.trim();
    }
}
