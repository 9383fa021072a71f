package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.share.ShareAcknowledgement;
import io.tributary.broker.testing.TestBroker;
import io.tributary.broker.testing.TestCluster;
import io.tributary.broker.testing.WireClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.FeatureUpdate;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.UpdateFeaturesOptions;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.message.ShareAcknowledgeRequestData;
import org.apache.kafka.common.message.ShareFetchRequestData;
import org.apache.kafka.common.message.ShareFetchResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ShareAcknowledgeRequest;
import org.apache.kafka.common.requests.ShareAcknowledgeResponse;
import org.apache.kafka.common.requests.ShareFetchRequest;
import org.apache.kafka.common.requests.ShareFetchResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Share-partition state is durable in {@code __share_group_state} (KIP-932): records acknowledged
 * before a broker restarts, or before the partition's leadership moves to another broker, are not
 * delivered again; released records come back with their delivery count kept. Raw ShareFetch and
 * ShareAcknowledge requests (any member id fetches, as in Kafka).
 */
class ShareStateDurabilityTest {

    private static final Map<String, Object> STATE_TOPIC = Map.of(
        "broker.share-coordinator-state-topic-num-partitions", "3",
        "broker.share-coordinator-state-topic-min-isr", "1");

    @TempDir
    Path dir;

