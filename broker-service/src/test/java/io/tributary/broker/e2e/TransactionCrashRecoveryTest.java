package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.BrokerProcess;
import io.tributary.broker.testing.TestBroker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Transactions survive SIGKILL of the broker process, and then compaction. Committed and aborted
 * transactions fill many small segments, one more is left open, and the broker is killed; while it
 * is down every index file of the partition ({@code .index}, {@code .timeindex} and
 * {@code .txnindex}) is deleted, so the restarted broker must rebuild the aborted-transaction
 * index from the log itself. Then: read_committed consumers are held at the open transaction until
 * its timeout aborts it, and read exactly the committed records (none of the aborted ones, which a
 * lost {@code .txnindex} would let through); and once the topic is made compacted and the cleaner
 * has run, the aborted records are gone from the log too, and each key keeps its latest committed
 * value.
 */
class TransactionCrashRecoveryTest {

    private static final String TOPIC = "txn-crash";
    private static final TopicPartition TP = new TopicPartition(TOPIC, 0);
    private static final int KEYS = 40;
    private static final int ROUNDS = 18;
    private static final String PAD = "x".repeat(200);

    @TempDir
    Path dir;

    @Test
    void aBrokerKilledMidTransactionRebuildsItsAbortedIndexAndCleansAbortedData() throws Exception {
        int port = TestBroker.freePort();
        String bootstrap = "127.0.0.1:" + port;
        List<String> args = BrokerProcess.singleNodeArgs(dir.resolve("data"), port, "--broker.log-segment-bytes=16384",
            "--broker.log-cleaner-backoff-ms=50", "--broker.transaction-abort-timed-out-transaction-cleanup-interval-ms=500");
        Map<String, String> latestCommitted = new HashMap<>();
        List<String> committed = new ArrayList<>();
        try (BrokerProcess first = BrokerProcess.start(dir, "first.log", args, Duration.ofSeconds(90))) {
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
                // Compacted only once the committed records are checked: the cleaner would otherwise remove
                // older committed values of the same keys before the first read.
                admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get();
            }
            try (KafkaProducer<String, String> producer = transactional(bootstrap, "crash-rounds")) {
                producer.initTransactions();
                for (int round = 0; round < ROUNDS; round++) {
                    boolean abort = round % 3 == 1;
                    producer.beginTransaction();
                    for (int k = 0; k < KEYS; k++) {
                        String value = (abort ? "aborted-" : "committed-") + round + "-" + k + "-" + PAD;
                        producer.send(new ProducerRecord<>(TOPIC, 0, "k" + k, value));
                        if (!abort) {
                            latestCommitted.put("k" + k, value);
                            committed.add(value);
                        }
                    }
                    if (abort) {
                        producer.flush();
                        producer.abortTransaction();
                    } else {
                        producer.commitTransaction();
                    }
                }
            }
            // Left open: written and acknowledged, never committed; its producer is gone with the broker.
            KafkaProducer<String, String> open = transactional(bootstrap, "crash-open");
            open.initTransactions();
            open.beginTransaction();
            for (int k = 0; k < 5; k++) {
                open.send(new ProducerRecord<>(TOPIC, 0, "k" + k, "open-" + k + "-" + PAD)).get();
            }
            first.kill();
            open.close(Duration.ZERO);
        }
        int deleted = deleteIndexes(dir.resolve("data"));
        assertThat(deleted).as("index files deleted").isGreaterThan(3 * 3);

        try (BrokerProcess second = BrokerProcess.start(dir, "second.log", args, Duration.ofSeconds(90))) {
            assertThat(second.log()).contains("unclean shutdown");
            // Held at the open transaction, then released when its timeout aborts it.
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() ->
                endOffset(bootstrap, "read_committed") == endOffset(bootstrap, "read_uncommitted"));
            assertThat(values(read(bootstrap, "read_committed"))).containsExactlyElementsOf(committed);
            List<String> everything = values(read(bootstrap, "read_uncommitted"));
            assertThat(everything).anyMatch(v -> v.startsWith("aborted-")).anyMatch(v -> v.startsWith("open-"));

            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
                ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, TOPIC);
                admin.incrementalAlterConfigs(Map.of(topic, List.of(
                    new AlterConfigOp(new ConfigEntry("cleanup.policy", "compact"), AlterConfigOp.OpType.SET),
                    new AlterConfigOp(new ConfigEntry("min.cleanable.dirty.ratio", "0.01"), AlterConfigOp.OpType.SET))))
                    .all().get();
            }
            // One more committed round rolls the segment with the last markers: all of it becomes cleanable.
            try (KafkaProducer<String, String> producer = transactional(bootstrap, "crash-rounds")) {
                producer.initTransactions();
                producer.beginTransaction();
                for (int k = 0; k < KEYS; k++) {
                    String value = "committed-last-" + k + "-" + PAD + PAD;
                    producer.send(new ProducerRecord<>(TOPIC, 0, "k" + k, value));
                    latestCommitted.put("k" + k, value);
                }
                producer.commitTransaction();
            }
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300)).untilAsserted(() -> {
                List<ConsumerRecord<String, String>> all = read(bootstrap, "read_uncommitted");
                assertThat(values(all)).as("aborted data removed by the cleaner")
                    .noneMatch(v -> v.startsWith("aborted-") || v.startsWith("open-"));
            });
            Map<String, String> latest = new HashMap<>();
            read(bootstrap, "read_committed").forEach(r -> latest.put(r.key(), r.value()));
            assertThat(latest).isEqualTo(latestCommitted);
            assertThat(second.stop()).isIn(0, 143);
        }
    }

    private static int deleteIndexes(Path data) throws IOException {
        List<Path> indexes;
        try (Stream<Path> files = Files.walk(data)) {
            indexes = files.filter(p -> p.getParent().getFileName().toString().equals(TOPIC + "-0"))
                .filter(p -> p.toString().endsWith(".index") || p.toString().endsWith(".timeindex")
                    || p.toString().endsWith(".txnindex"))
                .toList();
        }
        for (Path index : indexes) {
            Files.delete(index);
        }
        return indexes.size();
    }

    private static KafkaProducer<String, String> transactional(String bootstrap, String id) {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
            ProducerConfig.TRANSACTIONAL_ID_CONFIG, id, ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 3_000,
            ProducerConfig.LINGER_MS_CONFIG, 5, ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class));
    }

    private static KafkaConsumer<String, String> consumer(String bootstrap, String isolation) {
        return new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
            ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation,
            ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
            ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class));
    }

    private static long endOffset(String bootstrap, String isolation) {
        try (KafkaConsumer<String, String> consumer = consumer(bootstrap, isolation)) {
            return consumer.endOffsets(List.of(TP)).get(TP);
        }
    }

    private static List<ConsumerRecord<String, String>> read(String bootstrap, String isolation) {
        try (KafkaConsumer<String, String> consumer = consumer(bootstrap, isolation)) {
            consumer.assign(List.of(TP));
            consumer.seekToBeginning(List.of(TP));
            long end = consumer.endOffsets(List.of(TP)).get(TP);
            List<ConsumerRecord<String, String>> out = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (consumer.position(TP) < end) {
                assertThat(System.nanoTime()).as("read to offset %d within 30 s", end).isLessThan(deadline);
                consumer.poll(Duration.ofMillis(200)).forEach(out::add);
            }
            return out;
        }
    }

    private static List<String> values(List<ConsumerRecord<String, String>> records) {
        return records.stream().map(ConsumerRecord::value).toList();
    }
}
