package io.tributary.benchmarks;

import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.Uuid;

/**
 * Apache Kafka's own broker from the released {@code kafka_2.13} jars: one combined-mode KRaft node
 * (broker and controller), storage formatted first with {@code kafka.tools.StorageTool}. With a
 * SASL_SSL client listener, the SCRAM user is added at format time ({@code --add-scram}) and the
 * inter-broker and controller listeners stay in plaintext.
 *
 * <p>Further brokers of the same cluster ({@link #joining}) are broker-only nodes whose controller
 * is the first node's, formatted with its cluster id; they take plaintext clients only.
 *
 * <p>A cluster of combined nodes ({@link #quorum}) has every node a voter of a static controller
 * quorum ({@code controller.quorum.voters}), all formatted with one cluster id; each has the
 * client listener of a single node, SASL_SSL included.
 *
 * <p>Further server properties ({@code quota.window.num=2}...) can be given to a single node; they
 * are written last to its {@code server.properties}, replacing the benchmark's own where both set one.
 */
final class KafkaBroker extends BrokerUnderTest {

    private final JavaLauncher launcher;
    private final String heap;
    private final int controllerPort = freePort();
    private final int internalPort = freePort();
    private final int nodeId;
    /** The combined-mode node whose controller this broker-only node uses, or null for a combined node. */
    private final KafkaBroker quorum;
    /** Every voter of the static controller quorum this combined node is one of, or null for a standalone node. */
    private final List<KafkaBroker> voters;
    private final String clusterId;
    /** Server properties given by the benchmark, written after (and over) the broker's own. */
    private final Map<String, String> settings;

    KafkaBroker(Path dir, JavaLauncher launcher, String heap, BenchmarkSecurity security) throws IOException {
        this(dir, launcher, heap, security, Map.of());
    }

    /** @param settings further server properties, e.g. {@code quota.window.num}; they win over the benchmark's */
    KafkaBroker(Path dir, JavaLauncher launcher, String heap, BenchmarkSecurity security, Map<String, String> settings)
            throws IOException {
        this("kafka", dir, launcher, heap, security, 1, null, null, Uuid.randomUuid().toString(), settings);
    }

    private KafkaBroker(String name, Path dir, JavaLauncher launcher, String heap, BenchmarkSecurity security,
                        int nodeId, KafkaBroker quorum, List<KafkaBroker> voters, String clusterId,
                        Map<String, String> settings) throws IOException {
        super(name, dir, security);
        this.launcher = launcher;
        this.heap = heap;
        this.nodeId = nodeId;
        this.quorum = quorum;
        this.voters = voters;
        this.clusterId = clusterId;
        this.settings = Map.copyOf(settings);
    }

    /**
     * {@code count} combined nodes (ids 1 to {@code count}) named {@code kafka-1}..., each in its own
     * directory under {@code dir}, all voters of one static controller quorum. Launch them all before
     * waiting for any: a voter alone cannot elect a controller.
     */
    static List<KafkaBroker> quorum(int count, Path dir, JavaLauncher launcher, String heap, BenchmarkSecurity security)
            throws IOException {
        String clusterId = Uuid.randomUuid().toString();
        List<KafkaBroker> voters = new ArrayList<>();
        for (int id = 1; id <= count; id++) {
            voters.add(new KafkaBroker("kafka-" + id, dir.resolve("kafka-" + id), launcher, heap, security, id, null,
                    voters, clusterId, Map.of()));
        }
        return List.copyOf(voters);
    }

    /** A broker-only node {@code nodeId} of {@code quorum}'s cluster (start it after {@code quorum}); plaintext. */
    static KafkaBroker joining(KafkaBroker quorum, String name, Path dir, int nodeId) throws IOException {
        if (quorum.security.secured()) {
            throw new IllegalArgumentException("a joining Kafka broker takes plaintext clients only");
        }
        return new KafkaBroker(name, dir, quorum.launcher, quorum.heap, quorum.security, nodeId, quorum, null,
                quorum.clusterId, Map.of());
    }

    /** The KRaft node id (the broker id clients see). */
    int nodeId() {
        return nodeId;
    }

    /** Writes the configuration and formats the storage: once, before the first launch. */
    @Override
    protected void prepareLaunch() throws IOException, InterruptedException {
        format(writeConfig());
    }

