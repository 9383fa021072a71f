package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.KafkaTool;
import io.tributary.broker.testing.TestBroker;
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
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kafka-clients' transactional producer against a broker (KIP-98): commits and aborts across
 * partitions, read_committed consumers seeing exactly the committed records, the last stable
 * offset holding them while a transaction is open, a second instance of a transactional id
 * fencing the first, and a transaction past its timeout aborted by the coordinator.
 */
class TransactionsTest {

    private static final int PARTITIONS = 3;

    @TempDir
    static Path dir;
    static TestBroker broker;
    static Admin admin;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.start(dir, Map.of("broker.transaction-abort-timed-out-transaction-cleanup-interval-ms", "200"));
        admin = broker.admin();
        admin.createTopics(List.of(new NewTopic("orders", PARTITIONS, (short) 1), new NewTopic("fenced", 1, (short) 1),
            new NewTopic("open", 1, (short) 1), new NewTopic("timed-out", 1, (short) 1),
            new NewTopic("cttp-in", 1, (short) 1), new NewTopic("cttp-out", 1, (short) 1))).all().get();
    }

    @AfterAll
    static void stop() {
        admin.close();
        broker.close();
    }

    private static KafkaProducer<byte[], byte[]> transactional(String transactionalId, Map<String, Object> extra) {
        Map<String, Object> config = new java.util.HashMap<>(Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG,
            transactionalId, ProducerConfig.MAX_BLOCK_MS_CONFIG, 30_000));
        config.putAll(extra);
        KafkaProducer<byte[], byte[]> producer = broker.producer(config);
        producer.initTransactions();
        return producer;
    }

    private static ProducerRecord<byte[], byte[]> record(String topic, int partition, String value) {
        return new ProducerRecord<>(topic, partition, null, value.getBytes(StandardCharsets.UTF_8));
    }

    private static KafkaConsumer<byte[], byte[]> consumer(String isolation, String topic, int partitions) {
        KafkaConsumer<byte[], byte[]> consumer = broker.consumer(Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation,
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"));
        List<TopicPartition> tps = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            tps.add(new TopicPartition(topic, p));
        }
        consumer.assign(tps);
        return consumer;
    }

    /** Polls until every assigned partition's position reaches its end offset (per the consumer's isolation). */
    private static List<String> readToEnd(KafkaConsumer<byte[], byte[]> consumer) {
        List<String> values = new ArrayList<>();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                values.add(new String(r.value(), StandardCharsets.UTF_8));
            }
            Map<TopicPartition, Long> ends = consumer.endOffsets(consumer.assignment());
            return consumer.assignment().stream().allMatch(tp -> consumer.position(tp) >= ends.get(tp));
        });
        return values;
    }

    @Test
    void readCommittedConsumersSeeExactlyTheCommittedRecords() {
        try (KafkaProducer<byte[], byte[]> producer = transactional("orders-app", Map.of())) {
            producer.beginTransaction();
            for (int p = 0; p < PARTITIONS; p++) {
                producer.send(record("orders", p, "committed-" + p));
            }
            producer.commitTransaction();
            producer.beginTransaction();
            producer.send(record("orders", 0, "aborted-0"));
            producer.send(record("orders", 2, "aborted-2"));
            producer.flush();
            producer.abortTransaction();
            producer.beginTransaction();
            producer.send(record("orders", 1, "committed-again"));
            producer.commitTransaction();
        }

        try (KafkaConsumer<byte[], byte[]> committed = consumer("read_committed", "orders", PARTITIONS);
             KafkaConsumer<byte[], byte[]> uncommitted = consumer("read_uncommitted", "orders", PARTITIONS)) {
            assertThat(readToEnd(committed)).containsExactlyInAnyOrder("committed-0", "committed-1", "committed-2",
                "committed-again");
            assertThat(readToEnd(uncommitted)).containsExactlyInAnyOrder("committed-0", "committed-1", "committed-2",
                "aborted-0", "aborted-2", "committed-again");
        }
    }

    @Test
    void anOpenTransactionHoldsReadCommittedConsumersUntilItCommits() {
        TopicPartition tp = new TopicPartition("open", 0);
        try (KafkaProducer<byte[], byte[]> producer = transactional("open-app", Map.of());
             KafkaConsumer<byte[], byte[]> committed = consumer("read_committed", "open", 1)) {
            producer.beginTransaction();
            producer.send(record("open", 0, "pending"));
            producer.flush();
            assertThat(committed.endOffsets(List.of(tp))).as("the LSO, at the open transaction").containsEntry(tp, 0L);

            producer.commitTransaction();

            await().atMost(Duration.ofSeconds(10)).until(() -> committed.endOffsets(List.of(tp)).get(tp) == 2L);
            assertThat(readToEnd(committed)).containsExactly("pending");
        }
    }

    @Test
    void aSecondInstanceFencesTheFirstAndItsTransactionIsAborted() {
        KafkaProducer<byte[], byte[]> zombie = transactional("fenced-app", Map.of());
        try {
            zombie.beginTransaction();
            zombie.send(record("fenced", 0, "zombie"));
            zombie.flush();
            try (KafkaProducer<byte[], byte[]> successor = transactional("fenced-app", Map.of())) {
                assertThatThrownBy(zombie::commitTransaction).isInstanceOf(KafkaException.class);
                successor.beginTransaction();
                successor.send(record("fenced", 0, "successor"));
                successor.commitTransaction();
            }
        } finally {
            zombie.close(Duration.ZERO);
        }
        try (KafkaConsumer<byte[], byte[]> committed = consumer("read_committed", "fenced", 1)) {
            assertThat(readToEnd(committed)).containsExactly("successor");
        }
    }

    @Test
    void aTransactionPastItsTimeoutIsAbortedByTheCoordinator() {
        TopicPartition tp = new TopicPartition("timed-out", 0);
        try (KafkaProducer<byte[], byte[]> producer = transactional("slow-app",
                Map.of(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 1_000));
             KafkaConsumer<byte[], byte[]> committed = consumer("read_committed", "timed-out", 1)) {
            producer.beginTransaction();
            producer.send(record("timed-out", 0, "forgotten"));
            producer.flush();

            await().atMost(Duration.ofSeconds(20)).until(() -> committed.endOffsets(List.of(tp)).get(tp) == 2L);
            assertThat(readToEnd(committed)).as("aborted by the coordinator").isEmpty();
            assertThatThrownBy(producer::commitTransaction).isInstanceOf(KafkaException.class);
        }
    }

    @Test
    void offsetsSentToATransactionAreCommittedWithItAndDroppedWhenItAborts() throws Exception {
        TopicPartition input = new TopicPartition("cttp-in", 0);
        try (KafkaProducer<byte[], byte[]> plain = broker.producer(Map.of())) {
            for (int i = 0; i < 6; i++) {
                plain.send(record("cttp-in", 0, "in-" + i)).get();
            }
        }
        try (KafkaProducer<byte[], byte[]> producer = transactional("cttp-app", Map.of());
             KafkaConsumer<byte[], byte[]> consumer = broker.consumer(Map.of(ConsumerConfig.GROUP_ID_CONFIG, "cttp",
                 ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed", ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                 ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest", ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 3))) {
            consumer.assign(List.of(input));
            for (boolean commit : new boolean[] {true, false}) {
                List<ConsumerRecord<byte[], byte[]>> batch = new ArrayList<>();
                await().atMost(Duration.ofSeconds(20)).until(() -> {
                    consumer.poll(Duration.ofMillis(100)).forEach(batch::add);
                    return batch.size() >= 3;
                });
                producer.beginTransaction();
                for (ConsumerRecord<byte[], byte[]> r : batch) {
                    producer.send(record("cttp-out", 0, "out-" + new String(r.value(), StandardCharsets.UTF_8)));
                }
                long next = batch.get(batch.size() - 1).offset() + 1;
                producer.sendOffsetsToTransaction(Map.of(input, new org.apache.kafka.clients.consumer.OffsetAndMetadata(next)),
                    consumer.groupMetadata());
                if (commit) {
                    producer.commitTransaction();
                } else {
                    producer.abortTransaction();
                }
            }
        }

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(admin.listConsumerGroupOffsets("cttp")
            .partitionsToOffsetAndMetadata().get()).as("the aborted transaction's offsets are dropped")
            .containsEntry(input, new org.apache.kafka.clients.consumer.OffsetAndMetadata(3)));
        try (KafkaConsumer<byte[], byte[]> committed = consumer("read_committed", "cttp-out", 1)) {
            assertThat(readToEnd(committed)).containsExactly("out-in-0", "out-in-1", "out-in-2");
        }
    }

    @Test
    void anOperatorListsAndDescribesTransactionsAsKafkaToolsDo() throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = transactional("listed-app", Map.of())) {
            producer.beginTransaction();
            producer.send(record("open", 0, "listed"));
            producer.flush();

            assertThat(admin.listTransactions(new org.apache.kafka.clients.admin.ListTransactionsOptions()
                    .filterStates(List.of(org.apache.kafka.clients.admin.TransactionState.ONGOING))).all().get())
                .anySatisfy(t -> {
                    assertThat(t.transactionalId()).isEqualTo("listed-app");
                    assertThat(t.state()).isEqualTo(org.apache.kafka.clients.admin.TransactionState.ONGOING);
                });
            org.apache.kafka.clients.admin.TransactionDescription ongoing =
                admin.describeTransactions(List.of("listed-app")).description("listed-app").get();
            assertThat(ongoing.state()).isEqualTo(org.apache.kafka.clients.admin.TransactionState.ONGOING);
            assertThat(ongoing.topicPartitions()).containsExactly(new TopicPartition("open", 0));
            assertThat(ongoing.transactionStartTimeMs()).isPresent();
            KafkaTool.Result listed = KafkaTool.run(null, "org.apache.kafka.tools.TransactionsCommand",
                "--bootstrap-server", broker.bootstrapServers(), "list");
            assertThat(listed.exitCode()).as(listed.output()).isZero();
            assertThat(listed.output()).as("kafka-transactions list").containsPattern("listed-app\\s+\\d+\\s+\\d+\\s+Ongoing");
            KafkaTool.Result described = KafkaTool.run(null, "org.apache.kafka.tools.TransactionsCommand",
                "--bootstrap-server", broker.bootstrapServers(), "describe", "--transactional-id", "listed-app");
            assertThat(described.exitCode()).as(described.output()).isZero();
            assertThat(described.output()).as("kafka-transactions describe").contains("Ongoing").contains("open-0");

            producer.commitTransaction();
            await().atMost(Duration.ofSeconds(10)).until(() -> admin.describeTransactions(List.of("listed-app"))
                .description("listed-app").get().state() == org.apache.kafka.clients.admin.TransactionState.COMPLETE_COMMIT);
        }
        assertThat(admin.listTransactions(new org.apache.kafka.clients.admin.ListTransactionsOptions()
                .filterStates(List.of(org.apache.kafka.clients.admin.TransactionState.ONGOING))).all().get())
            .noneSatisfy(t -> assertThat(t.transactionalId()).isEqualTo("listed-app"));
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> admin.describeTransactions(List.of("never-used"))
            .description("never-used").get())).hasCauseInstanceOf(
                org.apache.kafka.common.errors.TransactionalIdNotFoundException.class);
    }
}
