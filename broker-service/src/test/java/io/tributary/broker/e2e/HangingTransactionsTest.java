package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.KafkaTool;
import io.tributary.broker.testing.TestBroker;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hanging transaction, as an operator meets one: a partition holds an open transaction that
 * its coordinator no longer knows (here the broker's {@code __transaction_state} data was lost
 * while it was down), so its last stable offset is stuck and read_committed consumers stall.
 * Kafka's {@code kafka-transactions} finds it with DescribeProducers, ListTransactions and
 * DescribeTransactions ({@code find-hanging}) and clears it with an ABORT marker written by the
 * admin client ({@code abort --start-offset}); a transaction its coordinator still runs is not
 * reported.
 */
class HangingTransactionsTest {

    private static final String TOOL = "org.apache.kafka.tools.TransactionsCommand";
    private static final TopicPartition HANG = new TopicPartition("hang", 0);

    @TempDir
    Path dir;

    @Test
    void anOperatorFindsAndAbortsATransactionItsCoordinatorLost() throws Exception {
        try (TestBroker broker = TestBroker.start(dir)) {
            try (Admin admin = broker.admin()) {
                admin.createTopics(List.of(new NewTopic(HANG.topic(), 1, (short) 1))).all().get();
            }
            KafkaProducer<byte[], byte[]> lost = transactional(broker, "lost-app");
            lost.beginTransaction();
            lost.send(new ProducerRecord<>(HANG.topic(), 0, null, bytes("hanging"))).get();
            broker.stop();
            lost.close(Duration.ZERO);
            deleteTransactionStateLogs(dir);
            broker.startAgain();

            try (Admin admin = broker.admin();
                 KafkaProducer<byte[], byte[]> live = transactional(broker, "live-app");
                 KafkaConsumer<byte[], byte[]> committed = broker.consumer(Map.of(
                     ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"))) {
                live.beginTransaction();
                live.send(new ProducerRecord<>(HANG.topic(), 0, null, bytes("live"))).get();

                List<ProducerState> producers = admin.describeProducers(List.of(HANG)).partitionResult(HANG).get()
                    .activeProducers();
                assertThat(producers).hasSize(2);
                ProducerState hanging = producers.stream()
                    .filter(p -> p.currentTransactionStartOffset().orElse(-1) == 0).findFirst().orElseThrow();
                assertThat(producers).anySatisfy(p -> assertThat(p.currentTransactionStartOffset()).hasValue(1));
                assertThat(committed.endOffsets(List.of(HANG)).get(HANG)).as("the LSO is held at the hanging data")
                    .isZero();

                KafkaTool.Result described = tool(broker, "describe-producers", "--topic", HANG.topic(), "--partition", "0");
                assertThat(described.exitCode()).as(described.output()).isZero();
                assertThat(described.output()).contains("CurrentTransactionStartOffset")
                    .containsPattern("(?m)^" + hanging.producerId() + "\\s+" + hanging.producerEpoch() + "\\s+.*\\s0\\s*$");

                KafkaTool.Result found = tool(broker, "find-hanging", "--topic", HANG.topic(), "--max-transaction-timeout", "0");
                assertThat(found.exitCode()).as(found.output()).isZero();
                assertThat(found.output()).as("only the lost transaction hangs")
                    .containsPattern("(?m)^hang\\s+0\\s+" + hanging.producerId() + "\\s")
                    .doesNotContainPattern("(?m)^hang\\s+0\\s+\\d+\\s+\\d+\\s+\\S+\\s+1\\s");

                KafkaTool.Result aborted = tool(broker, "abort", "--topic", HANG.topic(), "--partition", "0",
                    "--start-offset", "0");
                assertThat(aborted.exitCode()).as(aborted.output()).isZero();

                assertThat(admin.describeProducers(List.of(HANG)).partitionResult(HANG).get().activeProducers())
                    .filteredOn(p -> p.producerId() == hanging.producerId())
                    .singleElement().satisfies(p -> assertThat(p.currentTransactionStartOffset()).isEmpty());
                KafkaTool.Result after = tool(broker, "find-hanging", "--topic", HANG.topic(), "--max-transaction-timeout", "0");
                assertThat(after.output()).doesNotContainPattern("(?m)^hang\\s+0\\s+" + hanging.producerId() + "\\s");

                live.commitTransaction();
                committed.assign(List.of(HANG));
                committed.seekToBeginning(List.of(HANG));
                List<String> values = new java.util.ArrayList<>();
                await().atMost(Duration.ofSeconds(30)).until(() -> {
                    committed.poll(Duration.ofMillis(100)).forEach(r -> values.add(new String(r.value(), StandardCharsets.UTF_8)));
                    return committed.position(HANG) >= committed.endOffsets(List.of(HANG)).get(HANG)
                        && committed.endOffsets(List.of(HANG)).get(HANG) == 4;
                });
                assertThat(values).as("the aborted data is skipped, the live transaction's is read").containsExactly("live");
            }
        }
    }

    private static KafkaProducer<byte[], byte[]> transactional(TestBroker broker, String transactionalId) {
        KafkaProducer<byte[], byte[]> producer = broker.producer(Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG,
            transactionalId, ProducerConfig.MAX_BLOCK_MS_CONFIG, 30_000));
        producer.initTransactions();
        return producer;
    }

    private static KafkaTool.Result tool(TestBroker broker, String... args) throws Exception {
        String[] all = Stream.concat(Stream.of("--bootstrap-server", broker.bootstrapServers()), Stream.of(args))
            .toArray(String[]::new);
        return KafkaTool.run(null, TOOL, all);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Removes every {@code __transaction_state} partition directory: the coordinator's state is lost. */
    private static void deleteTransactionStateLogs(Path dataDir) throws IOException {
        List<Path> partitions;
        try (Stream<Path> dirs = Files.list(dataDir.resolve("kafka-logs"))) {
            partitions = dirs.filter(d -> d.getFileName().toString().startsWith("__transaction_state-")).toList();
        }
        assertThat(partitions).as("the coordinator's partitions").isNotEmpty();
        for (Path partition : partitions) {
            try (Stream<Path> files = Files.walk(partition)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> {
                    try {
                        Files.delete(f);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            }
        }
    }
}
