package io.tributary.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs Kafka's ProducerPerformance and ConsumerPerformance against Apache Kafka's own broker and
 * against Tributary, taking turns, and prints throughput (records/s, MB/s), producer latency (avg
 * and p99, ms) and the broker's CPU (seconds per run, microseconds per record) with Tributary/Kafka
 * ratios. A consumer run first fills a fresh topic with ProducerPerformance (not measured). Both brokers run as child
 * JVMs with the same heap and GC options; data lives in a temp directory removed on exit.
 *
 * <p>With {@code benchmark.cluster} above 1 (the {@code replicated} set, {@code exec:exec@replicated}),
 * each side is a cluster of that many brokers on this machine ({@link BrokerCluster}) with topics
 * replicated to all of them, and the CPU per record is the sum of the brokers'.
 *
 * <p>Parameters are {@code benchmark.*} system properties, see {@link BenchmarkSettings}.
 */
public final class BrokerBenchmark {

    private static final Duration STOP_GRACE = Duration.ofSeconds(20);

    private final BenchmarkSettings settings;
    private final List<SystemUnderTest> brokers = new ArrayList<>();
    private final AtomicBoolean cleanedUp = new AtomicBoolean();
    private Path workDir;
    private PerfToolRun tool;
    private ProducerPerformanceRun producer;
    private ConsumerPerformanceRun consumer;

    private BrokerBenchmark(BenchmarkSettings settings) {
        this.settings = settings;
    }

    public static void main(String[] args) {
        BenchmarkSettings.runAndExit(() -> new BrokerBenchmark(BenchmarkSettings.fromSystemProperties()).run());
    }

