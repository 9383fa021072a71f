package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.share.ShareAcknowledgement;
import io.tributary.broker.testing.TestBroker;
import io.tributary.broker.testing.WireClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.FeatureUpdate;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.message.ShareAcknowledgeRequestData;
import org.apache.kafka.common.message.ShareAcknowledgeResponseData;
import org.apache.kafka.common.message.ShareFetchRequestData;
import org.apache.kafka.common.message.ShareFetchResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.apache.kafka.common.requests.ShareAcknowledgeRequest;
import org.apache.kafka.common.requests.ShareAcknowledgeResponse;
import org.apache.kafka.common.requests.ShareFetchRequest;
import org.apache.kafka.common.requests.ShareFetchResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ShareFetch and ShareAcknowledge (KIP-932) as raw wire requests against a broker: records acquired,
 * acknowledged, released ones delivered again with a higher delivery count, rejected ones not; share
 * sessions; long polls woken by a produce. Membership is not needed: any member id fetches, as in Kafka.
 * With {@code share.version} downgraded to 0 ShareFetch is refused; a new cluster starts at 1.
 */
class ShareFetchTest {

    private static final short VERSION = 2;

    @TempDir
    static Path dir;
    static TestBroker broker;
    static Admin admin;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.start(dir);
        admin = broker.admin();
        admin.createTopics(List.of(new NewTopic("shared", 1, (short) 1), new NewTopic("awaited", 1, (short) 1),
            new NewTopic("closed", 1, (short) 1)))
            .all().get();
        assertThat(broker.server().metadataCache().finalizedFeatures().level("share.version")).isEqualTo((short) 1);
        admin.updateFeatures(Map.of("share.version", new FeatureUpdate((short) 0,
            FeatureUpdate.UpgradeType.SAFE_DOWNGRADE)), new org.apache.kafka.clients.admin.UpdateFeaturesOptions()).all().get();
        await().atMost(Duration.ofSeconds(15)).until(() ->
            broker.server().metadataCache().finalizedFeatures().level("share.version") == 0);
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            ShareFetchResponse refused = client.send(fetch("readers", Uuid.randomUuid().toString(), 0, topicId("shared"),
                0, List.of()));
            assertThat(Errors.forCode(refused.data().errorCode())).as("share.version 0")
                .isEqualTo(Errors.UNSUPPORTED_VERSION);
        }
        admin.updateFeatures(Map.of("share.version", new FeatureUpdate((short) 1, FeatureUpdate.UpgradeType.UPGRADE)),
            new org.apache.kafka.clients.admin.UpdateFeaturesOptions()).all().get();
        await().atMost(Duration.ofSeconds(15)).until(() ->
            broker.server().metadataCache().finalizedFeatures().level("share.version") >= 1);
    }

    @AfterAll
    static void stop() {
        admin.close();
        broker.close();
    }

    /** Sets the group's {@code share.auto.offset.reset} to earliest and waits until the broker follows it. */
    private static void readFromEarliest(String group) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.GROUP, group);
        admin.incrementalAlterConfigs(Map.of(resource, List.of(new AlterConfigOp(
            new ConfigEntry("share.auto.offset.reset", "earliest"), AlterConfigOp.OpType.SET)))).all().get();
        await().atMost(Duration.ofSeconds(15)).until(() -> "earliest".equals(admin.describeConfigs(List.of(resource))
            .all().get().get(resource).get("share.auto.offset.reset").value()));
    }

    private static Uuid topicId(String topic) throws Exception {
        return admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).topicId();
    }

    private static void produce(String topic, int count) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = broker.producer(Map.of())) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, 0, null, ("r" + i).getBytes()));
            }
            producer.flush();
        }
    }

    private static ShareFetchRequest fetch(String group, String member, int epoch, Uuid topicId, int maxWaitMs,
                                           List<ShareFetchRequestData.AcknowledgementBatch> acks) {
        ShareFetchRequestData data = new ShareFetchRequestData().setGroupId(group).setMemberId(member)
            .setShareSessionEpoch(epoch).setMaxWaitMs(maxWaitMs).setMinBytes(1).setMaxBytes(1 << 20)
            .setMaxRecords(100).setBatchSize(100);
        ShareFetchRequestData.FetchTopic topic = new ShareFetchRequestData.FetchTopic().setTopicId(topicId);
        topic.partitions().add(new ShareFetchRequestData.FetchPartition().setPartitionIndex(0)
            .setAcknowledgementBatches(acks));
        data.topics().add(topic);
        return new ShareFetchRequest.Builder(data).build(VERSION);
    }

    private static ShareFetchRequestData.AcknowledgementBatch ack(long first, long last, byte type) {
        return new ShareFetchRequestData.AcknowledgementBatch().setFirstOffset(first).setLastOffset(last)
            .setAcknowledgeTypes(List.of(type));
    }

    private static ShareFetchResponseData.PartitionData only(ShareFetchResponse response) {
        assertThat(Errors.forCode(response.data().errorCode())).isEqualTo(Errors.NONE);
        assertThat(response.data().responses()).hasSize(1);
        assertThat(response.data().responses().iterator().next().partitions()).hasSize(1);
        return response.data().responses().iterator().next().partitions().get(0);
    }

    private static List<String> values(ShareFetchResponseData.PartitionData data) {
        List<String> values = new ArrayList<>();
        for (RecordBatch batch : ShareFetchResponse.recordsOrFail(data).batches()) {
            for (Record record : batch) {
                for (ShareFetchResponseData.AcquiredRecords acquired : data.acquiredRecords()) {
                    if (record.offset() >= acquired.firstOffset() && record.offset() <= acquired.lastOffset()) {
                        byte[] value = new byte[record.valueSize()];
                        record.value().get(value);
                        values.add(new String(value));
                    }
                }
            }
        }
        return values;
    }

    private static List<long[]> acquired(ShareFetchResponseData.PartitionData data) {
        List<long[]> ranges = new ArrayList<>();
        data.acquiredRecords().forEach(a -> ranges.add(new long[]{a.firstOffset(), a.lastOffset(), a.deliveryCount()}));
        return ranges;
    }

    @Test
    void recordsAreAcquiredAcknowledgedAndReleasedOnesDeliveredAgain() throws Exception {
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            Uuid topicId = topicId("shared");
            String member = Uuid.randomUuid().toString();
            readFromEarliest("readers");
            produce("shared", 10);

            ShareFetchResponseData.PartitionData first = only(client.send(fetch("readers", member, 0, topicId, 5_000, List.of())));
            assertThat(acquired(first)).containsExactly(new long[]{0, 9, 1});
            assertThat(values(first)).hasSize(10).startsWith("r0").endsWith("r9");

            ShareFetchResponse second = client.send(fetch("readers", member, 1, topicId, 5_000, List.of(
                ack(0, 4, ShareAcknowledgement.ACCEPT), ack(5, 6, ShareAcknowledgement.RELEASE),
                ack(7, 9, ShareAcknowledgement.REJECT))));
            assertThat(second.data().acquisitionLockTimeoutMs()).isEqualTo(30_000);
            ShareFetchResponseData.PartitionData redelivered = only(second);
            assertThat(Errors.forCode(redelivered.acknowledgeErrorCode())).isEqualTo(Errors.NONE);
            assertThat(acquired(redelivered)).containsExactly(new long[]{5, 6, 2});
            assertThat(values(redelivered)).containsExactly("r5", "r6");

            String other = Uuid.randomUuid().toString();
            assertThat(client.<ShareFetchResponse>send(fetch("readers", other, 0, topicId, 0, List.of()))
                .data().errorCode()).isEqualTo(Errors.NONE.code());
            ShareAcknowledgeResponse stolen = client.send(acknowledge("readers", other, 1, topicId, 5, 6));
            assertThat(partitionError(stolen)).isEqualTo(Errors.INVALID_RECORD_STATE);
            assertThat(partitionError(client.send(acknowledge("readers", member, 2, topicId, 5, 6)))).isEqualTo(Errors.NONE);

            ShareFetchResponseData.PartitionData rest = only(client.send(fetch("readers", member, 3, topicId, 200, List.of())));
            assertThat(rest.acquiredRecords()).as("rejected and accepted records are never delivered again").isEmpty();
            assertThat(client.<ShareAcknowledgeResponse>send(acknowledge("readers", member, 0, topicId, 5, 6))
                .data().errorCode()).isEqualTo(Errors.INVALID_SHARE_SESSION_EPOCH.code());
            assertThat(client.<ShareFetchResponse>send(fetch("readers", member, 9, topicId, 0, List.of()))
                .data().errorCode()).isEqualTo(Errors.INVALID_SHARE_SESSION_EPOCH.code());
        }
    }

    @Test
    void aWaitingShareFetchAnswersWithTheRecordsProducedMeanwhile() throws Exception {
        Uuid topicId = topicId("awaited");
        String member = Uuid.randomUuid().toString();
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            CompletableFuture<ShareFetchResponse> pending = CompletableFuture.supplyAsync(() -> {
                try {
                    return client.send(fetch("waiters", member, 0, topicId, 20_000, List.of()));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            await().atMost(Duration.ofSeconds(10))
                .until(() -> broker.server().replicaManager().waitingFetches(new TopicPartition("awaited", 0)) == 1);
            produce("awaited", 3);

            ShareFetchResponseData.PartitionData data = only(pending.get(15, TimeUnit.SECONDS));
            assertThat(acquired(data)).containsExactly(new long[]{0, 2, 1});
            assertThat(values(data)).containsExactly("r0", "r1", "r2");
        }
    }

    @Test
    void closingASessionReleasesTheRecordsTheMemberHolds() throws Exception {
        Uuid topicId = topicId("closed");
        String leaving = Uuid.randomUuid().toString();
        String staying = Uuid.randomUuid().toString();
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            readFromEarliest("closers");
            produce("closed", 4);
            assertThat(acquired(only(client.send(fetch("closers", leaving, 0, topicId, 5_000, List.of())))))
                .containsExactly(new long[]{0, 3, 1});

            ShareAcknowledgeRequest renew = acknowledge("closers", leaving, 1, topicId, 0, 0);
            renew.data().topics().iterator().next().partitions().iterator().next().acknowledgementBatches().get(0)
                .setAcknowledgeTypes(List.of(ShareAcknowledgement.RENEW));
            assertThat(partitionError(client.send(new ShareAcknowledgeRequest.Builder(renew.data()).build((short) 1))))
                .as("RENEW needs v2").isEqualTo(Errors.INVALID_REQUEST);

            ShareAcknowledgeResponse closed = client.send(acknowledge("closers", leaving, -1, topicId, 0, 0));
            assertThat(partitionError(closed)).isEqualTo(Errors.NONE);

            assertThat(acquired(only(client.send(fetch("closers", staying, 0, topicId, 5_000, List.of())))))
                .as("offset 0 was accepted; the rest came back when the session closed")
                .containsExactly(new long[]{1, 3, 2});
            assertThat(client.<ShareAcknowledgeResponse>send(acknowledge("closers", leaving, 1, topicId, 1, 1))
                .data().errorCode()).isEqualTo(Errors.SHARE_SESSION_NOT_FOUND.code());
        }
    }

    @Test
    void theShareApisAreAdvertisedAndAnUnknownTopicIdIsAnsweredPerPartition() throws Exception {
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            ApiVersionsResponse versions = client.send(new ApiVersionsRequest.Builder().build((short) 3));
            assertThat(versions.apiVersion(ApiKeys.SHARE_FETCH.id)).satisfies(v -> {
                assertThat(v.minVersion()).isEqualTo((short) 1);
                assertThat(v.maxVersion()).isEqualTo((short) 2);
            });
            assertThat(versions.apiVersion(ApiKeys.SHARE_ACKNOWLEDGE.id).maxVersion()).isEqualTo((short) 2);

            Uuid unknown = Uuid.randomUuid();
            ShareFetchResponse response = client.send(fetch("strangers", Uuid.randomUuid().toString(), 0, unknown, 0,
                List.of()));
            ShareFetchResponseData.PartitionData data = only(response);
            assertThat(response.data().responses().iterator().next().topicId()).isEqualTo(unknown);
            assertThat(Errors.forCode(data.errorCode())).isEqualTo(Errors.UNKNOWN_TOPIC_ID);
        }
    }

    private static ShareAcknowledgeRequest acknowledge(String group, String member, int epoch, Uuid topicId,
                                                      long first, long last) {
        ShareAcknowledgeRequestData data = new ShareAcknowledgeRequestData().setGroupId(group).setMemberId(member)
            .setShareSessionEpoch(epoch);
        ShareAcknowledgeRequestData.AcknowledgeTopic topic = new ShareAcknowledgeRequestData.AcknowledgeTopic()
            .setTopicId(topicId);
        topic.partitions().add(new ShareAcknowledgeRequestData.AcknowledgePartition().setPartitionIndex(0)
            .setAcknowledgementBatches(List.of(new ShareAcknowledgeRequestData.AcknowledgementBatch()
                .setFirstOffset(first).setLastOffset(last).setAcknowledgeTypes(List.of(ShareAcknowledgement.ACCEPT)))));
        data.topics().add(topic);
        return new ShareAcknowledgeRequest.Builder(data).build(VERSION);
    }

    private static Errors partitionError(ShareAcknowledgeResponse response) {
        assertThat(Errors.forCode(response.data().errorCode())).isEqualTo(Errors.NONE);
        Collection<ShareAcknowledgeResponseData.ShareAcknowledgeTopicResponse> topics = response.data().responses();
        return Errors.forCode(topics.iterator().next().partitions().get(0).errorCode());
    }
}
