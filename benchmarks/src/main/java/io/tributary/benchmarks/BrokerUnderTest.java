package io.tributary.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import io.tributary.testing.TestPorts;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;

/**
 * A broker started as a child JVM for the benchmark: Apache Kafka's or Tributary's. Knows its
 * bootstrap address, its process (for CPU time) and its log file.
 */
abstract class BrokerUnderTest implements SystemUnderTest {

    /** How long a broker may take to start and answer an Admin client. */
    static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(180);
    /** Partitions created by one CreateTopics or CreatePartitions request of {@link #createTopic}. */
    static final int PARTITIONS_PER_REQUEST = 5_000;

    private final String name;
    protected final Path dir;
    protected final Path logFile;
    protected final int port;
    protected final BenchmarkSecurity security;
    private Process process;
    private boolean prepared;

    /**
     * @param dir      this broker's own directory (data and log file), created here
     * @param security the clients' listener (on {@link #port}) and what the Admin client needs for it
     */
    protected BrokerUnderTest(String name, Path dir, BenchmarkSecurity security) throws IOException {
        this.name = name;
        this.security = security;
        this.dir = Files.createDirectories(dir);
        this.logFile = dir.resolve(name + ".log");
        this.port = freePort();
    }

    /**
     * Starts the broker process and returns it; called once per {@link #launchProcess}, after
     * {@link #prepareLaunch}. A broker stopped cleanly is launched again on the data it left.
     */
    protected abstract Process launch() throws IOException, InterruptedException;

    /**
     * What must be done once before the first launch and is no part of the broker's start-up
     * (Kafka: formatting its storage; Tributary: copying its jar); nothing by default.
     */
    protected void prepareLaunch() throws IOException, InterruptedException {
    }

    /** Does {@link #prepareLaunch} unless done before; returns the time it took (zero when done before). */
    final Duration prepare() throws IOException, InterruptedException {
        Instant begin = Instant.now();
        if (!prepared) {
            prepareLaunch();
            prepared = true;
        }
        return Duration.between(begin, Instant.now());
    }

    @Override
    public final String name() {
        return name;
    }

    /** The Kafka clients' bootstrap address: this broker's client listener. */
    @Override
    public final String bootstrap() {
        return "127.0.0.1:" + port;
    }

    /** The broker's stdout and stderr. */
    final Path logFile() {
        return logFile;
    }

    /** The broker JVM's process id. */
    final long pid() {
        return process.pid();
    }

    /** CPU seconds the broker process has used so far (user + system). */
    @Override
    public final double cpuSeconds() {
        return CpuClock.processSeconds(process.pid());
    }

    /** CPU seconds the broker's JIT compiler threads used so far (see {@link CpuClock#compilerSeconds}). */
    @Override
    public final double jitCpuSeconds() {
        return CpuClock.compilerSeconds(process.pid());
    }

    @Override
    public final String logTail(int lines) {
        return "broker log " + logFile + " ends with:\n" + LogTail.of(logFile, lines);
    }

    @Override
    public String describe() {
        return "pid " + pid() + ", " + bootstrap();
    }

    /** Starts the broker and waits until an Admin client sees it in the cluster; returns the time taken. */
    @Override
    public final Duration start() throws IOException, InterruptedException {
        Instant begin = Instant.now();
        launchProcess();
        awaitAdmin(begin);
        return Duration.between(begin, Instant.now());
    }

    /**
     * Starts the broker process without waiting for it: a broker that cannot serve alone (a KRaft
     * voter waiting for a quorum) is launched with the others first, then {@link #awaitAdmin}.
     */
    final void launchProcess() throws IOException, InterruptedException {
        prepare();
        process = launch();
    }

