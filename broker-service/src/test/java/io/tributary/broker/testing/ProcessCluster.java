package io.tributary.broker.testing;

import io.tributary.broker.cluster.EmbeddedZooKeeper;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * Brokers as processes of their own around one ZooKeeper of this JVM, for tests whose faults are
 * real signals: {@link #kill} is SIGKILL (no shutdown hook, nothing flushed), {@link #stop} SIGTERM.
 * Each broker keeps its port and data directory across restarts. Not thread-safe: one test drives it.
 */
public final class ProcessCluster implements AutoCloseable {

    private final Path dir;
    private final EmbeddedZooKeeper zooKeeper;
    private final List<String> extraArgs;
    private final Map<Integer, Integer> ports = new HashMap<>();
    private final Map<Integer, BrokerProcess> processes = new HashMap<>();
    private int starts;

    private ProcessCluster(Path dir, EmbeddedZooKeeper zooKeeper, List<String> extraArgs) {
        this.dir = dir;
        this.zooKeeper = zooKeeper;
        this.extraArgs = extraArgs;
    }

    /** Starts ZooKeeper and {@code brokers} broker processes side by side, with {@code extraArgs} each. */
    public static ProcessCluster start(Path dir, int brokers, List<String> extraArgs) throws Exception {
        ProcessCluster cluster = new ProcessCluster(dir,
            EmbeddedZooKeeper.start(dir.resolve("zookeeper").toFile(), 0, 200, true), extraArgs);
        try {
            for (int id = 0; id < brokers; id++) {
                cluster.ports.put(id, TestBroker.freePort());
            }
            for (int id = 0; id < brokers; id++) {
                cluster.launch(id);
            }
            for (int id = 0; id < brokers; id++) {
                cluster.processes.get(id).awaitStarted(Duration.ofSeconds(120));
            }
            return cluster;
        } catch (Exception e) {
            cluster.close();
            throw e;
        }
    }

    private BrokerProcess launch(int id) throws IOException {
        List<String> args = new ArrayList<>(List.of("--broker.id=" + id, "--broker.data-dir=" + dir.resolve("broker-" + id),
            "--broker.listeners=PLAINTEXT://127.0.0.1:" + ports.get(id),
            "--broker.zookeeper-connect=" + zooKeeper.connectString(), "--broker.zookeeper-session-timeout-ms=3000",
            "--broker.replica-lag-time-max-ms=3000", "--broker.replica-fetch-backoff-ms=200",
            "--broker.controlled-shutdown-retry-backoff-ms=2000", "--server.port=0", "--broker.num-io-threads=2",
            "--broker.num-network-threads=2", "--broker.log-cleaner-dedupe-buffer-size=1048576"));
        args.addAll(extraArgs);
        BrokerProcess process = BrokerProcess.launch(dir, "broker-" + id + "-" + (starts++) + ".log", args);
        processes.put(id, process);
        return process;
    }

    /** Starts broker {@code id} again (same port and data) and waits until it runs. */
    public void start(int id) throws Exception {
        launch(id).awaitStarted(Duration.ofSeconds(120));
    }

    /** SIGKILL to broker {@code id}; returns once it is dead. */
    public void kill(int id) throws InterruptedException {
        processes.get(id).kill();
    }

    /** SIGTERM to broker {@code id} (a controlled shutdown); its exit code. */
    public int stop(int id) throws InterruptedException {
        return processes.get(id).stop();
    }

    /** {@code host:port} of every broker. */
    public String bootstrapServers() {
        return ports.values().stream().map(p -> "127.0.0.1:" + p).collect(Collectors.joining(","));
    }

    /** A new Admin client of the cluster; close it. */
    public Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()));
    }

    @Override
    public void close() throws Exception {
        for (BrokerProcess process : processes.values()) {
            process.close();
        }
        zooKeeper.close();
    }
}