    @Test
    void acknowledgedRecordsAreNotDeliveredAgainAfterARestart() throws Exception {
        Map<String, Object> settings = new java.util.HashMap<>(STATE_TOPIC);
        settings.put("broker.share-coordinator-state-topic-replication-factor", "1");
        try (TestBroker broker = TestBroker.start(dir, settings)) {
            Uuid topicId;
            try (Admin admin = broker.admin()) {
                prepare(admin, "durable", (short) 1, "restarters");
                topicId = admin.describeTopics(List.of("durable")).allTopicNames().get().get("durable").topicId();
            }
            produce(broker.producer(Map.of()), "durable", 10);
            try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
                consumeAndAcknowledge(client, topicId, "restarters");
            }

            broker.restart();

            assertThat(broker.server().metadataCache().topic(Topic.SHARE_GROUP_STATE_TOPIC_NAME)).isPresent();
            assertOnlyReleasedRecordsComeBack(broker.bootstrapServers(), topicId, "restarters");
        }
    }

    @Test
    void aNewLeaderReadsTheStateFromTheShareCoordinator() throws Exception {
        Map<String, Object> settings = new java.util.HashMap<>(STATE_TOPIC);
        settings.put("broker.share-coordinator-state-topic-replication-factor", "2");
        try (TestCluster cluster = TestCluster.start(dir, 2, settings)) {
            Uuid topicId;
            try (Admin admin = cluster.admin()) {
                prepare(admin, "moving", (short) 2, "movers");
                topicId = admin.describeTopics(List.of("moving")).allTopicNames().get().get("moving").topicId();
            }
            TopicPartition tp = new TopicPartition("moving", 0);
            cluster.awaitIsr(tp, List.of(0, 1));
            produce(cluster.producer(Map.of("acks", "all")), "moving", 10);
            int leader = cluster.awaitLeader(tp);
            try (WireClient client = WireClient.connect(address(cluster, leader))) {
                consumeAndAcknowledge(client, topicId, "movers");
            }

            cluster.stop(leader);
            int next = 1 - leader;
            await().atMost(Duration.ofSeconds(30)).until(() -> cluster.partitionState(tp).leader() == next);

            assertOnlyReleasedRecordsComeBack(address(cluster, next), topicId, "movers");
        }
    }

    private static String address(TestCluster cluster, int id) {
        var endPoint = cluster.broker(id).boundEndPoints().get(0);
        return endPoint.host() + ":" + endPoint.port();
    }

    /** Finalizes share.version 1, creates the topic and sets the group to read from the earliest offset. */
    private static void prepare(Admin admin, String topic, short replicationFactor, String group) throws Exception {
        admin.updateFeatures(Map.of("share.version", new FeatureUpdate((short) 1, FeatureUpdate.UpgradeType.UPGRADE)),
            new UpdateFeaturesOptions()).all().get();
        admin.createTopics(List.of(new NewTopic(topic, 1, replicationFactor))).all().get();
        ConfigResource resource = new ConfigResource(ConfigResource.Type.GROUP, group);
        admin.incrementalAlterConfigs(Map.of(resource, List.of(new AlterConfigOp(
            new ConfigEntry("share.auto.offset.reset", "earliest"), AlterConfigOp.OpType.SET)))).all().get();
        await().atMost(Duration.ofSeconds(15)).until(() -> "earliest".equals(admin.describeConfigs(List.of(resource))
            .all().get().get(resource).get("share.auto.offset.reset").value()));
    }

    private static void produce(KafkaProducer<byte[], byte[]> producer, String topic, int count) {
        try (producer) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, 0, null, ("r" + i).getBytes()));
            }
            producer.flush();
        }
    }

    /** Acquires offsets 0-9, then accepts 0-4, releases 5-6 and rejects 7-9. */
    private static void consumeAndAcknowledge(WireClient client, Uuid topicId, String group) throws Exception {
        String member = Uuid.randomUuid().toString();
        ShareFetchResponse first = client.send(fetch(group, member, 0, topicId));
        assertThat(acquired(first)).containsExactly(new long[]{0, 9, 1});
        ShareAcknowledgeRequestData data = new ShareAcknowledgeRequestData().setGroupId(group).setMemberId(member)
            .setShareSessionEpoch(1);
        ShareAcknowledgeRequestData.AcknowledgeTopic topic = new ShareAcknowledgeRequestData.AcknowledgeTopic()
            .setTopicId(topicId);
        topic.partitions().add(new ShareAcknowledgeRequestData.AcknowledgePartition().setPartitionIndex(0)
            .setAcknowledgementBatches(List.of(ack(0, 4, ShareAcknowledgement.ACCEPT), ack(5, 6, ShareAcknowledgement.RELEASE),
                ack(7, 9, ShareAcknowledgement.REJECT))));
        data.topics().add(topic);
        ShareAcknowledgeResponse response = client.send(new ShareAcknowledgeRequest.Builder(data).build((short) 2));
        assertThat(response.data().errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(response.data().responses().iterator().next().partitions().get(0).errorCode())
            .isEqualTo(Errors.NONE.code());
    }

    /** A new member on {@code bootstrap} acquires only the released offsets 5-6, in their second delivery. */
    private static void assertOnlyReleasedRecordsComeBack(String bootstrap, Uuid topicId, String group) throws Exception {
        try (WireClient client = WireClient.connect(bootstrap)) {
            AtomicReference<List<long[]>> acquired = new AtomicReference<>(List.of());
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                ShareFetchResponse response = client.send(fetch(group, Uuid.randomUuid().toString(), 0, topicId));
                acquired.set(acquired(response));
                return !acquired.get().isEmpty();
            });
            assertThat(acquired.get()).as("accepted and rejected offsets stay done; released ones keep their count")
                .containsExactly(new long[]{5, 6, 2});
        }
    }

    private static ShareFetchRequest fetch(String group, String member, int epoch, Uuid topicId) {
        ShareFetchRequestData data = new ShareFetchRequestData().setGroupId(group).setMemberId(member)
            .setShareSessionEpoch(epoch).setMaxWaitMs(1_000).setMinBytes(1).setMaxBytes(1 << 20)
            .setMaxRecords(100).setBatchSize(100);
        ShareFetchRequestData.FetchTopic topic = new ShareFetchRequestData.FetchTopic().setTopicId(topicId);
        topic.partitions().add(new ShareFetchRequestData.FetchPartition().setPartitionIndex(0));
        data.topics().add(topic);
        return new ShareFetchRequest.Builder(data).build((short) 2);
    }

    private static ShareAcknowledgeRequestData.AcknowledgementBatch ack(long first, long last, byte type) {
        return new ShareAcknowledgeRequestData.AcknowledgementBatch().setFirstOffset(first).setLastOffset(last)
            .setAcknowledgeTypes(List.of(type));
    }

    private static List<long[]> acquired(ShareFetchResponse response) {
        List<long[]> ranges = new ArrayList<>();
        if (response.data().errorCode() != Errors.NONE.code() || response.data().responses().isEmpty()) {
            return ranges;
        }
        for (ShareFetchResponseData.PartitionData p : response.data().responses().iterator().next().partitions()) {
            p.acquiredRecords().forEach(a -> ranges.add(new long[]{a.firstOffset(), a.lastOffset(), a.deliveryCount()}));
        }
        return ranges;
    }
}
