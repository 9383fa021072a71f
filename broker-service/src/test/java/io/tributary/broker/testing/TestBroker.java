package io.tributary.broker.testing;

import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tributary.broker.BrokerServer;
import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.config.BrokerBootstrapProperties;
import io.tributary.broker.config.BrokerProperties;
import io.tributary.broker.config.BrokerSecurityProperties;
import io.tributary.broker.config.ShareGroupProperties;
import io.tributary.testing.TestPorts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Time;

/**
 * A single broker in the test JVM with its own embedded ZooKeeper, on loopback ports, with
 * short timers. The Kafka port is fixed at creation so a restarted broker keeps its address.
 */
public final class TestBroker implements AutoCloseable {

    private final Path dataDir;
    private final Map<String, Object> settings;
    private BrokerServer server;

    private TestBroker(Path dataDir, Map<String, Object> settings) {
        this.dataDir = dataDir;
        this.settings = settings;
    }

    /**
     * Starts a broker with data under {@code dataDir}.
     *
     * @param overrides {@code broker.*} settings on top of the test defaults
     */
    public static TestBroker start(Path dataDir, Map<String, Object> overrides) {
        Map<String, Object> settings = new HashMap<>();
        settings.put("broker.id", "0");
        settings.put("broker.data-dir", dataDir.toString());
        settings.put("broker.listeners", "PLAINTEXT://127.0.0.1:" + freePort());
        settings.put("broker.embedded-zookeeper-port", "0");
        settings.put("broker.embedded-zookeeper-tick-time-ms", "200");
        settings.put("broker.zookeeper-session-timeout-ms", "4000");
        settings.put("broker.zookeeper-connection-timeout-ms", "20000");
        settings.put("broker.num-network-threads", "2");
        settings.put("broker.num-io-threads", "2");
        settings.put("broker.offsets-topic-replication-factor", "1");
        settings.put("broker.offsets-topic-num-partitions", "5");
        settings.put("broker.group-initial-rebalance-delay-ms", "0");
        settings.put("broker.group-min-session-timeout-ms", "1000");
        settings.putAll(overrides);
        TestBroker broker = new TestBroker(dataDir, settings);
        broker.startServer();
        return broker;
    }

    public static TestBroker start(Path dataDir) {
        return start(dataDir, Map.of());
    }

    private void startServer() {
        server = new BrokerServer(BrokerProperties.bind(settings), BrokerSecurityProperties.bind(settings),
            BrokerBootstrapProperties.bind(settings), ShareGroupProperties.bind(settings), Time.SYSTEM,
            new SimpleMeterRegistry());
        server.startup();
    }

    /**
     * Stops the broker cleanly and starts it again on the same data and port, returning once it
     * leads its partitions again: as in Kafka, a restarted broker leads only after the controller
     * elects it in a new leader epoch (until then produce gets NOT_LEADER_OR_FOLLOWER).
     */
    public void restart() {
        server.shutdown();
        startAgain();
    }

    public void stop() {
        server.shutdown();
    }

    /** Starts a stopped broker again, returning once it leads its partitions again (see {@link #restart}). */
    public void startAgain() {
        startServer();
        awaitLeaderships();
    }

    /** Waits until this broker leads, in the stored leader epoch, every partition whose state names it leader. */
    private void awaitLeaderships() {
        MetadataCache metadata = server.metadataCache();
        int id = server.properties().id();
        await().atMost(Duration.ofSeconds(30)).until(() -> metadata.topicNames().stream()
            .flatMap(topic -> metadata.topic(topic).stream()
                .flatMap(t -> t.replicas().keySet().stream().map(p -> new TopicPartition(topic, p))))
            .allMatch(tp -> metadata.partitionState(tp).filter(state -> state.leader() == id)
                .map(state -> server.replicaManager().getPartition(tp)
                    .map(p -> p.isLeader() && p.leaderEpoch() == state.leaderEpoch()).orElse(false))
                .orElse(true)));
    }

    public BrokerServer server() {
        return server;
    }

    public Path dataDir() {
        return dataDir;
    }

    public String bootstrapServers() {
        return server.bootstrapServers();
    }

    public Admin admin() {
        return Clients.admin(bootstrapServers());
    }

    public KafkaProducer<byte[], byte[]> producer(Map<String, Object> overrides) {
        return Clients.producer(bootstrapServers(), overrides);
    }

    public KafkaConsumer<byte[], byte[]> consumer(Map<String, Object> overrides) {
        return Clients.consumer(bootstrapServers(), overrides);
    }

    @Override
    public void close() {
        if (server != null) {
            server.shutdown();
        }
    }

    /** A port that is free now, below the ephemeral range (see {@link TestPorts}). */
    public static int freePort() {
        return TestPorts.freePort();
    }
}
