package io.tributary.broker.replication;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.cluster.LeaderAndIsr;
import io.tributary.broker.testing.TestCluster;
import io.tributary.broker.testing.WireClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.requests.FetchResponse;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.ProduceResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * KIP-951 on two brokers: a Produce (v10+) sent to a follower, or a Fetch (v16+) sent to a broker
 * without a replica of the partition, is answered NOT_LEADER_OR_FOLLOWER with the partition's current leader and leader
 * epoch, and that leader's endpoint in NodeEndpoints; older versions get the error alone.
 */
class LeaderHintsTest {

    private static final TopicPartition TP = new TopicPartition("hinted", 0);
    /** Only on broker 0: broker 1 has no replica to serve a consumer from (KIP-392 would let a follower). */
    private static final TopicPartition SOLO = new TopicPartition("hinted-solo", 0);

    @TempDir
    static Path dir;
    static TestCluster cluster;
    static Uuid topicId;
    static Uuid soloId;

    @BeforeAll
    static void start() throws Exception {
        cluster = TestCluster.start(dir, 2, Map.of());
        try (Admin admin = cluster.admin()) {
            admin.createTopics(List.of(new NewTopic(TP.topic(), Map.of(0, List.of(0, 1))),
                new NewTopic(SOLO.topic(), Map.of(0, List.of(0))))).all().get();
            topicId = admin.describeTopics(List.of(TP.topic())).allTopicNames().get().get(TP.topic()).topicId();
            soloId = admin.describeTopics(List.of(SOLO.topic())).allTopicNames().get().get(SOLO.topic()).topicId();
        }
        assertThat(cluster.awaitLeader(TP)).isZero();
        assertThat(cluster.awaitLeader(SOLO)).isZero();
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static ProduceResponseData produce(WireClient client, short version) throws Exception {
        ProduceRequestData data = new ProduceRequestData().setAcks((short) 1).setTimeoutMs(10_000);
        ProduceRequestData.TopicProduceData topic = new ProduceRequestData.TopicProduceData();
        if (version >= 13) {
            topic.setTopicId(topicId);
        } else {
            topic.setName(TP.topic());
        }
        topic.partitionData().add(new ProduceRequestData.PartitionProduceData().setIndex(0).setRecords(
            MemoryRecords.withRecords(Compression.NONE, new SimpleRecord("v".getBytes(StandardCharsets.UTF_8)))));
        data.topicData().add(topic);
        ProduceResponse response = client.send(new ProduceRequest(data, version));
        return response.data();
    }

    private static FetchResponseData fetch(WireClient client, short version) throws Exception {
        FetchRequestData data = new FetchRequestData().setReplicaId(-1).setMaxWaitMs(0).setMinBytes(0)
            .setMaxBytes(1 << 20).setSessionEpoch(-1);
        FetchRequestData.FetchTopic topic = new FetchRequestData.FetchTopic().setTopicId(soloId).setTopic(SOLO.topic());
        topic.partitions().add(new FetchRequestData.FetchPartition().setPartition(0).setFetchOffset(0)
            .setPartitionMaxBytes(1 << 20));
        data.topics().add(topic);
        FetchResponse response = client.send(new FetchRequest(data, version));
        return response.data();
    }

    @Test
    void aProduceOrFetchAtAFollowerIsToldWhereTheLeaderIs() throws Exception {
        LeaderAndIsr state = cluster.partitionState(TP);
        String leaderBootstrap = cluster.broker(0).bootstrapServers();
        try (WireClient follower = WireClient.connect(cluster.broker(1).bootstrapServers())) {
            ProduceResponseData produced = produce(follower, (short) 12);
            ProduceResponseData.PartitionProduceResponse partition = produced.responses().iterator().next()
                .partitionResponses().get(0);
            assertThat(Errors.forCode(partition.errorCode())).isEqualTo(Errors.NOT_LEADER_OR_FOLLOWER);
            assertThat(partition.currentLeader().leaderId()).isZero();
            assertThat(partition.currentLeader().leaderEpoch()).isEqualTo(state.leaderEpoch());
            assertThat(produced.nodeEndpoints()).singleElement().satisfies(node -> {
                assertThat(node.nodeId()).isZero();
                assertThat(node.host() + ":" + node.port()).isEqualTo(leaderBootstrap);
            });
            ProduceResponseData old = produce(follower, (short) 9);
            assertThat(old.responses().iterator().next().partitionResponses().get(0).currentLeader().leaderId())
                .as("no hint before v10").isEqualTo(-1);

            FetchResponseData fetched = fetch(follower, (short) 16);
            FetchResponseData.PartitionData data = fetched.responses().get(0).partitions().get(0);
            assertThat(Errors.forCode(data.errorCode())).isEqualTo(Errors.NOT_LEADER_OR_FOLLOWER);
            assertThat(data.currentLeader().leaderId()).isZero();
            assertThat(data.currentLeader().leaderEpoch()).isEqualTo(cluster.partitionState(SOLO).leaderEpoch());
            assertThat(fetched.nodeEndpoints()).singleElement().satisfies(node -> {
                assertThat(node.nodeId()).isZero();
                assertThat(node.host() + ":" + node.port()).isEqualTo(leaderBootstrap);
            });
        }
    }
}
