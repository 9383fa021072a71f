package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.TestBroker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compacted topics end to end with the Java client: 10,000 updates over 100 keys and 10
 * tombstones are cleaned by the broker's log cleaner (16 KiB segments, 100 ms backoff) down to
 * the latest value of each live key, at their original offsets, and a consumer from offset 0
 * reads them and reaches the log end across the gaps.
 *
 * <p>The active segment is never cleaned (as in Kafka) and a log rolls only when appended to, so
 * the test rolls the log once its writes are done, through the in-JVM broker's log manager (as
 * Kafka's own cleaner integration tests do); otherwise the last segment's records would keep
 * older values of their keys alive below them.
 */
class LogCompactionTest {

    static final int KEYS = 100;
    static final int UPDATES = 10_000;
    static final int TOMBSTONES = 10;
    static final long SEGMENT_MS = 1_000;

    @TempDir
    static Path dir;
    static TestBroker broker;
    static Admin admin;

    @BeforeAll
    static void start() {
        broker = TestBroker.start(dir, Map.of("broker.log-segment-bytes", "16384",
            "broker.log-cleaner-backoff-ms", "100"));
        admin = broker.admin();
    }

    @AfterAll
    static void stop() {
        admin.close();
        broker.close();
    }

    static Map<String, String> compactedTopicConfig(boolean zeroDeleteRetention) {
        Map<String, String> configs = new HashMap<>();
        configs.put("cleanup.policy", "compact");
        configs.put("min.cleanable.dirty.ratio", "0.01");
        configs.put("segment.ms", Long.toString(SEGMENT_MS));
        if (zeroDeleteRetention) {
            configs.put("delete.retention.ms", "0");
        }
        return configs;
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static String string(byte[] b) {
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }

    /**
     * Writes the workload and returns the latest value of each key (null for the tombstoned):
     * 10,000 updates round-robin over keys k0..k99, then tombstones for k90..k99.
     */
    static Map<String, String> writeWorkload(KafkaProducer<byte[], byte[]> producer, String topic) throws Exception {
        Map<String, String> latest = new LinkedHashMap<>();
        for (int i = 0; i < UPDATES; i++) {
            String key = "k" + (i % KEYS);
            String value = "v" + i;
            producer.send(new ProducerRecord<>(topic, 0, bytes(key), bytes(value)));
            latest.put(key, value);
        }
        for (int k = KEYS - TOMBSTONES; k < KEYS; k++) {
            producer.send(new ProducerRecord<>(topic, 0, bytes("k" + k), null));
            latest.put("k" + k, null);
        }
        producer.flush();
        return latest;
    }

    /** Rolls the partition's log so that everything written becomes cleanable. */
    private static void rollLog(TopicPartition tp) {
        broker.server().logManager().getLog(tp).orElseThrow().roll();
    }

    /** Every record of the partition from offset 0 up to its end offset. */
    static List<ConsumerRecord<byte[], byte[]>> readToEnd(KafkaConsumer<byte[], byte[]> consumer, TopicPartition tp) {
        consumer.assign(List.of(tp));
        consumer.seek(tp, 0);
        long end = consumer.endOffsets(List.of(tp)).get(tp);
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (consumer.position(tp) < end) {
            assertThat(System.nanoTime()).as("read to the end offset %d within 30 s", end).isLessThan(deadline);
            consumer.poll(Duration.ofMillis(200)).forEach(out::add);
        }
        assertThat(consumer.position(tp)).as("the consumer reaches the log end").isEqualTo(end);
        return out;
    }

    /** Reads the partition again and again until {@code done} holds of what it read (at most {@code timeout}). */
    static List<ConsumerRecord<byte[], byte[]>> awaitCleaned(KafkaConsumer<byte[], byte[]> consumer, TopicPartition tp,
                                                             Predicate<List<ConsumerRecord<byte[], byte[]>>> done,
                                                             Duration timeout) {
        // On this thread: the consumer is the caller's.
        AtomicReference<List<ConsumerRecord<byte[], byte[]>>> read = new AtomicReference<>();
        await().atMost(timeout).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(200)).pollInSameThread()
            .untilAsserted(() -> {
                read.set(readToEnd(consumer, tp));
                assertThat(done.test(read.get())).as("cleaned; read %d records", read.get().size()).isTrue();
            });
        return read.get();
    }

