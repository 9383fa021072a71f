package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.TestBroker;
import io.tributary.broker.testing.WireClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.ListOffsetsRequestData;
import org.apache.kafka.common.message.ListOffsetsResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.requests.FetchResponse;
import org.apache.kafka.common.requests.ListOffsetsRequest;
import org.apache.kafka.common.requests.ListOffsetsResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Fetch long polling, limits, errors and sessions; ListOffsets by time. */
class FetchAndListOffsetsTest {

    private static final short FETCH_VERSION = 12;

    @TempDir
    static Path dir;
    static TestBroker broker;
    static Admin admin;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.start(dir);
        admin = broker.admin();
        admin.createTopics(List.of(new NewTopic("polled", 1, (short) 1), new NewTopic("limits", 1, (short) 1),
            new NewTopic("timed", 1, (short) 1))).all().get();
    }

    @AfterAll
    static void stop() {
        admin.close();
        broker.close();
    }

    private static FetchRequest fetch(String topic, long offset, int maxWaitMs, int maxBytes, int partitionMaxBytes,
                                      IsolationLevel isolation, int sessionId, int epoch) {
        FetchRequestData data = new FetchRequestData().setReplicaId(-1).setMaxWaitMs(maxWaitMs).setMinBytes(1)
            .setMaxBytes(maxBytes).setIsolationLevel(isolation.id()).setSessionId(sessionId).setSessionEpoch(epoch);
        data.topics().add(new FetchRequestData.FetchTopic().setTopic(topic).setPartitions(List.of(
            new FetchRequestData.FetchPartition().setPartition(0).setFetchOffset(offset).setPartitionMaxBytes(partitionMaxBytes)
                .setCurrentLeaderEpoch(RecordBatch.NO_PARTITION_LEADER_EPOCH))));
        return new FetchRequest(data, FETCH_VERSION);
    }

    private static FetchResponseData.PartitionData only(FetchResponse response) {
        assertThat(response.data().responses()).hasSize(1);
        assertThat(response.data().responses().get(0).partitions()).hasSize(1);
        return response.data().responses().get(0).partitions().get(0);
    }

    @Test
    void aFetchWaitsForRecordsAndAnswersAsSoonAsTheyArrive() throws Exception {
        try (WireClient client = WireClient.connect(broker.bootstrapServers());
             KafkaProducer<byte[], byte[]> producer = broker.producer(Map.of())) {
            CompletableFuture<FetchResponse> pending = CompletableFuture.supplyAsync(() -> {
                try {
                    return client.send(fetch("polled", 0, 20_000, 1_000_000, 1_000_000, IsolationLevel.READ_UNCOMMITTED, 0, -1));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            await().atMost(Duration.ofSeconds(10))
                .until(() -> broker.server().replicaManager().waitingFetches(new TopicPartition("polled", 0)) == 1);
            assertThat(pending).isNotDone();
            producer.send(new ProducerRecord<>("polled", 0, null, new byte[]{1, 2, 3})).get();
            FetchResponseData.PartitionData data = only(pending.get(15, TimeUnit.SECONDS));
            assertThat(data.records().sizeInBytes()).isPositive();
            assertThat(data.highWatermark()).isEqualTo(1);
        }
    }

    @Test
    void anExpiredWaitStillAnswersForEveryPartition() throws Exception {
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            FetchResponse response = client.send(fetch("timed", 0, 100, 1_000_000, 1_000_000,
                IsolationLevel.READ_UNCOMMITTED, 0, -1));
            FetchResponseData.PartitionData data = only(response);
            assertThat(Errors.forCode(data.errorCode())).isEqualTo(Errors.NONE);
            assertThat(data.records().sizeInBytes()).isZero();
            assertThat(response.data().sessionId()).isZero();
        }
    }

    @Test
    void theFirstBatchIsReturnedWholeEvenAboveMaxBytes() throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = broker.producer(Map.of())) {
            producer.send(new ProducerRecord<>("limits", 0, null, new byte[10_000])).get();
            producer.send(new ProducerRecord<>("limits", 0, null, new byte[10_000])).get();
        }
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            FetchResponseData.PartitionData data = only(client.send(fetch("limits", 0, 0, 100, 100,
                IsolationLevel.READ_COMMITTED, 0, -1)));
            assertThat(data.records().sizeInBytes()).isBetween(10_000, 11_000);
            assertThat(data.lastStableOffset()).isEqualTo(data.highWatermark());
            assertThat(data.abortedTransactions()).isEmpty();
        }
    }

    @Test
    void anOffsetOutOfRangeIsReportedWithTheValidRange() throws Exception {
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            FetchResponseData.PartitionData data = only(client.send(fetch("limits", 500, 0, 1000, 1000,
                IsolationLevel.READ_UNCOMMITTED, 0, -1)));
            assertThat(Errors.forCode(data.errorCode())).isEqualTo(Errors.OFFSET_OUT_OF_RANGE);
            assertThat(data.logStartOffset()).isZero();
        }
    }

    @Test
    void unknownTopicsAndTopicIdsGetTheirErrorCodes() throws Exception {
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            FetchResponseData.PartitionData unknownName = only(client.send(fetch("nope", 0, 0, 1000, 1000,
                IsolationLevel.READ_UNCOMMITTED, 0, -1)));
            assertThat(Errors.forCode(unknownName.errorCode())).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION);

            FetchRequestData data = new FetchRequestData().setReplicaId(-1).setMaxWaitMs(0).setMinBytes(1)
                .setMaxBytes(1000).setSessionId(0).setSessionEpoch(-1);
            data.topics().add(new FetchRequestData.FetchTopic().setTopicId(Uuid.randomUuid()).setPartitions(List.of(
                new FetchRequestData.FetchPartition().setPartition(0).setFetchOffset(0).setPartitionMaxBytes(1000))));
            FetchResponse byId = client.send(new FetchRequest(data, (short) 16));
            assertThat(Errors.forCode(only(byId).errorCode())).isEqualTo(Errors.UNKNOWN_TOPIC_ID);
        }
    }

    @Test
    void aFullFetchOpensASessionAndWrongSessionsAreAnsweredWithKip227Errors() throws Exception {
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            FetchResponse initial = client.send(fetch("limits", 0, 0, 1000, 1000, IsolationLevel.READ_UNCOMMITTED, 0, 0));
            int session = initial.data().sessionId();
            assertThat(session).isPositive();
            assertThat(Errors.forCode(initial.data().errorCode())).isEqualTo(Errors.NONE);
            FetchResponse unknown = client.send(fetch("limits", 0, 0, 1000, 1000, IsolationLevel.READ_UNCOMMITTED,
                session + 1, 1));
            assertThat(Errors.forCode(unknown.data().errorCode())).isEqualTo(Errors.FETCH_SESSION_ID_NOT_FOUND);
            // Session id 0 with an incremental epoch names no session, as in Kafka.
            FetchResponse none = client.send(fetch("limits", 0, 0, 1000, 1000, IsolationLevel.READ_UNCOMMITTED, 0, 3));
            assertThat(Errors.forCode(none.data().errorCode())).isEqualTo(Errors.FETCH_SESSION_ID_NOT_FOUND);
            FetchResponse badEpoch = client.send(fetch("limits", 0, 0, 1000, 1000, IsolationLevel.READ_UNCOMMITTED,
                session, 3));
            assertThat(Errors.forCode(badEpoch.data().errorCode())).isEqualTo(Errors.INVALID_FETCH_SESSION_EPOCH);
            assertThat(badEpoch.data().sessionId()).isZero();
            assertThat(badEpoch.data().responses()).isEmpty();
        }
    }

    @Test
    void listOffsetsByTimestampAndMaxTimestamp() throws Exception {
        admin.createTopics(List.of(new NewTopic("stamped", 1, (short) 1))).all().get();
        long base = System.currentTimeMillis() - 60_000;
        try (KafkaProducer<byte[], byte[]> producer = broker.producer(Map.of())) {
            producer.send(new ProducerRecord<>("stamped", 0, base, null, new byte[]{0})).get();
            producer.send(new ProducerRecord<>("stamped", 0, base + 5_000, null, new byte[]{1})).get();
            producer.send(new ProducerRecord<>("stamped", 0, base + 20_000, null, new byte[]{2})).get();
            producer.send(new ProducerRecord<>("stamped", 0, base + 10_000, null, new byte[]{3})).get();
        }
        TopicPartition tp = new TopicPartition("stamped", 0);
        assertThat(offsetFor(tp, OffsetSpec.forTimestamp(base + 1)).offset()).isEqualTo(1);
        assertThat(offsetFor(tp, OffsetSpec.forTimestamp(base + 5_000)).offset()).isEqualTo(1);
        assertThat(offsetFor(tp, OffsetSpec.forTimestamp(base + 15_000)).offset()).isEqualTo(2);
        assertThat(offsetFor(tp, OffsetSpec.forTimestamp(base + 30_000)).offset()).isEqualTo(-1);
        ListOffsetsResult.ListOffsetsResultInfo max = offsetFor(tp, OffsetSpec.maxTimestamp());
        assertThat(max.offset()).isEqualTo(2);
        assertThat(max.timestamp()).isEqualTo(base + 20_000);
        assertThat(offsetFor(tp, OffsetSpec.earliest()).offset()).isZero();
        assertThat(offsetFor(tp, OffsetSpec.latest()).offset()).isEqualTo(4);
        assertThat(offsetFor(tp, OffsetSpec.latest()).leaderEpoch()).contains(0);
    }

    @Test
    void latestTieredOffsetIsCheckedLikeAnyOtherSpec() throws Exception {
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            ListOffsetsResponse response = client.send(ListOffsetsRequest.Builder.forConsumer(false,
                IsolationLevel.READ_UNCOMMITTED).setTargetTimes(List.of(
                    listOffsetsTopic("limits", 0, RecordBatch.NO_PARTITION_LEADER_EPOCH),
                    listOffsetsTopic("no-such-topic", 0, RecordBatch.NO_PARTITION_LEADER_EPOCH),
                    listOffsetsTopic("timed", 0, 7))).build((short) 9));
            Map<String, ListOffsetsResponseData.ListOffsetsPartitionResponse> byTopic = new java.util.HashMap<>();
            response.data().topics().forEach(t -> byTopic.put(t.name(), t.partitions().get(0)));
            // Without tiered storage the answer is -1, but only for a partition this broker leads.
            assertThat(Errors.forCode(byTopic.get("limits").errorCode())).isEqualTo(Errors.NONE);
            assertThat(byTopic.get("limits").offset()).isEqualTo(-1);
            assertThat(Errors.forCode(byTopic.get("no-such-topic").errorCode())).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION);
            assertThat(Errors.forCode(byTopic.get("timed").errorCode())).isEqualTo(Errors.UNKNOWN_LEADER_EPOCH);
        }
    }

    private static ListOffsetsRequestData.ListOffsetsTopic listOffsetsTopic(String topic, int partition, int leaderEpoch) {
        return new ListOffsetsRequestData.ListOffsetsTopic().setName(topic).setPartitions(List.of(
            new ListOffsetsRequestData.ListOffsetsPartition().setPartitionIndex(partition).setCurrentLeaderEpoch(leaderEpoch)
                .setTimestamp(ListOffsetsRequest.LATEST_TIERED_TIMESTAMP)));
    }

    @Test
    void everyOccurrenceOfAPartitionAskedTwiceGetsInvalidRequest() throws Exception {
        org.apache.kafka.common.message.ListOffsetsRequestData data = new org.apache.kafka.common.message.ListOffsetsRequestData()
            .setReplicaId(-1);
        org.apache.kafka.common.message.ListOffsetsRequestData.ListOffsetsTopic topic =
            new org.apache.kafka.common.message.ListOffsetsRequestData.ListOffsetsTopic().setName("limits");
        for (long timestamp : new long[]{-1L, -2L}) {
            topic.partitions().add(new org.apache.kafka.common.message.ListOffsetsRequestData.ListOffsetsPartition()
                .setPartitionIndex(0).setTimestamp(timestamp).setCurrentLeaderEpoch(-1));
        }
        data.topics().add(topic);
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            org.apache.kafka.common.protocol.ByteBufferAccessor serialized =
                org.apache.kafka.common.protocol.MessageUtil.toByteBufferAccessor(data, (short) 7);
            org.apache.kafka.common.requests.ListOffsetsResponse response = client.send(
                org.apache.kafka.common.requests.ListOffsetsRequest.parse(serialized, (short) 7));
            assertThat(response.data().topics().get(0).partitions()).hasSize(2)
                .allSatisfy(p -> assertThat(Errors.forCode(p.errorCode())).isEqualTo(Errors.INVALID_REQUEST));
        }
    }

    private static ListOffsetsResult.ListOffsetsResultInfo offsetFor(TopicPartition tp, OffsetSpec spec) throws Exception {
        return admin.listOffsets(Map.of(tp, spec)).partitionResult(tp).get();
    }
}
