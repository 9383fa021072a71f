package io.tributary.benchmarks;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The two single-node brokers most benchmarks compare: Apache Kafka (one KRaft node) and Tributary (one
 * node, embedded ZooKeeper), plaintext, each a JVM of its own with its data under the benchmark's work
 * directory.
 */
final class BrokerPair {

    private BrokerPair() {
    }

    /**
     * Starts Kafka, then Tributary, printing the Java version and each start; the brokers are added to
     * {@code started} as they are created, so that a failed start still stops the one before.
     *
     * @return Kafka and Tributary, in that order
     */
    static List<BrokerUnderTest> start(Path workDir, Path tributaryJar, String heap, List<BrokerUnderTest> started)
            throws Exception {
        JavaLauncher launcher = new JavaLauncher(BrokerBenchmark.writeLog4jConfig(java.nio.file.Files.createDirectories(
                workDir)));
        BenchmarkSecurity plaintext = BenchmarkSecurity.create(BenchmarkSecurity.Mode.PLAINTEXT, workDir.resolve("tls"));
        System.out.printf("Java %s, %d cores, broker heap %s, work dir %s%n", Runtime.version(),
                Runtime.getRuntime().availableProcessors(), heap, workDir);
        started.add(new KafkaBroker(workDir.resolve("kafka"), launcher, heap, plaintext));
        started.add(new TributaryBroker(workDir.resolve("tributary"), launcher, tributaryJar, heap, plaintext));
        for (BrokerUnderTest broker : started) {
            Duration took = broker.start();
            System.out.printf("%s started in %.1f s (%s)%n", broker.name(), took.toMillis() / 1e3, broker.bootstrap());
        }
        return List.copyOf(started);
    }

    /** {@code brokers} in the order of round {@code round}: which goes first alternates from round to round. */
    static List<BrokerUnderTest> inTurn(List<BrokerUnderTest> brokers, int round) {
        List<BrokerUnderTest> order = new ArrayList<>(brokers);
        Collections.rotate(order, -(round % order.size()));
        return order;
    }
}
