package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.BrokerProcess;
import io.tributary.broker.testing.ConsumerLoop;
import io.tributary.broker.testing.ConsumerLoop.CommitMode;
import io.tributary.broker.testing.ConsumerLoop.Consumed;
import io.tributary.broker.testing.TestBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Committed offsets are records in {@code __consumer_offsets}: after a clean restart, and after
 * a SIGKILL of the broker process, a consumer that comes back to its group resumes exactly at
 * the committed offset of every partition, and nothing between is skipped.
 */
class CommittedOffsetsRestartTest {

    private static final String TOPIC = "resume";
    private static final int PARTITIONS = 3;
    private static final int RECORDS = 3000;

    @TempDir
    Path dir;

    @Test
    void aConsumerResumesAtTheCommittedOffsetsAfterACleanRestart() throws Exception {
        try (TestBroker broker = TestBroker.start(dir)) {
            String bootstrap = broker.bootstrapServers();
            Run first = consumeAboutHalf(bootstrap);
            broker.restart();
            resumeAndCheck(bootstrap, first);
        }
    }

    @Test
    void aConsumerResumesAtTheCommittedOffsetsAfterTheBrokerIsKilled() throws Exception {
        int port = TestBroker.freePort();
        String bootstrap = "127.0.0.1:" + port;
        List<String> args = BrokerProcess.singleNodeArgs(dir.resolve("data"), port,
            "--broker.offsets-topic-num-partitions=5", "--broker.group-initial-rebalance-delay-ms=0");
        Run first;
        try (BrokerProcess broker = BrokerProcess.start(dir, "first.log", args, Duration.ofSeconds(90))) {
            first = consumeAboutHalf(bootstrap);
            broker.kill();
        }
        try (BrokerProcess broker = BrokerProcess.start(dir, "second.log", args, Duration.ofSeconds(90))) {
            assertThat(broker.log()).contains("unclean shutdown");
            resumeAndCheck(bootstrap, first);
        }
    }

    /** What the first consumer read and the offsets committed when it stopped. */
    private record Run(Set<String> produced, List<Consumed> consumed, Map<TopicPartition, Long> committed) {
    }

    private static Run consumeAboutHalf(String bootstrap) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 1))).all().get();
        }
        Set<String> produced = new HashSet<>();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class))) {
            for (int i = 0; i < RECORDS; i++) {
                produced.add("r-" + i);
                producer.send(new ProducerRecord<>(TOPIC, i % PARTITIONS, null, ("r-" + i).getBytes()));
            }
        }
        // Poll on this thread, committing after every poll, and stop about half way.
        List<Consumed> consumed = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> first = consumer(bootstrap, 50)) {
            first.subscribe(List.of(TOPIC));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (consumed.size() < RECORDS / 2) {
                assertThat(System.nanoTime()).as("consuming the first half").isLessThan(deadline);
                for (ConsumerRecord<byte[], byte[]> r : first.poll(Duration.ofMillis(100))) {
                    consumed.add(new Consumed("first", new TopicPartition(r.topic(), r.partition()), r.offset(),
                        new String(r.value())));
                }
                first.commitSync();
            }
        }
        Map<TopicPartition, Long> committed;
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            committed = admin.listConsumerGroupOffsets("resumers").partitionsToOffsetAndMetadata().get().entrySet()
                .stream().collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
        }
        assertThat(committed.values().stream().mapToLong(Long::longValue).sum())
            .as("committed part way").isBetween((long) RECORDS / 2, (long) RECORDS - 1);
        return new Run(produced, consumed, committed);
    }

    private static void resumeAndCheck(String bootstrap, Run first) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() ->
                assertThat(admin.listConsumerGroupOffsets("resumers").partitionsToOffsetAndMetadata().get()
                    .entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset())))
                    .as("committed offsets after the restart").isEqualTo(first.committed()));
        }
        ConsumerLoop second = new ConsumerLoop("second", consumer(bootstrap, 500), List.of(TOPIC), CommitMode.SYNC);
        try {
            long remaining = RECORDS - first.committed().values().stream().mapToLong(Long::longValue).sum();
            await().atMost(Duration.ofSeconds(60)).until(() -> second.consumed().size() >= remaining);
            Map<TopicPartition, TreeMap<Long, String>> byPartition = new HashMap<>();
            for (Consumed c : second.consumed()) {
                assertThat(byPartition.computeIfAbsent(c.partition(), p -> new TreeMap<>()).put(c.offset(), c.value()))
                    .as("offset %d of %s read once", c.offset(), c.partition()).isNull();
            }
            for (int p = 0; p < PARTITIONS; p++) {
                TopicPartition tp = new TopicPartition(TOPIC, p);
                long from = first.committed().get(tp);
                List<Long> offsets = List.copyOf(byPartition.getOrDefault(tp, new TreeMap<>()).keySet());
                assertThat(offsets).as("%s resumes at its committed offset %d and reads to the end", tp, from)
                    .isEqualTo(LongStream.range(from, RECORDS / PARTITIONS).boxed().toList());
            }
            Set<String> all = new HashSet<>();
            first.consumed().forEach(c -> all.add(c.value()));
            second.consumed().forEach(c -> all.add(c.value()));
            assertThat(all).as("no record skipped").isEqualTo(first.produced());
        } finally {
            second.close();
        }
    }

    private static KafkaConsumer<byte[], byte[]> consumer(String bootstrap, int maxPollRecords) {
        Map<String, Object> p = new HashMap<>();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "resumers");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, maxPollRecords);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        return new KafkaConsumer<>(p);
    }
}
