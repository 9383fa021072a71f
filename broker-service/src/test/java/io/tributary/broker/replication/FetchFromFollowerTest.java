package io.tributary.broker.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.TestCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.replica.RackAwareReplicaSelector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fetch from the closest replica (KIP-392): with kafka-clients' {@link RackAwareReplicaSelector}
 * as {@code replica.selector.class} and a rack per broker, a consumer in a follower's rack is sent
 * to that follower and reads every record there, new ones included as the follower's high
 * watermark moves.
 */
class FetchFromFollowerTest {

    @TempDir
    Path dir;

    @Test
    void aConsumerReadsFromTheReplicaInItsRack() throws Exception {
        TopicPartition tp = new TopicPartition("nearby", 0);
        try (TestCluster cluster = TestCluster.start(dir, 3, Map.of("broker.rack", "rack-{id}",
                "broker.replica-selector-class", RackAwareReplicaSelector.class.getName()))) {
            try (Admin admin = cluster.admin()) {
                admin.createTopics(List.of(new NewTopic("nearby", 1, (short) 3))).all().get(30, TimeUnit.SECONDS);
            }
            int leader = cluster.awaitLeader(tp);
            cluster.awaitIsr(tp, List.of(0, 1, 2));
            int follower = cluster.brokerIds().stream().filter(id -> id != leader).findFirst().orElseThrow();

            List<String> consumed = new ArrayList<>();
            try (KafkaProducer<byte[], byte[]> producer = cluster.producer(Map.of(ProducerConfig.ACKS_CONFIG, "all"));
                 KafkaConsumer<byte[], byte[]> consumer = cluster.consumer(Map.of(
                     ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                     ConsumerConfig.CLIENT_RACK_CONFIG, "rack-" + follower))) {
                for (int i = 0; i < 20; i++) {
                    producer.send(new ProducerRecord<>("nearby", 0, null, ("first-" + i).getBytes(StandardCharsets.UTF_8)));
                }
                producer.flush();
                consumer.assign(List.of(tp));
                pollUntil(consumer, consumed, 20);
                assertThat(preferredReadReplica(consumer)).isEqualTo(follower);

                for (int i = 0; i < 30; i++) {
                    producer.send(new ProducerRecord<>("nearby", 0, null, ("second-" + i).getBytes(StandardCharsets.UTF_8)));
                }
                producer.flush();
                pollUntil(consumer, consumed, 50);
                assertThat(preferredReadReplica(consumer)).isEqualTo(follower);
            }
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                expected.add("first-" + i);
            }
            for (int i = 0; i < 30; i++) {
                expected.add("second-" + i);
            }
            assertThat(consumed).containsExactlyElementsOf(expected);
        }
    }

    private static void pollUntil(KafkaConsumer<byte[], byte[]> consumer, List<String> consumed, int count) {
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                consumed.add(new String(r.value(), StandardCharsets.UTF_8));
            }
            return consumed.size() >= count;
        });
    }

    /** The consumer's own record of the replica it reads from (fetch-manager metric of KIP-392), -1 for the leader. */
    private static int preferredReadReplica(KafkaConsumer<byte[], byte[]> consumer) {
        for (Map.Entry<MetricName, ? extends Metric> e : consumer.metrics().entrySet()) {
            if (e.getKey().name().equals("preferred-read-replica")) {
                return ((Number) e.getValue().metricValue()).intValue();
            }
        }
        return -1;
    }
}