    /** Runs everything; returns the exit status (1 if any run failed). */
    private int run() throws Exception {
        TributaryBroker.requireJar(settings.tributaryJar());
        if (settings.baselineJar() != null) {
            TributaryBroker.requireJar(settings.baselineJar());
        }
        workDir = WorkDirs.create("tributary-bench-", this::cleanUp);
        JavaLauncher launcher = new JavaLauncher(writeLog4jConfig(workDir));
        BenchmarkSecurity security = BenchmarkSecurity.create(settings.security(), workDir.resolve("tls"));
        Path runs = Files.createDirectories(workDir.resolve("runs"));
        tool = new PerfToolRun(launcher, security, runs, settings.runTimeout());
        producer = new ProducerPerformanceRun(settings, tool);
        consumer = new ConsumerPerformanceRun(tool);
        printSetup(security);

        int size = settings.cluster();
        if (size == 1) {
            brokers.add(new KafkaBroker(workDir.resolve("kafka"), launcher, settings.brokerHeap(), security));
            brokers.add(new TributaryBroker(workDir.resolve("tributary"), launcher, settings.tributaryJar(),
                    settings.brokerHeap(), security));
        } else {
            brokers.add(BrokerCluster.kafka(size, workDir.resolve("kafka"), launcher, settings.brokerHeap(), security));
            brokers.add(BrokerCluster.tributary("tributary", size, workDir.resolve("tributary"), launcher,
                    settings.tributaryJar(), settings.brokerHeap(), security));
        }
        if (settings.baselineJar() != null) {
            brokers.add(size == 1
                    ? new TributaryBroker("baseline", workDir.resolve("baseline"), launcher, settings.baselineJar(),
                            settings.brokerHeap(), security)
                    : BrokerCluster.tributary("baseline", size, workDir.resolve("baseline"), launcher,
                            settings.baselineJar(), settings.brokerHeap(), security));
        }
        for (SystemUnderTest broker : brokers) {
            Duration took = broker.start();
            System.out.printf("%s started in %.1f s (%s)%n", broker.name(), took.toMillis() / 1e3, broker.describe());
        }
        warmUp();

        List<RunResult> results = new ArrayList<>();
        for (int round = 1; round <= settings.rounds(); round++) {
            System.out.printf("%nRound %d of %d%n", round, settings.rounds());
            for (int s = 0; s < settings.scenarios().size(); s++) {
                Scenario scenario = settings.scenarios().get(s);
                for (SystemUnderTest broker : turnOrder(round + s)) {
                    RunResult result = measure(broker, scenario, round, "bench-" + scenario.name() + "-r" + round,
                            settings.records());
                    System.out.println(result.line());
                    results.add(result);
                }
            }
        }
        Report report = new Report(settings, security, results);
        report.print(System.out);
        Path plot = Path.of(System.getProperty("benchmark.plot", "target/benchmark-"
                + java.time.LocalDateTime.now().format(java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))
                + ".png"));
        ComparisonChart.write(plot, report.chartTitle(), report.bars());
        System.out.printf("%nPlot of throughput and p99: %s%n", plot.toAbsolutePath());
        System.out.printf("%nLoad average at the end: %s%n", loadAverage());
        return results.stream().allMatch(RunResult::ok) ? 0 : 1;
    }

    private void warmUp() throws Exception {
        if (settings.warmupRecords() <= 0) {
            return;
        }
        // Every scenario once: each takes paths of its own (acks=all's idempotent producer, lz4, fetches), and
        // a path first taken while measuring makes the JIT deoptimize and recompile hot methods in that run.
        System.out.printf("%nWarm-up (not reported): %,d records per broker and scenario%n", settings.warmupRecords());
        for (Scenario scenario : settings.scenarios()) {
            for (SystemUnderTest broker : brokers) {
                RunResult r = measure(broker, scenario, 0, "warmup-" + scenario.name(), settings.warmupRecords());
                System.out.println(r.line());
            }
        }
    }

    private RunResult measure(SystemUnderTest broker, Scenario scenario, int round, String topic, long records)
            throws Exception {
        if (!broker.isAlive()) {
            return new RunResult(broker.name(), scenario.name(), round, null, 0, 0, 0, 0, 0,
                    "a broker process is not running; " + broker.logTail(40));
        }
        try {
            broker.createTopic(topic, settings.partitions(), scenario.topicConfigs());
        } catch (Exception e) {
            return new RunResult(broker.name(), scenario.name(), round, null, 0, 0, 0, 0, 0,
                    "creating topic " + topic + " failed: " + e + "\n  " + broker.logTail(40));
        }
        Thread.sleep(settings.pause().toMillis());
        RunResult produced = producer.run(broker, scenario, round, topic, records);
        if (!scenario.consume() || !produced.ok()) {
            return produced;
        }
        Thread.sleep(settings.pause().toMillis());
        return consumer.run(broker, scenario, round, topic, records);
    }

    /** The brokers in turn, each turn starting one broker further (Kafka first in even turns of two brokers). */
    private List<SystemUnderTest> turnOrder(int turn) {
        List<SystemUnderTest> order = new ArrayList<>(brokers);
        java.util.Collections.rotate(order, -(turn % order.size()));
        return order;
    }

    private void printSetup(BenchmarkSecurity security) {
        System.out.printf("Benchmark: Kafka %s ProducerPerformance and ConsumerPerformance, %,d records x %d B,"
                        + " %d partitions,"
                        + " %d round(s), scenarios %s%n", org.apache.kafka.common.utils.internals.AppInfoParser.getVersion(),
                settings.records(), settings.recordSize(), settings.partitions(), settings.rounds(),
                settings.scenarios().stream().map(Scenario::name).toList());
        if (settings.cluster() > 1) {
            System.out.printf("Clusters: %d brokers each on this machine (Kafka: KRaft voters, combined broker+controller;"
                    + " Tributary: one ZooKeeper, embedded in broker 0), topics with replication factor %d and"
                    + " min.insync.replicas=%d%n", settings.cluster(), settings.cluster(), Math.max(1, settings.cluster() - 1));
        }
        System.out.printf("Security: clients on %s%n", security.describe());
        System.out.printf("Java %s, %d cores, load average %s, broker heap %s, work dir %s%n",
                Runtime.version(), Runtime.getRuntime().availableProcessors(), loadAverage(),
                settings.brokerHeap(), workDir);
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "n/a";
        }
    }

    /** The log4j2 configuration of the child JVMs (WARN, or {@code benchmark.log-level}), written into {@code dir}. */
    static Path writeLog4jConfig(Path dir) throws IOException {
        return Files.writeString(dir.resolve("log4j2.properties"), """
                status = warn
                appender.out.type = Console
                appender.out.name = OUT
                appender.out.layout.type = PatternLayout
                appender.out.layout.pattern = [%d] %p %m (%c)%n
                rootLogger.level = ${sys:benchmark.log-level:-WARN}
                rootLogger.appenderRef.out.ref = OUT
                logger.request.name = kafka.request.logger
                logger.request.level = WARN
                """);
    }

    /** Stops the producer and the brokers and deletes the work directory; runs once, also on Ctrl-C. */
    private void cleanUp() {
        if (!cleanedUp.compareAndSet(false, true)) {
            return;
        }
        if (tool != null) {
            tool.killCurrent();
        }
        brokers.forEach(b -> b.stop(STOP_GRACE));
        WorkDirs.delete(workDir);
    }
}
