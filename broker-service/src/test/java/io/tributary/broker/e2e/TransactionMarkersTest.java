package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.TestBroker;
import io.tributary.broker.testing.WireClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.TransactionResult;
import org.apache.kafka.common.requests.WriteTxnMarkersRequest;
import org.apache.kafka.common.requests.WriteTxnMarkersResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * WriteTxnMarkers on a real broker, read back by kafka-clients' consumer (KIP-98): records of an
 * open transaction hold a read_committed consumer at the last stable offset; an ABORT marker
 * releases it and the consumer skips the aborted records, which a read_uncommitted consumer still
 * sees; a marker of an older coordinator epoch is refused. The transactional batch is appended to
 * the leader directly, as a transactional producer's Produce will once the coordinator serves it.
 */
class TransactionMarkersTest {

    private static final long PID = 77L;
    private static final String TOPIC = "markers";
    private static final TopicPartition TP = new TopicPartition(TOPIC, 0);

    @TempDir
    static Path dir;
    static TestBroker broker;
    static Admin admin;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.start(dir);
        admin = broker.admin();
        admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get();
    }

    @AfterAll
    static void stop() {
        admin.close();
        broker.close();
    }

    private static WriteTxnMarkersResponse writeMarker(TransactionResult result, int coordinatorEpoch,
                                                       List<TopicPartition> partitions) throws Exception {
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            return client.send(new WriteTxnMarkersRequest.Builder(List.of(new WriteTxnMarkersRequest.TxnMarkerEntry(
                PID, (short) 0, coordinatorEpoch, result, partitions, (short) 0))).build((short) 1));
        }
    }

    private static KafkaConsumer<byte[], byte[]> consumer(String isolation) {
        KafkaConsumer<byte[], byte[]> consumer = broker.consumer(Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation,
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"));
        consumer.assign(List.of(TP));
        return consumer;
    }

    private static List<String> pollUntil(KafkaConsumer<byte[], byte[]> consumer, List<String> sink, int count) {
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                sink.add(new String(r.value(), StandardCharsets.UTF_8));
            }
            return sink.size() >= count;
        });
        return sink;
    }

    @Test
    void anAbortMarkerReleasesReadCommittedConsumersWhichSkipTheAbortedRecords() throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = broker.producer(Map.of())) {
            producer.send(new ProducerRecord<>(TOPIC, 0, null, "before".getBytes(StandardCharsets.UTF_8))).get();
            broker.server().replicaManager().getPartition(TP).orElseThrow().appendRecordsToLeader(
                MemoryRecords.withTransactionalRecords(Compression.NONE, PID, (short) 0, 0,
                    new SimpleRecord("aborted".getBytes(StandardCharsets.UTF_8))), (short) 1, 1);
            producer.send(new ProducerRecord<>(TOPIC, 0, null, "after".getBytes(StandardCharsets.UTF_8))).get();
        }

        try (KafkaConsumer<byte[], byte[]> committed = consumer("read_committed");
             KafkaConsumer<byte[], byte[]> uncommitted = consumer("read_uncommitted")) {
            List<String> readCommitted = pollUntil(committed, new ArrayList<>(), 1);
            assertThat(committed.endOffsets(List.of(TP))).as("the LSO, at the open transaction").containsEntry(TP, 1L);
            assertThat(uncommitted.endOffsets(List.of(TP))).as("the high watermark").containsEntry(TP, 3L);
            assertThat(readCommitted).as("held at the LSO").containsExactly("before");

            WriteTxnMarkersResponse response = writeMarker(TransactionResult.ABORT, 3,
                List.of(TP, new TopicPartition(TOPIC, 9)));
            assertThat(response.errorsByProducerId().get(PID)).containsEntry(TP, Errors.NONE)
                .containsEntry(new TopicPartition(TOPIC, 9), Errors.UNKNOWN_TOPIC_OR_PARTITION);

            assertThat(pollUntil(committed, readCommitted, 2)).as("released; the aborted record skipped")
                .containsExactly("before", "after");
            assertThat(committed.endOffsets(List.of(TP))).containsEntry(TP, 4L);
            assertThat(pollUntil(uncommitted, new ArrayList<>(), 3)).containsExactly("before", "aborted", "after");
        }

        WriteTxnMarkersResponse fenced = writeMarker(TransactionResult.COMMIT, 2, List.of(TP));
        assertThat(fenced.errorsByProducerId().get(PID)).as("an older coordinator epoch than the last marker's")
            .containsEntry(TP, Errors.TRANSACTION_COORDINATOR_FENCED);
    }
}