    /**
     * Waits until the broker process exits by itself (a run that ends on its own, such as a class
     * data sharing training run) and returns its exit value; kills it after {@code timeout}.
     */
    final int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new IllegalStateException(name + " did not exit within " + timeout + "; its log " + logFile
                    + " ends with:\n" + LogTail.of(logFile, 40));
        }
        return process.exitValue();
    }

    /** Waits until an Admin client sees the broker launched at {@code begin} in the cluster. */
    final void awaitAdmin(Instant begin) throws InterruptedException {
        Instant deadline = begin.plus(STARTUP_TIMEOUT);
        while (true) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with " + process.exitValue()
                        + " while starting; its log " + logFile + " ends with:\n" + LogTail.of(logFile, 40));
            }
            if (answersAdmin()) {
                return;
            }
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException(name + " did not answer within " + STARTUP_TIMEOUT
                        + "; its log " + logFile + " ends with:\n" + LogTail.of(logFile, 40));
            }
            Thread.sleep(500);
        }
    }

    /** Creates {@code topic} with replication factor 1 and waits until every partition has a leader. */
    final void createTopic(String topic, int partitions) throws Exception {
        createTopic(topic, partitions, Map.of());
    }

    /** Creates {@code topic} with replication factor 1 and {@code configs}, and waits for its leaders. */
    @Override
    public final void createTopic(String topic, int partitions, Map<String, String> configs) throws Exception {
        createTopic(topic, partitions, (short) 1, configs);
    }

    /**
     * Creates {@code topic} with {@code replicationFactor} and {@code configs} through this broker,
     * and waits until every partition has a leader and {@code replicationFactor} replicas in sync.
     * Beyond {@link #PARTITIONS_PER_REQUEST} partitions, the topic is created with that many and
     * grown by CreatePartitions requests of that many: Kafka's KRaft controller refuses one operation
     * of more than 10,000 metadata records ("excessively large batch operation"). Waits up to 60 s,
     * or a second per 100 partitions when that is longer.
     */
    final void createTopic(String topic, int partitions, short replicationFactor, Map<String, String> configs)
            throws Exception {
        try (Admin admin = admin()) {
            long timeoutS = Math.max(60, partitions / 100);
            int created = Math.min(partitions, PARTITIONS_PER_REQUEST);
            admin.createTopics(List.of(new NewTopic(topic, created, replicationFactor).configs(configs)))
                    .all().get(timeoutS, TimeUnit.SECONDS);
            while (created < partitions) {
                created = Math.min(partitions, created + PARTITIONS_PER_REQUEST);
                admin.createPartitions(Map.of(topic, NewPartitions.increaseTo(created))).all()
                        .get(timeoutS, TimeUnit.SECONDS);
            }
            Instant deadline = Instant.now().plusSeconds(timeoutS);
            while (true) {
                try {
                    TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames()
                            .get(10, TimeUnit.SECONDS).get(topic);
                    if (d.partitions().size() == partitions
                            && d.partitions().stream().allMatch(p -> p.leader() != null && !p.leader().isEmpty()
                                    && p.isr().size() == replicationFactor)) {
                        return;
                    }
                } catch (Exception e) {
                    if (Instant.now().isAfter(deadline)) {
                        throw e;
                    }
                }
                if (Instant.now().isAfter(deadline)) {
                    throw new IllegalStateException(name + ": topic " + topic + " has partitions without a leader"
                            + " or with replicas out of sync after " + timeoutS + " s");
                }
                Thread.sleep(200);
            }
        }
    }

    /**
     * Makes share groups served ({@code share.version} 1, KIP-932, where the cluster was formatted
     * without it) and sets {@code share.auto.offset.reset=earliest} on share group {@code group}, so
     * its consumers read what was written before they joined.
     */
    @Override
    public final void readShareGroupFromEarliest(String group) throws Exception {
        try (Admin admin = admin()) {
            short finalized = admin.describeFeatures().featureMetadata().get(60, TimeUnit.SECONDS).finalizedFeatures()
                    .getOrDefault("share.version", new org.apache.kafka.clients.admin.FinalizedVersionRange((short) 0, (short) 0))
                    .maxVersionLevel();
            if (finalized < 1) {
                admin.updateFeatures(java.util.Map.of("share.version", new org.apache.kafka.clients.admin.FeatureUpdate(
                        (short) 1, org.apache.kafka.clients.admin.FeatureUpdate.UpgradeType.UPGRADE)),
                        new org.apache.kafka.clients.admin.UpdateFeaturesOptions()).all().get(60, TimeUnit.SECONDS);
            }
            admin.incrementalAlterConfigs(java.util.Map.of(
                    new org.apache.kafka.common.config.ConfigResource(org.apache.kafka.common.config.ConfigResource.Type.GROUP, group),
                    List.of(new org.apache.kafka.clients.admin.AlterConfigOp(new org.apache.kafka.clients.admin.ConfigEntry(
                            "share.auto.offset.reset", "earliest"), org.apache.kafka.clients.admin.AlterConfigOp.OpType.SET))))
                    .all().get(60, TimeUnit.SECONDS);
        }
    }

    /** Stops the broker: SIGTERM, then a forced kill after {@code grace}. Safe to call more than once. */
    @Override
    public final void stop(Duration grace) {
        if (process == null || !process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** Kills the broker process at once (SIGKILL), as a crash would, and waits until it is gone. */
    final void kill() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** The broker process's resident set size from {@code /proc/<pid>/status}, MiB; NaN where unavailable. */
    final double rssMiB() {
        try (java.util.stream.Stream<String> lines = Files.lines(Path.of("/proc", Long.toString(pid()), "status"))) {
            return lines.filter(l -> l.startsWith("VmRSS:")).findFirst()
                    .map(l -> Long.parseLong(l.replaceAll("[^0-9]", "")) / 1024.0).orElse(Double.NaN);
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /** Whether the broker process is still running. */
    @Override
    public final boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** How many brokers an Admin client asking this one sees in the cluster, 0 if it does not answer. */
    final int brokersSeen() {
        try (Admin admin = admin()) {
            return admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).size();
        } catch (Exception e) {
            return 0;
        }
    }

    private boolean answersAdmin() {
        try (Admin admin = admin()) {
            return !admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty();
        } catch (Exception e) {
            return false;
        }
    }

    private Admin admin() {
        Properties props = new Properties();
        props.putAll(security.clientProperties());
        props.putAll(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000",
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "20000"));
        return Admin.create(props);
    }

    /**
     * A TCP port that was free a moment ago, below the kernel's ephemeral range: a port from that
     * range can be taken by a client's outgoing connection before the broker binds it.
     */
    static int freePort() {
        return TestPorts.freePort();
    }

    /** The JVM options both brokers get (those of Kafka's start scripts), with the given heap size. */
    static List<String> jvmOptions(String heap) {
        return List.of("-Xms" + heap, "-Xmx" + heap, "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=20",
                "-XX:InitiatingHeapOccupancyPercent=35", "-XX:+ExplicitGCInvokesConcurrent",
                "-Djava.awt.headless=true");
    }
}
