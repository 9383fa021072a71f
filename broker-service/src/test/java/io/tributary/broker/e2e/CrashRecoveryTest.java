package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.BrokerProcess;
import io.tributary.broker.testing.TestBroker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
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
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real broker process is killed with SIGKILL while an idempotent producer (Kafka's defaults:
 * acks=all, idempotence) writes; after a restart on the same data every acknowledged record is
 * readable at its original offset, in order, with no duplicate even though the producer kept
 * retrying across the restart.
 */
class CrashRecoveryTest {

    private static final String TOPIC = "crash";
    private static final int PARTITIONS = 3;

    @TempDir
    Path dir;

    private record Acked(int partition, long offset, String value) {
    }

    @Test
    void everyAcknowledgedRecordSurvivesSigkillWithItsOffset() throws Exception {
        int port = TestBroker.freePort();
        String bootstrap = "127.0.0.1:" + port;
        List<String> args = BrokerProcess.singleNodeArgs(dir.resolve("data"), port, "--broker.log-segment-bytes=262144");
        ConcurrentLinkedQueue<Acked> acked = new ConcurrentLinkedQueue<>();
        AtomicInteger failed = new AtomicInteger();
        AtomicBoolean producing = new AtomicBoolean(true);
        Thread writer;
        KafkaProducer<String, String> producer;
        try (BrokerProcess first = BrokerProcess.start(dir, "first.log", args, Duration.ofSeconds(90))) {
            try (Admin admin = admin(bootstrap)) {
                admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 1))).all().get();
            }
            producer = producer(bootstrap);
            writer = new Thread(() -> {
                int i = 0;
                while (producing.get()) {
                    String value = "v-" + i;
                    int partition = i % PARTITIONS;
                    try {
                        producer.send(new ProducerRecord<>(TOPIC, partition, null, value), (metadata, error) -> {
                            if (error == null) {
                                acked.add(new Acked(metadata.partition(), metadata.offset(), value));
                            } else {
                                failed.incrementAndGet();
                            }
                        });
                    } catch (RuntimeException e) {
                        failed.incrementAndGet();
                    }
                    i++;
                    if (i % 200 == 0) {
                        // Paces the load (not a wait for a condition), so the writer leaves the broker some CPU.
                        try {
                            Thread.sleep(5);
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                }
            }, "crash-test-writer");
            writer.start();
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
                .untilAsserted(() -> assertThat(acked.size()).as("records acknowledged before the kill")
                    .isGreaterThanOrEqualTo(20_000));
            first.kill();
        }
        int ackedAtKill = acked.size();

        try (BrokerProcess second = BrokerProcess.start(dir, "second.log", args, Duration.ofSeconds(90))) {
            assertThat(second.log()).contains("unclean shutdown");
            // The producer retries across the restart; let it write some more, then stop.
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
                .until(() -> acked.size() >= ackedAtKill + 2_000);
            producing.set(false);
            writer.join(30_000);
            producer.flush();
            producer.close(Duration.ofSeconds(30));
            assertThat(acked.size()).as("records acknowledged after the restart").isGreaterThan(ackedAtKill);

            Map<Integer, Map<Long, String>> stored = readAll(bootstrap);
            for (Acked a : acked) {
                assertThat(stored.get(a.partition()).get(a.offset()))
                    .as("acknowledged record at %s-%d offset %d", TOPIC, a.partition(), a.offset()).isEqualTo(a.value());
            }
            Set<String> seen = new HashSet<>();
            for (Map<Long, String> partition : stored.values()) {
                for (String value : partition.values()) {
                    assertThat(seen.add(value)).as("record %s stored once", value).isTrue();
                }
                List<Long> offsets = new ArrayList<>(partition.keySet());
                assertThat(offsets).isEqualTo(IntStream.range(0, offsets.size()).mapToObj(i -> (long) i).toList());
            }
            assertThat(second.stop()).isIn(0, 143);
        }
    }

    private static Map<Integer, Map<Long, String>> readAll(String bootstrap) throws Exception {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        Map<Integer, Map<Long, String>> stored = new ConcurrentHashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p)) {
            List<TopicPartition> partitions = IntStream.range(0, PARTITIONS).mapToObj(i -> new TopicPartition(TOPIC, i)).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            Map<TopicPartition, Long> position = new HashMap<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (partitions.stream().anyMatch(tp -> position.getOrDefault(tp, 0L) < end.get(tp))) {
                assertThat(System.nanoTime()).as("reading back").isLessThan(deadline);
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    stored.computeIfAbsent(r.partition(), k -> new java.util.TreeMap<>())
                        .put(r.offset(), new String(r.value(), StandardCharsets.UTF_8));
                    position.put(new TopicPartition(TOPIC, r.partition()), r.offset() + 1);
                }
            }
        }
        return stored;
    }

    private static Admin admin(String bootstrap) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
    }

    private static KafkaProducer<String, String> producer(String bootstrap) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        p.put(ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 500);
        return new KafkaProducer<>(p);
    }
}
