package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.testing.TestBroker;
import io.tributary.broker.testing.WireClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.InitProducerIdRequest;
import org.apache.kafka.common.requests.InitProducerIdResponse;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.ProduceResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Idempotent produce at the protocol level: a retried batch (same producer id, epoch and
 * sequences) is acknowledged with its original offset and written once, also after the broker
 * restarts; sequence gaps are rejected; producer ids are never handed out twice.
 */
class IdempotentProduceTest {

    private static final String TOPIC = "idempotent";
    private static final short PRODUCE_VERSION = 12;

    @TempDir
    Path dir;

    @Test
    void retriedBatchIsAcknowledgedWithItsOriginalOffsetAndWrittenOnceAcrossARestart() throws Exception {
        try (TestBroker broker = TestBroker.start(dir)) {
            createTopic(broker);
            long producerId;
            try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
                producerId = initProducerId(client);
                assertThat(produce(client, producerId, 0, "a", "b").baseOffset()).isEqualTo(0);
                assertThat(produce(client, producerId, 2, "c").baseOffset()).isEqualTo(2);
                // The retry of the first batch: same sequences, acknowledged at offset 0 again.
                ProduceResponseData.PartitionProduceResponse retry = produce(client, producerId, 0, "a", "b");
                assertThat(Errors.forCode(retry.errorCode())).isEqualTo(Errors.NONE);
                assertThat(retry.baseOffset()).isEqualTo(0);
                assertThat(latestOffset(broker)).isEqualTo(3);
            }

            broker.restart();

            try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
                ProduceResponseData.PartitionProduceResponse retry = produce(client, producerId, 2, "c");
                assertThat(Errors.forCode(retry.errorCode())).isEqualTo(Errors.NONE);
                assertThat(retry.baseOffset()).isEqualTo(2);
                ProduceResponseData.PartitionProduceResponse olderRetry = produce(client, producerId, 0, "a", "b");
                assertThat(olderRetry.baseOffset()).isEqualTo(0);
                assertThat(latestOffset(broker)).isEqualTo(3);
                assertThat(produce(client, producerId, 3, "d").baseOffset()).isEqualTo(3);
                assertThat(latestOffset(broker)).isEqualTo(4);
            }
        }
    }

    @Test
    void sequenceGapsAreRejectedWithOutOfOrderSequence() throws Exception {
        try (TestBroker broker = TestBroker.start(dir);
             WireClient client = WireClient.connect(broker.bootstrapServers())) {
            createTopic(broker);
            long producerId = initProducerId(client);
            assertThat(produce(client, producerId, 0, "a").errorCode()).isEqualTo(Errors.NONE.code());
            ProduceResponseData.PartitionProduceResponse gap = produce(client, producerId, 5, "f");
            assertThat(Errors.forCode(gap.errorCode())).isEqualTo(Errors.OUT_OF_ORDER_SEQUENCE_NUMBER);
            assertThat(latestOffset(broker)).isEqualTo(1);
            assertThat(produce(client, producerId, 1, "b").baseOffset()).isEqualTo(1);
        }
    }

    @Test
    void producerIdsAreNeverReusedAfterARestart() throws Exception {
        try (TestBroker broker = TestBroker.start(dir)) {
            Set<Long> before = new HashSet<>();
            try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
                for (int i = 0; i < 5; i++) {
                    before.add(initProducerId(client));
                }
            }
            assertThat(before).hasSize(5);
            broker.restart();
            try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
                List<Long> after = new ArrayList<>();
                for (int i = 0; i < 5; i++) {
                    after.add(initProducerId(client));
                }
                assertThat(after).doesNotContainAnyElementsOf(before);
                assertThat(after.get(0)).isGreaterThan(before.stream().mapToLong(Long::longValue).max().orElseThrow());
            }
        }
    }

    private static void createTopic(TestBroker broker) throws Exception {
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get();
        }
    }

    private static long latestOffset(TestBroker broker) throws Exception {
        try (Admin admin = broker.admin()) {
            TopicPartition tp = new TopicPartition(TOPIC, 0);
            return admin.listOffsets(java.util.Map.of(tp, OffsetSpec.latest())).partitionResult(tp).get().offset();
        }
    }

    static long initProducerId(WireClient client) throws Exception {
        InitProducerIdResponse response = client.send(new InitProducerIdRequest.Builder(new InitProducerIdRequestData()
            .setTransactionalId(null).setTransactionTimeoutMs(60_000)).build((short) 4));
        assertThat(Errors.forCode(response.data().errorCode())).isEqualTo(Errors.NONE);
        assertThat(response.data().producerEpoch()).isEqualTo((short) 0);
        return response.data().producerId();
    }

    static ProduceResponseData.PartitionProduceResponse produce(WireClient client, long producerId, int baseSequence,
                                                                String... values) throws Exception {
        SimpleRecord[] records = new SimpleRecord[values.length];
        for (int i = 0; i < values.length; i++) {
            records[i] = new SimpleRecord(values[i].getBytes(StandardCharsets.UTF_8));
        }
        MemoryRecords batch = MemoryRecords.withIdempotentRecords(Compression.NONE, producerId, (short) 0, baseSequence,
            records);
        ProduceRequestData data = new ProduceRequestData().setAcks((short) -1).setTimeoutMs(30_000);
        ProduceRequestData.TopicProduceData topic = new ProduceRequestData.TopicProduceData().setName(TOPIC);
        topic.partitionData().add(new ProduceRequestData.PartitionProduceData().setIndex(0).setRecords(batch));
        data.topicData().add(topic);
        ProduceResponse response = client.send(new ProduceRequest(data, PRODUCE_VERSION));
        return response.data().responses().iterator().next().partitionResponses().get(0);
    }
}
