package io.tributary.broker.replication;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.testing.TestCluster;
import io.tributary.broker.testing.WireClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.ListOffsetsRequestData;
import org.apache.kafka.common.message.OffsetForLeaderEpochRequestData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.requests.FetchResponse;
import org.apache.kafka.common.requests.ListOffsetsRequest;
import org.apache.kafka.common.requests.ListOffsetsResponse;
import org.apache.kafka.common.requests.OffsetsForLeaderEpochRequest;
import org.apache.kafka.common.requests.OffsetsForLeaderEpochResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Leader-epoch fencing (KIP-320) on the wire, at a leader whose epoch is above 0 (its first leader
 * was killed): Fetch, ListOffsets and OffsetForLeaderEpoch naming an older epoch get
 * FENCED_LEADER_EPOCH, a newer one UNKNOWN_LEADER_EPOCH, the current one or none (-1) are served.
 * A consumer's committed offset keeps the leader epoch it was committed with (OffsetCommit v6+,
 * OffsetFetch v5+), also after the group coordinator restarted.
 */
class LeaderEpochFencingTest {

    private static final TopicPartition TP = new TopicPartition("fenced", 0);

    @TempDir
    static Path dir;
    static TestCluster cluster;
    static int leader;
    static int epoch;

    @BeforeAll
    static void start() throws Exception {
        cluster = TestCluster.start(dir, 2, Map.of("broker.auto-leader-rebalance-enable", "false",
            "broker.offsets-topic-replication-factor", "1"));
        try (Admin admin = cluster.admin()) {
            admin.createTopics(List.of(new NewTopic(TP.topic(), Map.of(0, List.of(0, 1))))).all().get();
        }
        cluster.awaitIsr(TP, List.of(0, 1));
        try (KafkaProducer<byte[], byte[]> producer = cluster.producer(Map.of())) {
            producer.send(new ProducerRecord<>(TP.topic(), 0, null, new byte[] {1})).get();
        }
        int first = cluster.awaitLeader(TP);
        cluster.crash(first);
        leader = cluster.awaitLeader(TP);
        assertThat(leader).isNotEqualTo(first);
        cluster.start(first);
        cluster.awaitIsr(TP, List.of(0, 1));
        epoch = cluster.partitionState(TP).leaderEpoch();
        assertThat(epoch).isPositive();
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** The leader and its epoch now (another test restarts every broker, which moves both). */
    @org.junit.jupiter.api.BeforeEach
    void current() {
        leader = cluster.awaitLeader(TP);
        epoch = cluster.partitionState(TP).leaderEpoch();
        assertThat(epoch).isPositive();
    }

    private static WireClient leaderClient() throws Exception {
        return WireClient.connect(cluster.broker(leader).bootstrapServers());
    }

    private static Errors fetch(int currentLeaderEpoch) throws Exception {
        FetchRequestData data = new FetchRequestData().setReplicaId(-1).setMaxWaitMs(0).setMinBytes(0)
            .setMaxBytes(1 << 20).setSessionEpoch(-1).setIsolationLevel(IsolationLevel.READ_UNCOMMITTED.id());
        data.topics().add(new FetchRequestData.FetchTopic().setTopic(TP.topic()).setPartitions(List.of(
            new FetchRequestData.FetchPartition().setPartition(0).setFetchOffset(0).setPartitionMaxBytes(1 << 20)
                .setCurrentLeaderEpoch(currentLeaderEpoch))));
        try (WireClient client = leaderClient()) {
            FetchResponse response = client.send(new FetchRequest(data, (short) 12));
            return Errors.forCode(response.data().responses().get(0).partitions().get(0).errorCode());
        }
    }

    private static Errors listOffsets(int currentLeaderEpoch) throws Exception {
        ListOffsetsRequest request = ListOffsetsRequest.Builder.forConsumer(false, IsolationLevel.READ_UNCOMMITTED)
            .setTargetTimes(List.of(new ListOffsetsRequestData.ListOffsetsTopic().setName(TP.topic()).setPartitions(List.of(
                new ListOffsetsRequestData.ListOffsetsPartition().setPartitionIndex(0)
                    .setTimestamp(ListOffsetsRequest.LATEST_TIMESTAMP).setCurrentLeaderEpoch(currentLeaderEpoch)))))
            .build((short) 7);
        try (WireClient client = leaderClient()) {
            ListOffsetsResponse response = client.send(request);
            return Errors.forCode(response.data().topics().get(0).partitions().get(0).errorCode());
        }
    }

    private static Errors offsetForLeaderEpoch(int currentLeaderEpoch) throws Exception {
        OffsetForLeaderEpochRequestData.OffsetForLeaderTopicCollection topics =
            new OffsetForLeaderEpochRequestData.OffsetForLeaderTopicCollection();
        topics.add(new OffsetForLeaderEpochRequestData.OffsetForLeaderTopic().setTopic(TP.topic()).setPartitions(
            List.of(new OffsetForLeaderEpochRequestData.OffsetForLeaderPartition().setPartition(0)
                .setLeaderEpoch(0).setCurrentLeaderEpoch(currentLeaderEpoch))));
        OffsetForLeaderEpochRequestData data = new OffsetForLeaderEpochRequestData().setReplicaId(-1).setTopics(topics);
        try (WireClient client = leaderClient()) {
            OffsetsForLeaderEpochResponse response = client.send(new OffsetsForLeaderEpochRequest(data, (short) 4));
            return Errors.forCode(response.data().topics().iterator().next().partitions().get(0).errorCode());
        }
    }

    /** A request naming a partition's current leader epoch, answered with that partition's error. */
    @FunctionalInterface
    private interface EpochRequest {
        Errors send(int currentLeaderEpoch) throws Exception;
    }

    /** KIP-320: an older epoch is fenced, a newer one unknown, the current one or none (-1) served. */
    private static void assertChecksTheLeaderEpoch(EpochRequest request) throws Exception {
        assertThat(request.send(epoch - 1)).isEqualTo(Errors.FENCED_LEADER_EPOCH);
        assertThat(request.send(epoch + 1)).isEqualTo(Errors.UNKNOWN_LEADER_EPOCH);
        assertThat(request.send(epoch)).isEqualTo(Errors.NONE);
        assertThat(request.send(-1)).isEqualTo(Errors.NONE);
    }

    @Test
    void fetchChecksTheLeaderEpoch() throws Exception {
        assertChecksTheLeaderEpoch(LeaderEpochFencingTest::fetch);
    }

    @Test
    void listOffsetsChecksTheLeaderEpoch() throws Exception {
        assertChecksTheLeaderEpoch(LeaderEpochFencingTest::listOffsets);
    }

    @Test
    void offsetForLeaderEpochChecksTheLeaderEpoch() throws Exception {
        assertChecksTheLeaderEpoch(LeaderEpochFencingTest::offsetForLeaderEpoch);
    }

    @Test
    void aCommittedOffsetKeepsItsLeaderEpochAcrossACoordinatorRestart() throws Exception {
        Map<String, Object> group = Map.of(ConsumerConfig.GROUP_ID_CONFIG, "epochs",
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        try (KafkaConsumer<byte[], byte[]> consumer = cluster.consumer(group)) {
            consumer.assign(List.of(TP));
            consumer.commitSync(Map.of(TP, new OffsetAndMetadata(1, Optional.of(epoch), "seen")));
            OffsetAndMetadata committed = consumer.committed(java.util.Set.of(TP)).get(TP);
            assertThat(committed.leaderEpoch()).contains(epoch);
        }
        // The coordinator reloads the commit from __consumer_offsets.
        for (int id : cluster.brokerIds()) {
            cluster.stop(id);
        }
        for (int id : cluster.brokerIds()) {
            cluster.start(id);
        }
        try (KafkaConsumer<byte[], byte[]> consumer = cluster.consumer(Map.of(ConsumerConfig.GROUP_ID_CONFIG, "epochs",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false, ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 60_000))) {
            OffsetAndMetadata committed = consumer.committed(java.util.Set.of(TP), Duration.ofSeconds(60)).get(TP);
            assertThat(committed.offset()).isEqualTo(1);
            assertThat(committed.leaderEpoch()).contains(epoch);
            assertThat(committed.metadata()).isEqualTo("seen");
        }
    }
}
