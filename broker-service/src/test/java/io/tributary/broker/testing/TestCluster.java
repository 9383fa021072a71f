package io.tributary.broker.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tributary.broker.BrokerCrash;
import io.tributary.broker.BrokerServer;
import io.tributary.broker.cluster.EmbeddedZooKeeper;
import io.tributary.broker.cluster.LeaderAndIsr;
import io.tributary.broker.config.BrokerProperties;
import io.tributary.broker.config.BrokerSecurityProperties;
import io.tributary.broker.log.FetchIsolation;
import io.tributary.broker.log.PartitionLog;
import io.tributary.broker.replica.Partition;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.utils.Time;

/**
 * Several brokers in the test JVM sharing one ZooKeeper that runs apart from them (so a broker's
 * crash never takes ZooKeeper with it), on fixed loopback ports so a restarted broker keeps its
 * address, with short timers (ZooKeeper tick 200 ms, 2 s sessions, {@code replica.lag.time.max.ms}
 * 2 s, rebalance delay 0, few offsets partitions).
 *
 * <p>{@link #crash} stops a broker as a kill would ({@link BrokerCrash}); {@link #stop}
 * shuts it down cleanly; {@link #start} starts it again on the same data.
 */
public final class TestCluster implements AutoCloseable {

    private final EmbeddedZooKeeper zooKeeper;
    private final Map<Integer, Map<String, Object>> settings = new LinkedHashMap<>();
    private final Map<Integer, BrokerServer> brokers = new LinkedHashMap<>();

    private TestCluster(EmbeddedZooKeeper zooKeeper) {
        this.zooKeeper = zooKeeper;
    }

    /**
     * Starts a ZooKeeper and {@code size} brokers with ids 0 to size-1.
     *
     * @param overrides {@code broker.*} settings for every broker, on top of the test defaults; {@code {id}}
     *                  in a value is replaced by the broker id, {@code {zookeeper}} by the ZooKeeper's address
     */
    public static TestCluster start(Path dir, int size, Map<String, Object> overrides) throws Exception {
        EmbeddedZooKeeper zk = EmbeddedZooKeeper.start(dir.resolve("zookeeper").toFile(), 0, 200, true);
        TestCluster cluster = new TestCluster(zk);
        try {
            for (int id = 0; id < size; id++) {
                Map<String, Object> s = new HashMap<>();
                s.put("broker.id", Integer.toString(id));
                s.put("broker.data-dir", dir.resolve("broker-" + id).toString());
                // Port 0 at the first start; the bound port is kept for restarts (no window for another bind).
                s.put("broker.listeners", "PLAINTEXT://127.0.0.1:0");
                s.put("broker.zookeeper-connect", zk.connectString());
                s.put("broker.zookeeper-session-timeout-ms", "2000");
                s.put("broker.zookeeper-connection-timeout-ms", "20000");
                s.put("broker.num-network-threads", "2");
                s.put("broker.num-io-threads", "2");
                s.put("broker.default-replication-factor", Integer.toString(Math.min(3, size)));
                s.put("broker.offsets-topic-replication-factor", Integer.toString(Math.min(3, size)));
                s.put("broker.offsets-topic-num-partitions", "3");
                s.put("broker.group-initial-rebalance-delay-ms", "0");
                s.put("broker.group-min-session-timeout-ms", "1000");
                s.put("broker.replica-lag-time-max-ms", "2000");
                s.put("broker.replica-fetch-wait-max-ms", "200");
                s.put("broker.replica-fetch-backoff-ms", "200");
                s.put("broker.replica-socket-timeout-ms", "5000");
                int brokerId = id;
                // "{id}" in a setting stands for the broker's id (e.g. per-broker log directories),
                // "{zookeeper}" for the shared ZooKeeper's address (e.g. to add a chroot).
                overrides.forEach((k, v) -> s.put(k, v instanceof String str
                    ? str.replace("{id}", Integer.toString(brokerId)).replace("{zookeeper}", zk.connectString()) : v));
                cluster.settings.put(id, s);
            }
            for (int id : cluster.settings.keySet()) {
                cluster.start(id);
            }
            // Every broker's metadata (fed by ZooKeeper watches) knows every broker before a test asks any of them.
            await().atMost(Duration.ofSeconds(30)).until(() -> cluster.brokers.values().stream()
                .allMatch(b -> b.metadataCache().aliveBrokers().size() == size));
            cluster.awaitController();
            return cluster;
        } catch (RuntimeException | Error e) {
            cluster.close();
            throw e;
        }
    }