    /** Checks offsets strictly increase with gaps, and returns key to value of what was read. */
    static Map<String, String> asMap(List<ConsumerRecord<byte[], byte[]>> records) {
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < records.size(); i++) {
            if (i > 0) {
                assertThat(records.get(i).offset()).isGreaterThan(records.get(i - 1).offset());
            }
            assertThat(out).as("key %s read once", string(records.get(i).key())).doesNotContainKey(string(records.get(i).key()));
            out.put(string(records.get(i).key()), string(records.get(i).value()));
        }
        return out;
    }

    private static Map<String, String> live(Map<String, String> latest) {
        Map<String, String> out = new LinkedHashMap<>(latest);
        out.values().removeIf(v -> v == null);
        return out;
    }

    @Test
    void aCompactedTopicKeepsTheLatestValueOfEachLiveKeyAndDropsTombstones() throws Exception {
        String topic = "compacted-zero-retention";
        admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1).configs(compactedTopicConfig(true)))).all().get();
        TopicPartition tp = new TopicPartition(topic, 0);
        Map<String, String> latest;
        try (KafkaProducer<byte[], byte[]> producer = broker.producer(Map.of(ProducerConfig.LINGER_MS_CONFIG, 5))) {
            latest = writeWorkload(producer, topic);
        }
        rollLog(tp);
        try (KafkaConsumer<byte[], byte[]> consumer = broker.consumer(Map.of())) {
            List<ConsumerRecord<byte[], byte[]>> read = awaitCleaned(consumer, tp,
                r -> r.size() == KEYS - TOMBSTONES, Duration.ofSeconds(60));

            assertThat(asMap(read)).isEqualTo(live(latest));
            assertThat(read).extracting(ConsumerRecord::offset).as("original offsets of the last updates")
                .containsExactlyElementsOf(java.util.stream.IntStream.range(UPDATES - KEYS, UPDATES - TOMBSTONES)
                    .mapToObj(i -> (long) i).toList());
            assertThat(consumer.endOffsets(List.of(tp)).get(tp)).as("log end offset").isEqualTo(UPDATES + TOMBSTONES);
        }
    }

    @Test
    void withTheDefaultDeleteRetentionTombstonesSurviveTheCleaning() throws Exception {
        String topic = "compacted-default-retention";
        admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1).configs(compactedTopicConfig(false)))).all().get();
        TopicPartition tp = new TopicPartition(topic, 0);
        Map<String, String> latest;
        try (KafkaProducer<byte[], byte[]> producer = broker.producer(Map.of(ProducerConfig.LINGER_MS_CONFIG, 5))) {
            latest = writeWorkload(producer, topic);
        }
        rollLog(tp);
        try (KafkaConsumer<byte[], byte[]> consumer = broker.consumer(Map.of())) {
            List<ConsumerRecord<byte[], byte[]>> read = awaitCleaned(consumer, tp, r -> r.size() == KEYS,
                Duration.ofSeconds(60));

            assertThat(asMap(read)).isEqualTo(latest);
            assertThat(read).filteredOn(r -> r.value() == null).hasSize(TOMBSTONES);
        }
    }

    @Test
    void aRecordWithoutAKeyIsRefusedOnACompactedTopic() throws Exception {
        String topic = "compacted-keyless";
        admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1).configs(compactedTopicConfig(false)))).all().get();
        try (KafkaProducer<byte[], byte[]> producer = broker.producer(Map.of())) {
            producer.send(new ProducerRecord<>(topic, 0, bytes("key"), bytes("accepted"))).get();
            assertThatThrownBy(() -> producer.send(new ProducerRecord<>(topic, 0, null, bytes("no key"))).get())
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(InvalidRecordException.class)
                .hasMessageContaining("Compacted topic cannot accept message without key");
        }
    }
}