    @Override
    protected Process launch() throws IOException, InterruptedException {
        Path config = dir.resolve("server.properties");
        List<String> jvm = new ArrayList<>(jvmOptions(heap));
        jvm.add("-Dbenchmark.log-level=INFO");
        return JavaLauncher.start(launcher.mainClass(jvm, "kafka.Kafka", List.of(config.toString())), dir, logFile);
    }

    private void format(Path config) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("format", "-t", clusterId, "-c", config.toString()));
        if (quorum == null && voters == null) {
            args.add("--standalone"); // a static quorum (controller.quorum.voters) takes neither flag
        }
        if (security.secured()) {
            args.addAll(List.of("--add-scram", security.scramUser()));
        }
        List<String> command = launcher.mainClass(List.of("-Xmx256m"), "kafka.tools.StorageTool", args);
        Process format = JavaLauncher.start(command, dir, logFile);
        if (!format.waitFor(120, TimeUnit.SECONDS) || format.exitValue() != 0) {
            format.destroyForcibly();
            throw new IllegalStateException("formatting Kafka's storage failed; " + logFile + " ends with:\n"
                    + LogTail.of(logFile, 30));
        }
    }

    private Path writeConfig() throws IOException {
        Properties p = new Properties();
        p.setProperty("process.roles", quorum == null ? "broker,controller" : "broker");
        p.setProperty("node.id", Integer.toString(nodeId));
        if (voters != null) {
            p.setProperty("controller.quorum.voters", String.join(",", voters.stream()
                    .map(v -> v.nodeId + "@127.0.0.1:" + v.controllerPort).toList()));
        } else {
            p.setProperty("controller.quorum.bootstrap.servers", "127.0.0.1:"
                    + (quorum == null ? controllerPort : quorum.controllerPort));
        }
        p.setProperty("controller.listener.names", "CONTROLLER");
        if (quorum != null) {
            p.setProperty("listeners", "PLAINTEXT://127.0.0.1:" + port);
            p.setProperty("inter.broker.listener.name", "PLAINTEXT");
            p.setProperty("listener.security.protocol.map", "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT");
        } else if (security.secured()) {
            securedListeners(p);
        } else {
            p.setProperty("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
            p.setProperty("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
            p.setProperty("inter.broker.listener.name", "PLAINTEXT");
            p.setProperty("listener.security.protocol.map", "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT");
        }
        p.setProperty("log.dirs", dir.resolve("kafka-logs").toString());
        p.setProperty("offsets.topic.replication.factor", "1");
        p.setProperty("transaction.state.log.replication.factor", "1");
        p.setProperty("transaction.state.log.min.isr", "1");
        p.setProperty("share.coordinator.state.topic.replication.factor", "1");
        p.setProperty("share.coordinator.state.topic.min.isr", "1");
        p.setProperty("group.initial.rebalance.delay.ms", "0");
        p.setProperty("auto.create.topics.enable", "false");
        settings.forEach(p::setProperty);
        Path file = dir.resolve("server.properties");
        try (Writer out = Files.newBufferedWriter(file)) {
            p.store(out, voters != null ? "KRaft voter " + nodeId + " of " + voters.size() + " for the benchmark"
                    : "KRaft broker for the benchmark");
        }
        return file;
    }

    /** Clients on SASL_SSL at {@link #port}; INTERNAL (inter-broker) and CONTROLLER in plaintext. */
    private void securedListeners(Properties p) {
        p.setProperty("listeners", "SASL_SSL://127.0.0.1:" + port + ",INTERNAL://127.0.0.1:" + internalPort
                + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.setProperty("advertised.listeners", "SASL_SSL://127.0.0.1:" + port + ",INTERNAL://127.0.0.1:" + internalPort);
        p.setProperty("inter.broker.listener.name", "INTERNAL");
        p.setProperty("listener.security.protocol.map", "CONTROLLER:PLAINTEXT,INTERNAL:PLAINTEXT,SASL_SSL:SASL_SSL");
        p.setProperty("sasl.enabled.mechanisms", BenchmarkSecurity.MECHANISM);
        // A SCRAM server needs a JAAS entry, without credentials (the users are in the metadata log).
        p.setProperty("listener.name.sasl_ssl." + BenchmarkSecurity.MECHANISM.toLowerCase(Locale.ROOT)
                + ".sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required;");
        TlsStores stores = security.stores();
        p.setProperty("ssl.keystore.type", "PKCS12");
        p.setProperty("ssl.keystore.location", stores.keyStore().toString());
        p.setProperty("ssl.keystore.password", stores.password());
        p.setProperty("ssl.key.password", stores.password());
    }
}