    /** Starts (or starts again, on the same data and port) broker {@code id}. */
    public void start(int id) {
        start(id, server -> { });
    }

    /**
     * Starts broker {@code id}, letting {@code beforeStartup} see the new server first (e.g. to add
     * a state listener).
     */
    public void start(int id, java.util.function.Consumer<BrokerServer> beforeStartup) {
        BrokerServer server = new BrokerServer(BrokerProperties.bind(settings.get(id)),
            BrokerSecurityProperties.bind(settings.get(id)), io.tributary.broker.config.BrokerBootstrapProperties.none(),
            io.tributary.broker.config.ShareGroupProperties.bind(settings.get(id)), Time.SYSTEM, new SimpleMeterRegistry());
        brokers.put(id, server);
        beforeStartup.accept(server);
        server.startup();
        settings.get(id).put("broker.listeners", server.boundEndPoints().stream()
            .map(e -> e.listenerName() + "://" + e.host() + ":" + e.port()).collect(Collectors.joining(",")));
    }

    /** Kills broker {@code id} as a crash would: no controlled shutdown, logs recovered at the next start. */
    public void crash(int id) {
        BrokerCrash.crash(brokers.get(id));
    }

    /** Shuts broker {@code id} down cleanly. */
    public void stop(int id) {
        brokers.get(id).shutdown();
    }

    public BrokerServer broker(int id) {
        return brokers.get(id);
    }

    public boolean isRunning(int id) {
        return brokers.get(id) != null && brokers.get(id).isStarted();
    }

    public List<Integer> brokerIds() {
        return List.copyOf(settings.keySet());
    }

    public EmbeddedZooKeeper zooKeeper() {
        return zooKeeper;
    }

    /** Addresses of every broker's first listener, running or not (clients skip the dead ones). */
    public String bootstrapServers() {
        return bootstrapServers(null);
    }

    /** Addresses of every broker's listener {@code name} (null: the first), running or not. */
    public String bootstrapServers(String name) {
        return settings.values().stream().map(s -> {
            String[] listeners = ((String) s.get("broker.listeners")).split(",");
            for (String listener : listeners) {
                if (name == null || listener.startsWith(name + "://")) {
                    return listener.substring(listener.indexOf("://") + 3);
                }
            }
            throw new IllegalArgumentException("No listener " + name + " in " + s.get("broker.listeners"));
        }).collect(Collectors.joining(","));
    }

    /** A running broker, for reading the cluster's state. */
    public BrokerServer anyRunning() {
        return brokers.values().stream().filter(BrokerServer::isStarted).findFirst()
            .orElseThrow(() -> new IllegalStateException("no broker is running"));
    }

    /** The partition's state as stored in ZooKeeper. */
    public LeaderAndIsr partitionState(TopicPartition tp) {
        return anyRunning().zkClient().getPartitionState(tp.topic(), tp.partition())
            .orElseThrow(() -> new AssertionError("no state for " + tp));
    }

