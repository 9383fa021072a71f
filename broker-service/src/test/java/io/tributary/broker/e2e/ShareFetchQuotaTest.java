package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.share.ShareAcknowledgement;
import io.tributary.broker.testing.TestBroker;
import io.tributary.broker.testing.WireClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.message.ShareAcknowledgeRequestData;
import org.apache.kafka.common.message.ShareFetchRequestData;
import org.apache.kafka.common.message.ShareFetchResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.quota.ClientQuotaFilter;
import org.apache.kafka.common.quota.ClientQuotaFilterComponent;
import org.apache.kafka.common.requests.ShareAcknowledgeRequest;
import org.apache.kafka.common.requests.ShareAcknowledgeResponse;
import org.apache.kafka.common.requests.ShareFetchRequest;
import org.apache.kafka.common.requests.ShareFetchResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ShareFetch (KIP-932) counts against the consumer fetch quota ({@code consumer_byte_rate}, KIP-13),
 * as raw wire requests: a client id over its quota is answered a positive {@code throttle_time_ms},
 * and the records of that answer are still delivered, acquired by the member and acknowledgeable;
 * a client id without a quota is never throttled.
 */
class ShareFetchQuotaTest {

    private static final short VERSION = 2;
    private static final int QUOTA = 2_000; // bytes/s: one fetch may read 20 KB (10 windows), the next is over
    private static final int RECORD_BYTES = 1_000;
    private static final int RECORDS = 60;

    @TempDir
    static Path dir;
    static TestBroker broker;
    static Admin admin;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.start(dir);
        admin = broker.admin();
        admin.createTopics(List.of(new NewTopic("quoted", 1, (short) 1), new NewTopic("free", 1, (short) 1))).all().get();
    }

    @AfterAll
    static void stop() {
        admin.close();
        broker.close();
    }

    @Test
    void aShareFetchOverTheConsumerByteRateIsThrottledAndItsRecordsStayAcquired() throws Exception {
        ClientQuotaEntity entity = new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID, "share-throttled"));
        admin.alterClientQuotas(List.of(new ClientQuotaAlteration(entity,
            List.of(new ClientQuotaAlteration.Op("consumer_byte_rate", (double) QUOTA))))).all().get();
        await().atMost(Duration.ofSeconds(15)).until(() -> admin.describeClientQuotas(ClientQuotaFilter.contains(List.of(
            ClientQuotaFilterComponent.ofEntity(ClientQuotaEntity.CLIENT_ID, "share-throttled")))).entities().get()
            .containsKey(entity));
        readFromEarliest("quoted-readers");
        produce("quoted");
        Uuid topicId = topicId("quoted");
        String member = Uuid.randomUuid().toString();
        try (WireClient fetcher = WireClient.connect(broker.bootstrapServers()).clientId("share-throttled");
             WireClient acker = WireClient.connect(broker.bootstrapServers()).clientId("share-acker")) {
            ShareFetchResponse throttled = null;
            int epoch = 0;
            // The first answers fill the quota's windows; one past them is throttled (the records are all there).
            while (throttled == null && epoch < 4) {
                ShareFetchResponse response = fetcher.send(fetch("quoted-readers", member, epoch++, topicId));
                assertThat(only(response).acquiredRecords()).as("records left to deliver").isNotEmpty();
                if (response.data().throttleTimeMs() > 0) {
                    throttled = response;
                }
            }
            assertThat(throttled).as("a ShareFetch over consumer_byte_rate is throttled").isNotNull();
            ShareFetchResponseData.PartitionData delivered = only(throttled);
            assertThat(ShareFetchResponse.recordsSize(delivered)).as("the throttled answer still carries its records")
                .isPositive();

            // The muted connection is not used again: the member acknowledges on another one.
            ShareAcknowledgeRequestData data = new ShareAcknowledgeRequestData().setGroupId("quoted-readers")
                .setMemberId(member).setShareSessionEpoch(epoch);
            ShareAcknowledgeRequestData.AcknowledgePartition partition = new ShareAcknowledgeRequestData.AcknowledgePartition()
                .setPartitionIndex(0);
            delivered.acquiredRecords().forEach(a -> partition.acknowledgementBatches().add(
                new ShareAcknowledgeRequestData.AcknowledgementBatch().setFirstOffset(a.firstOffset())
                    .setLastOffset(a.lastOffset()).setAcknowledgeTypes(List.of(ShareAcknowledgement.ACCEPT))));
            ShareAcknowledgeRequestData.AcknowledgeTopic topic = new ShareAcknowledgeRequestData.AcknowledgeTopic()
                .setTopicId(topicId);
            topic.partitions().add(partition);
            data.topics().add(topic);
            ShareAcknowledgeResponse acked = acker.send(new ShareAcknowledgeRequest.Builder(data).build(VERSION));
            assertThat(Errors.forCode(acked.data().errorCode())).isEqualTo(Errors.NONE);
            assertThat(Errors.forCode(acked.data().responses().iterator().next().partitions().get(0).errorCode()))
                .as("the throttled answer's records are acquired by the member").isEqualTo(Errors.NONE);
        }
    }

    @Test
    void withoutAQuotaShareFetchIsNotThrottled() throws Exception {
        readFromEarliest("free-readers");
        produce("free");
        Uuid topicId = topicId("free");
        String member = Uuid.randomUuid().toString();
        try (WireClient client = WireClient.connect(broker.bootstrapServers()).clientId("share-free")) {
            for (int epoch = 0; epoch < 3; epoch++) {
                ShareFetchResponse response = client.send(fetch("free-readers", member, epoch, topicId));
                assertThat(only(response).acquiredRecords()).isNotEmpty();
                assertThat(response.data().throttleTimeMs()).isZero();
            }
        }
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

    /** {@link #RECORDS} records of {@link #RECORD_BYTES}, each in its own batch. */
    private static void produce(String topic) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = broker.producer(Map.of(ProducerConfig.LINGER_MS_CONFIG, 0))) {
            for (int i = 0; i < RECORDS; i++) {
                producer.send(new ProducerRecord<>(topic, 0, null, new byte[RECORD_BYTES])).get();
            }
        }
    }

    /** Up to 10 records (about 10 KB), so that the quota, not the request, bounds the answers. */
    private static ShareFetchRequest fetch(String group, String member, int epoch, Uuid topicId) {
        ShareFetchRequestData data = new ShareFetchRequestData().setGroupId(group).setMemberId(member)
            .setShareSessionEpoch(epoch).setMaxWaitMs(5_000).setMinBytes(1).setMaxBytes(1 << 20)
            .setMaxRecords(10).setBatchSize(10).setShareAcquireMode((byte) 1);
        ShareFetchRequestData.FetchTopic topic = new ShareFetchRequestData.FetchTopic().setTopicId(topicId);
        topic.partitions().add(new ShareFetchRequestData.FetchPartition().setPartitionIndex(0));
        data.topics().add(topic);
        return new ShareFetchRequest.Builder(data).build(VERSION);
    }

    private static ShareFetchResponseData.PartitionData only(ShareFetchResponse response) {
        assertThat(Errors.forCode(response.data().errorCode())).isEqualTo(Errors.NONE);
        assertThat(response.data().responses()).hasSize(1);
        return response.data().responses().iterator().next().partitions().get(0);
    }
}
