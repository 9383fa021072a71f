package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.testing.Records;
import io.tributary.broker.testing.TestBroker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Java client (kafka-clients, default settings: idempotent, acks=all) writes to the broker
 * and reads back, with manual partition assignment.
 */
class ClientRoundTripTest {

    @TempDir
    static Path dir;
    static TestBroker broker;
    static Admin admin;

    @BeforeAll
    static void start() {
        broker = TestBroker.start(dir);
        admin = broker.admin();
    }

    @AfterAll
    static void stop() {
        admin.close();
        broker.close();
    }

    private static void createTopic(String name, int partitions) throws Exception {
        admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1))).all().get();
    }

    @Test
    void keysNullKeysNullValuesHeadersAndTimestampsSurviveTheRoundTrip() throws Exception {
        createTopic("shapes", 1);
        long timestamp = 1_700_000_000_000L;
        try (KafkaProducer<byte[], byte[]> producer = broker.producer(Map.of(
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true))) {
            producer.send(new ProducerRecord<>("shapes", 0, timestamp, bytes("k1"), bytes("v1"))).get();
            producer.send(new ProducerRecord<>("shapes", 0, timestamp + 1, null, bytes("no key"))).get();
            producer.send(new ProducerRecord<>("shapes", 0, timestamp + 2, bytes("tombstone"), (byte[]) null)).get();
            producer.send(new ProducerRecord<>("shapes", 0, timestamp + 3, bytes("h"), bytes("with headers"),
                List.of(new RecordHeader("trace", bytes("abc")), new RecordHeader("empty", new byte[0]),
                    new RecordHeader("null", null)))).get();
            producer.send(new ProducerRecord<>("shapes", 0, timestamp + 4, new byte[0], new byte[0])).get();
        }
        try (KafkaConsumer<byte[], byte[]> consumer = broker.consumer(Map.of())) {
            List<ConsumerRecord<byte[], byte[]>> records = Records.readFromStart(consumer,
                List.of(new TopicPartition("shapes", 0)), 5, Duration.ofSeconds(30));
            assertThat(records).extracting(ConsumerRecord::offset).containsExactly(0L, 1L, 2L, 3L, 4L);
            assertThat(new String(records.get(0).key(), StandardCharsets.UTF_8)).isEqualTo("k1");
            assertThat(new String(records.get(0).value(), StandardCharsets.UTF_8)).isEqualTo("v1");
            assertThat(records.get(0).timestamp()).isEqualTo(timestamp);
            assertThat(records.get(0).timestampType()).isEqualTo(TimestampType.CREATE_TIME);
            assertThat(records.get(1).key()).isNull();
            assertThat(records.get(2).value()).isNull();
            assertThat(records.get(3).headers().toArray()).hasSize(3);
            assertThat(records.get(3).headers().lastHeader("trace").value()).isEqualTo(bytes("abc"));
            assertThat(records.get(3).headers().lastHeader("empty").value()).isEmpty();
            assertThat(records.get(3).headers().lastHeader("null").value()).isNull();
            assertThat(records.get(4).key()).isEmpty();
            assertThat(records.get(4).value()).isEmpty();
            assertThat(records.get(4).timestamp()).isEqualTo(timestamp + 4);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "gzip", "snappy", "lz4", "zstd"})
    void everyCompressionCodecIsStoredAndReturnedAsSent(String codec) throws Exception {
        String topic = "codec-" + codec;
        createTopic(topic, 1);
        Random random = new Random(7);
        List<byte[]> values = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = broker.producer(Map.of(
                ProducerConfig.COMPRESSION_TYPE_CONFIG, codec, ProducerConfig.LINGER_MS_CONFIG, 20))) {
            List<Future<RecordMetadata>> sends = new ArrayList<>();
            for (int i = 0; i < 500; i++) {
                byte[] value = ("record " + i + " " + random.nextInt(1000)).repeat(1 + i % 7).getBytes(StandardCharsets.UTF_8);
                values.add(value);
                sends.add(producer.send(new ProducerRecord<>(topic, 0, bytes("k" + i), value)));
            }
            for (Future<RecordMetadata> send : sends) {
                send.get();
            }
        }
        try (KafkaConsumer<byte[], byte[]> consumer = broker.consumer(Map.of())) {
            List<ConsumerRecord<byte[], byte[]>> records = Records.readFromStart(consumer,
                List.of(new TopicPartition(topic, 0)), 500, Duration.ofSeconds(30));
            for (int i = 0; i < 500; i++) {
                assertThat(records.get(i).offset()).isEqualTo(i);
                assertThat(records.get(i).value()).isEqualTo(values.get(i));
                assertThat(records.get(i).key()).isEqualTo(bytes("k" + i));
            }
        }
    }

    @Test
    void recordsOfZeroBytesAndOf900KibRoundTrip() throws Exception {
        createTopic("sizes", 1);
        byte[] big = new byte[900 * 1024];
        new Random(3).nextBytes(big);
        try (KafkaProducer<byte[], byte[]> producer = broker.producer(Map.of())) {
            producer.send(new ProducerRecord<>("sizes", 0, null, new byte[0])).get();
            producer.send(new ProducerRecord<>("sizes", 0, null, big)).get();
            producer.send(new ProducerRecord<>("sizes", 0, null, new byte[0])).get();
        }
        try (KafkaConsumer<byte[], byte[]> consumer = broker.consumer(Map.of())) {
            List<ConsumerRecord<byte[], byte[]>> records = Records.readFromStart(consumer,
                List.of(new TopicPartition("sizes", 0)), 3, Duration.ofSeconds(30));
            assertThat(records.get(0).value()).isEmpty();
            assertThat(Arrays.equals(records.get(1).value(), big)).isTrue();
            assertThat(records.get(2).value()).isEmpty();
        }
    }

    @Test
    void tenThousandRecordsAcrossSixPartitionsKeepTheirOrderAndContiguousOffsets() throws Exception {
        createTopic("many", 6);
        Map<Integer, List<String>> sentPerPartition = new HashMap<>();
        try (KafkaProducer<byte[], byte[]> producer = broker.producer(Map.of(ProducerConfig.LINGER_MS_CONFIG, 5))) {
            List<Future<RecordMetadata>> sends = new ArrayList<>();
            for (int i = 0; i < 10_000; i++) {
                int partition = i % 6;
                String value = "value-" + i;
                sentPerPartition.computeIfAbsent(partition, p -> new ArrayList<>()).add(value);
                sends.add(producer.send(new ProducerRecord<>("many", partition, bytes("key-" + i), bytes(value))));
            }
            for (Future<RecordMetadata> send : sends) {
                send.get();
            }
        }
        List<TopicPartition> partitions = IntStream.range(0, 6).mapToObj(p -> new TopicPartition("many", p)).toList();
        try (KafkaConsumer<byte[], byte[]> consumer = broker.consumer(Map.of())) {
            List<ConsumerRecord<byte[], byte[]>> records = Records.readFromStart(consumer, partitions, 10_000,
                Duration.ofSeconds(60));
            assertThat(records).hasSize(10_000);
            for (int p = 0; p < 6; p++) {
                int partition = p;
                List<ConsumerRecord<byte[], byte[]>> inPartition = records.stream()
                    .filter(r -> r.partition() == partition).toList();
                assertThat(inPartition).extracting(ConsumerRecord::offset)
                    .containsExactlyElementsOf(IntStream.range(0, inPartition.size()).mapToObj(i -> (long) i).toList());
                assertThat(inPartition).extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
                    .containsExactlyElementsOf(sentPerPartition.get(partition));
            }
        }
    }

    @Test
    void logAppendTimeTopicsStampRecordsWithTheBrokersTime() throws Exception {
        admin.createTopics(List.of(new NewTopic("appended", 1, (short) 1)
            .configs(Map.of("message.timestamp.type", "LogAppendTime")))).all().get();
        long before = System.currentTimeMillis();
        RecordMetadata metadata;
        try (KafkaProducer<byte[], byte[]> producer = broker.producer(Map.of())) {
            metadata = producer.send(new ProducerRecord<>("appended", 0, 1_000L, null, bytes("old"))).get();
        }
        long after = System.currentTimeMillis();
        assertThat(metadata.timestamp()).isBetween(before, after);
        try (KafkaConsumer<byte[], byte[]> consumer = broker.consumer(Map.of())) {
            ConsumerRecord<byte[], byte[]> record = Records.readFromStart(consumer,
                List.of(new TopicPartition("appended", 0)), 1, Duration.ofSeconds(30)).get(0);
            assertThat(record.timestampType()).isEqualTo(TimestampType.LOG_APPEND_TIME);
            assertThat(record.timestamp()).isEqualTo(metadata.timestamp());
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