    /**
     * The partition's leader, waiting until it has one that acts as leader in the stored leader
     * epoch and every running broker's metadata names it.
     */
    public int awaitLeader(TopicPartition tp) {
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            try {
                LeaderAndIsr state = partitionState(tp);
                return state.hasLeader() && isRunning(state.leader())
                    && replica(state.leader(), tp).map(p -> p.isLeader() && p.leaderEpoch() == state.leaderEpoch())
                        .orElse(false)
                    && brokers.values().stream().filter(BrokerServer::isStarted).allMatch(b -> b.metadataCache()
                        .partitionState(tp).map(s -> s.leaderEpoch() == state.leaderEpoch()).orElse(false));
            } catch (AssertionError | RuntimeException e) {
                return false;
            }
        });
        return partitionState(tp).leader();
    }

    /** Waits until the partition's ISR is exactly {@code expected} (in any order). */
    public void awaitIsr(TopicPartition tp, List<Integer> expected) {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
            assertThat(partitionState(tp).isr()).containsExactlyInAnyOrderElementsOf(expected));
    }

    /** The controller's id, waiting until one is active. */
    public int awaitController() {
        await().atMost(Duration.ofSeconds(30)).until(() -> brokers.values().stream()
            .anyMatch(b -> b.isStarted() && b.controller().isActive()));
        return brokers.entrySet().stream().filter(e -> e.getValue().isStarted() && e.getValue().controller().isActive())
            .findFirst().orElseThrow().getKey();
    }

    /** The local replica of {@code tp} on a running broker. */
    public Optional<Partition> replica(int brokerId, TopicPartition tp) {
        BrokerServer b = brokers.get(brokerId);
        return b == null || !b.isStarted() ? Optional.empty() : b.replicaManager().getPartition(tp);
    }

    /**
     * Waits until every assigned replica of {@code tp} runs, is in the ISR and has the leader's
     * log end offset and high watermark, then asserts that the replicas' logs are byte for byte
     * the same up to the high watermark.
     */
    public void assertReplicasIdentical(TopicPartition tp) {
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            int leader = partitionState(tp).leader();
            List<Integer> replicas = anyRunning().metadataCache().topic(tp.topic()).orElseThrow()
                .replicas().get(tp.partition());
            assertThat(partitionState(tp).isr()).containsExactlyInAnyOrderElementsOf(replicas);
            PartitionLog leaderLog = replica(leader, tp).flatMap(Partition::log).orElseThrow();
            for (int r : replicas) {
                PartitionLog log = replica(r, tp).flatMap(Partition::log).orElseThrow();
                assertThat(log.logEndOffset()).as("log end offset of broker %d", r).isEqualTo(leaderLog.logEndOffset());
                assertThat(log.highWatermark()).as("high watermark of broker %d", r).isEqualTo(leaderLog.highWatermark());
            }
        });
        int leader = partitionState(tp).leader();
        PartitionLog leaderLog = replica(leader, tp).flatMap(Partition::log).orElseThrow();
        byte[] expected = batchBytes(leaderLog, leaderLog.highWatermark());
        for (int r : anyRunning().metadataCache().topic(tp.topic()).orElseThrow().replicas().get(tp.partition())) {
            PartitionLog log = replica(r, tp).flatMap(Partition::log).orElseThrow();
            assertThat(batchBytes(log, leaderLog.highWatermark())).as("log of broker %d up to the high watermark", r)
                .isEqualTo(expected);
        }
    }

    /** The bytes of every batch from the log start up to {@code endOffset}, as stored. */
    public static byte[] batchBytes(PartitionLog log, long endOffset) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long offset = log.logStartOffset();
        while (offset < endOffset) {
            var records = log.read(offset, Integer.MAX_VALUE, FetchIsolation.LOG_END, true).records();
            boolean any = false;
            for (RecordBatch batch : records.batches()) {
                if (batch.baseOffset() >= endOffset) {
                    break;
                }
                ByteBuffer buffer = ByteBuffer.allocate(batch.sizeInBytes());
                batch.writeTo(buffer);
                out.write(buffer.array(), 0, buffer.position());
                offset = batch.nextOffset();
                any = true;
            }
            if (!any) {
                break;
            }
        }
        return out.toByteArray();
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
        List<BrokerServer> running = new ArrayList<>(brokers.values());
        for (BrokerServer b : running) {
            try {
                b.shutdown();
            } catch (RuntimeException e) {
                // keep closing the others
            }
        }
        zooKeeper.close();
    }
}
