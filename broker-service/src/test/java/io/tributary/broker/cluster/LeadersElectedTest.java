package io.tributary.broker.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link LeadersElected} over a {@link MetadataCache} watching a real ZooKeeper, states written as the controller would. */
class LeadersElectedTest {

    @TempDir
    Path dir;

    private EmbeddedZooKeeper zooKeeper;
    private KafkaZkClient zkClient;
    private MetadataCache metadataCache;

    @BeforeEach
    void start() throws Exception {
        zooKeeper = EmbeddedZooKeeper.start(dir.toFile(), 0, 200, true);
        zkClient = KafkaZkClient.connect(zooKeeper.connectString(), 4000, 10_000);
        zkClient.ensurePersistentPaths();
        metadataCache = new MetadataCache(zkClient);
        metadataCache.start(zkClient.getOrCreateClusterId(), 30_000);
    }

    @AfterEach
    void stop() throws Exception {
        metadataCache.close();
        zkClient.close();
        zooKeeper.close();
    }

    private void createTopic(String topic, int partitions) {
        Map<Integer, List<Integer>> replicas = new java.util.HashMap<>();
        for (int p = 0; p < partitions; p++) {
            replicas.put(p, List.of(0));
        }
        zkClient.createTopic(new TopicAssignment(topic, Uuid.randomUuid(), replicas, -1), Map.of());
    }

    private void writeState(String topic, int partition, int leader) throws Exception {
        byte[] json = ("{\"controller_epoch\":1,\"leader\":" + leader + ",\"version\":1,\"leader_epoch\":0,\"isr\":["
            + (leader < 0 ? "" : leader) + "]}").getBytes(StandardCharsets.UTF_8);
        String path = ZkPaths.partitionState(topic, partition);
        if (zkClient.curator().checkExists().forPath(path) == null) {
            zkClient.curator().create().creatingParentsIfNeeded().forPath(path, json);
        } else {
            zkClient.curator().setData().forPath(path, json);
        }
    }

    /** Waits until the metadata has applied everything written so far (its event thread is in order). */
    private void applied(String topic, int partition, boolean leader) throws Exception {
        assertThat(metadataCache.waitFor(() -> metadataCache.partitionState(
                new org.apache.kafka.common.TopicPartition(topic, partition))
            .map(s -> s.hasLeader() == leader).orElse(false), 10_000).get(15, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void holdsOnceEveryPartitionOfEveryTopicHasALeader() throws Exception {
        LeadersElected elected = new LeadersElected(metadataCache, List.of("a", "b"));
        assertThat(elected.getAsBoolean()).as("no assignment yet").isFalse();
        createTopic("a", 3);
        createTopic("b", 1);
        writeState("a", 0, 0);
        writeState("a", 2, 0);
        writeState("b", 0, 0);
        applied("b", 0, true);
        assertThat(elected.getAsBoolean()).as("a-1 has no state").isFalse();

        writeState("a", 1, -1);
        applied("a", 1, false);
        assertThat(elected.getAsBoolean()).as("a-1 has no leader").isFalse();

        writeState("a", 1, 0);
        applied("a", 1, true);
        assertThat(elected.getAsBoolean()).isTrue();
        assertThat(metadataCache.allPartitionsHaveLeaders("a")).isTrue();
    }

    @Test
    void aWaitCompletesWhenTheLastLeaderArrivesAndDoesNotCheckAgainThoseSeenWithALeader() throws Exception {
        createTopic("c", 4);
        CompletableFuture<Boolean> ready = metadataCache.waitFor(new LeadersElected(metadataCache, List.of("c")), 10_000);
        for (int p = 0; p < 3; p++) {
            writeState("c", p, 0);
        }
        applied("c", 2, true);
        assertThat(ready).isNotDone();
        // Partition 0 loses its leader after it was seen with one: the condition answers for elections, not
        // for leaders at this instant (CreateTopics answers once each partition had its first leader).
        writeState("c", 0, -1);
        writeState("c", 3, 0);

        assertThat(ready.get(15, TimeUnit.SECONDS)).isTrue();
    }
}
