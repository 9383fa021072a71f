package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.TestBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Offsets committed inside transactions survive a restart as their markers decided: the group
 * coordinator reloads {@code __consumer_offsets}, where a committed transaction's offsets batch is
 * followed by its COMMIT marker and an aborted one's by its ABORT marker.
 */
class TransactionalOffsetsRestartTest {

    @TempDir
    static Path dir;
    static TestBroker broker;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.start(dir);
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic("offsets-in", 1, (short) 1))).all().get();
        }
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    @Test
    void aCommittedTransactionsOffsetsAreReloadedAndAnAbortedOnesAreNot() throws Exception {
        TopicPartition input = new TopicPartition("offsets-in", 0);
        try (KafkaProducer<byte[], byte[]> producer = broker.producer(Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                "offsets-app"))) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.sendOffsetsToTransaction(Map.of(input, new OffsetAndMetadata(5)), new ConsumerGroupMetadata("reloaded"));
            producer.commitTransaction();
            producer.beginTransaction();
            producer.sendOffsetsToTransaction(Map.of(input, new OffsetAndMetadata(9)), new ConsumerGroupMetadata("reloaded"));
            producer.abortTransaction();
        }
        try (Admin admin = broker.admin()) {
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(admin.listConsumerGroupOffsets("reloaded")
                .partitionsToOffsetAndMetadata().get()).containsEntry(input, new OffsetAndMetadata(5)));
        }

        broker.restart();

        try (Admin admin = broker.admin()) {
            await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() -> assertThat(
                admin.listConsumerGroupOffsets("reloaded").partitionsToOffsetAndMetadata().get())
                .containsEntry(input, new OffsetAndMetadata(5)));
        }
    }
}
