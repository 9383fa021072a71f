package io.tributary.broker.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.tributary.broker.replica.ReplicaManager;
import io.tributary.broker.testing.TestBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Lifetimes and semantics of the per-topic and consumer-lag series on a running broker: a
 * deleted topic's series go and stay gone, a lag series goes with its topic, and failed produce
 * requests count what Kafka counts.
 */
class BrokerTopicStatsTest {

    @TempDir
    Path dir;

    private static double count(MeterRegistry registry, String name, String topic) {
        var counter = registry.find(name).tag("topic", topic).counter();
        assertThat(counter).as("%s{topic=%s}", name, topic).isNotNull();
        return counter.count();
    }

    @Test
    void aDeletedTopicsSeriesGoAndAFetchWaitingOnItDoesNotBringThemBack() throws Exception {
        // Without auto-creation: the consumer's metadata requests would create the topic again.
        try (TestBroker broker = TestBroker.start(dir, Map.of("broker.consumer-lag-metrics-interval-ms", "0",
                "broker.auto-create-topics-enable", "false"));
             Admin admin = broker.admin()) {
            MeterRegistry registry = broker.server().meterRegistry();
            admin.createTopics(List.of(new NewTopic("doomed", Optional.of(1), Optional.empty()))).all().get();
            try (KafkaProducer<byte[], byte[]> producer = producer(broker, Map.of())) {
                producer.send(new ProducerRecord<>("doomed", new byte[10])).get();
            }
            AtomicBoolean polling = new AtomicBoolean(true);
            Thread consumerThread = new Thread(() -> {
                try (KafkaConsumer<byte[], byte[]> consumer = consumer(broker,
                        Map.of(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 3000))) {
                    TopicPartition tp = new TopicPartition("doomed", 0);
                    consumer.assign(List.of(tp));
                    consumer.seekToEnd(List.of(tp));
                    while (polling.get()) {
                        try {
                            consumer.poll(Duration.ofMillis(500));
                        } catch (RuntimeException e) {
                            // the topic went away under it
                        }
                    }
                }
            });
            consumerThread.start();
            try {
                TopicPartition doomed = new TopicPartition("doomed", 0);
                await().atMost(Duration.ofSeconds(30)).until(() -> registry.find(
                    "kafka.server.brokertopicmetrics.totalfetchrequests").tag("topic", "doomed").counter() != null);
                // The consumer's fetch waits for records (up to fetch.max.wait.ms) while the topic goes.
                ReplicaManager replicas = broker.server().replicaManager();
                await().atMost(Duration.ofSeconds(30)).until(() -> replicas.waitingFetches(doomed) > 0);
                admin.deleteTopics(List.of("doomed")).all().get();
                await().atMost(Duration.ofSeconds(30)).until(() -> broker.server().metadataCache().topic("doomed").isEmpty());
                // Answered, its response built, once it leaves the purgatory: at the deletion or when its wait ends.
                await().atMost(Duration.ofSeconds(30)).until(() -> replicas.waitingFetches(doomed) == 0);
                assertThat(registry.find("kafka.server.brokertopicmetrics.bytesin").tag("topic", "doomed").counter())
                    .as("bytesin of the deleted topic").isNull();
                assertThat(registry.find("kafka.server.brokertopicmetrics.totalfetchrequests").tag("topic", "doomed")
                    .counter()).as("fetch requests of the deleted topic").isNull();
            } finally {
                polling.set(false);
                consumerThread.join(30_000);
            }
        }
    }

    /**
     * A broker-side failure (NOT_ENOUGH_REPLICAS) is counted as failed in StrictMinIsrTest: one broker
     * cannot refuse acks=all since min.insync.replicas is capped at the replica count.
     */
    @Test
    void failedProduceRequestsDoNotCountTheClientsMistakes() throws Exception {
        try (TestBroker broker = TestBroker.start(dir, Map.of("broker.consumer-lag-metrics-interval-ms", "0"));
             Admin admin = broker.admin()) {
            MeterRegistry registry = broker.server().meterRegistry();
            admin.createTopics(List.of(new NewTopic("small", Optional.of(1), Optional.empty())
                .configs(Map.of("max.message.bytes", "2048")))).all().get();
            try (KafkaProducer<byte[], byte[]> producer = producer(broker, Map.of(ProducerConfig.ACKS_CONFIG, "all",
                    ProducerConfig.RETRIES_CONFIG, 0, ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false))) {
                assertThatThrownBy(() -> producer.send(new ProducerRecord<>("small", new byte[4096])).get())
                    .isInstanceOf(ExecutionException.class).cause().isInstanceOf(RecordTooLargeException.class);
                assertThat(count(registry, "kafka.server.brokertopicmetrics.failedproducerequests", "small"))
                    .as("too large is the client's doing").isZero();
                assertThat(count(registry, "kafka.server.brokertopicmetrics.totalproducerequests", "small")).isEqualTo(1.0);
            }
        }
    }

    @Test
    void aLagSeriesGoesWithItsTopic() throws Exception {
        try (TestBroker broker = TestBroker.start(dir, Map.of("broker.consumer-lag-metrics-interval-ms", "200"));
             Admin admin = broker.admin()) {
            MeterRegistry registry = broker.server().meterRegistry();
            admin.createTopics(List.of(new NewTopic("gone", Optional.of(1), Optional.empty()))).all().get();
            try (KafkaProducer<byte[], byte[]> producer = producer(broker, Map.of())) {
                for (int i = 0; i < 10; i++) {
                    producer.send(new ProducerRecord<>("gone", new byte[10])).get();
                }
            }
            admin.alterConsumerGroupOffsets("watcher", Map.of(new TopicPartition("gone", 0), new OffsetAndMetadata(4)))
                .all().get();
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                var lag = registry.find("kafka.consumergroup.lag").tag("consumergroup", "watcher").tag("topic", "gone")
                    .gauge();
                assertThat(lag).isNotNull();
                assertThat(lag.value()).isEqualTo(6.0);
            });
            admin.deleteTopics(List.of("gone")).all().get();
            await().atMost(Duration.ofSeconds(30)).until(() ->
                registry.find("kafka.consumergroup.lag").tag("topic", "gone").gauge() == null);
        }
    }

    private static KafkaProducer<byte[], byte[]> producer(TestBroker broker, Map<String, Object> overrides) {
        Map<String, Object> config = new HashMap<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
        config.putAll(overrides);
        return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static KafkaConsumer<byte[], byte[]> consumer(TestBroker broker, Map<String, Object> overrides) {
        Map<String, Object> config = new HashMap<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
        config.putAll(overrides);
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }
}
