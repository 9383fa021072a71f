package io.tributary.broker.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tributary.broker.cluster.BrokerEpoch;
import io.tributary.broker.cluster.BrokerInfo;
import io.tributary.broker.cluster.BrokerRegistration;
import io.tributary.broker.cluster.EmbeddedZooKeeper;
import io.tributary.broker.cluster.KafkaZkClient;
import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.cluster.TopicAssignment;
import io.tributary.broker.cluster.ZkPaths;
import io.tributary.broker.log.LogManager;
import io.tributary.broker.metrics.BrokerTopicStats;
import io.tributary.broker.testing.MockTime;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker starting again must not lead a partition state that was written for its previous run
 * (before its new registration): that run's high watermark and follower states are gone, and the
 * controller will elect again in a new leader epoch. The replica layer of one broker over a real
 * ZooKeeper, the partition states written here as the controller would.
 */
class RestartedLeaderTest {

    private static final TopicPartition TP = new TopicPartition("restarted", 0);

    @TempDir
    Path dir;

    private EmbeddedZooKeeper zooKeeper;
    private KafkaZkClient zkClient;
    private MetadataCache metadataCache;
    private LogManager logManager;
    private ReplicaComponents replicas;
    private BrokerRegistration registration;

    @BeforeEach
    void startZooKeeper() throws Exception {
        zooKeeper = EmbeddedZooKeeper.start(dir.resolve("zookeeper").toFile(), 0, 200, true);
        zkClient = KafkaZkClient.connect(zooKeeper.connectString(), 4000, 10_000);
        zkClient.ensurePersistentPaths();
        zkClient.createTopic(new TopicAssignment(TP.topic(), Uuid.randomUuid(), Map.of(0, List.of(0)), -1), Map.of());
    }

    @AfterEach
    void stop() throws Exception {
        if (registration != null) {
            registration.close();
        }
        if (replicas != null) {
            replicas.replicaManager().shutdown();
        }
        if (metadataCache != null) {
            metadataCache.close();
        }
        if (logManager != null) {
            logManager.shutdown();
        }
        zkClient.close();
        zooKeeper.close();
    }

    @Test
    void aStateWrittenBeforeTheRegistrationIsLedOnlyOnceTheControllerElectsAgain() throws Exception {
        writeState(0, 3, true);
        BrokerEpoch brokerEpoch = new BrokerEpoch();
        startReplicaLayer(brokerEpoch);

        // The state names this broker, from before it registered: held without a leader.
        Partition partition = awaitReplica();
        assertThat(partition.isLeader()).isFalse();

        registration = new BrokerRegistration(zkClient, new BrokerInfo(0, List.of(), null, -1), 4000, brokerEpoch,
            Time.SYSTEM);
        registration.register();
        replicas.stateChanges().onRegistered();
        assertThat(brokerEpoch.get()).isPositive();
        assertThat(partition.isLeader()).as("leader epoch 3 was decided before this registration").isFalse();

        // The controller elects again: a new leader epoch, written after the registration, is led.
        writeState(0, 4, false);
        await().atMost(Duration.ofSeconds(30)).until(() -> partition.isLeader() && partition.leaderEpoch() == 4);
    }

    @Test
    void aStateWrittenAfterTheRegistrationIsLedAtOnce() throws Exception {
        BrokerEpoch brokerEpoch = new BrokerEpoch();
        startReplicaLayer(brokerEpoch);
        registration = new BrokerRegistration(zkClient, new BrokerInfo(0, List.of(), null, -1), 4000, brokerEpoch,
            Time.SYSTEM);
        registration.register();
        replicas.stateChanges().onRegistered();

        writeState(0, 0, true);
        Partition partition = awaitReplica();
        await().atMost(Duration.ofSeconds(30)).until(() -> partition.isLeader() && partition.leaderEpoch() == 0);
    }

    private void startReplicaLayer(BrokerEpoch brokerEpoch) throws java.io.IOException {
        MockTime time = new MockTime();
        logManager = ReplicaTestLogs.logManager(dir.resolve("logs"), time);
        logManager.loadLogs(topic -> ReplicaTestLogs.defaultConfig());
        metadataCache = new MetadataCache(zkClient);
        replicas = ReplicaComponents.build(new ReplicaComponents.Settings(0, topic -> ReplicaTestLogs.defaultConfig(),
                new ZkIsrUpdater(zkClient, 0), 30_000, 1,
                ReplicaFetcherManager.config(500, 1, 1 << 20, 10 << 20, 1000, 30_000, "PLAINTEXT", Map.of()),
                id -> Optional.empty(), new BrokerTopicStats(new SimpleMeterRegistry()), null,
                io.tributary.broker.quota.ReplicationQuotas.unlimited()),
            logManager, metadataCache, brokerEpoch, time);
        metadataCache.addListener(replicas.stateChanges());
        metadataCache.start(zkClient.getOrCreateClusterId(), 30_000);
    }

    private Partition awaitReplica() {
        await().atMost(Duration.ofSeconds(30)).until(() -> replicas.replicaManager().getPartition(TP).isPresent());
        return replicas.replicaManager().getPartition(TP).orElseThrow();
    }

    /** Writes the partition state as the controller would (creating it the first time). */
    private void writeState(int leader, int leaderEpoch, boolean create) throws Exception {
        byte[] json = ("{\"controller_epoch\":1,\"leader\":" + leader + ",\"version\":1,\"leader_epoch\":" + leaderEpoch
            + ",\"isr\":[" + leader + "]}").getBytes(StandardCharsets.UTF_8);
        String path = ZkPaths.partitionState(TP.topic(), TP.partition());
        if (create) {
            zkClient.curator().create().creatingParentsIfNeeded().forPath(path, json);
        } else {
            zkClient.curator().setData().forPath(path, json);
        }
    }
}
