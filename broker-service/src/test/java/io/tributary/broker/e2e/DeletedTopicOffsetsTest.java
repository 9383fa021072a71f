package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.TestBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A deleted topic's committed offsets go with it, as in Kafka (the group coordinator's
 * onPartitionsDeleted): Admin.listConsumerGroupOffsets of a classic group and of a KIP-848
 * consumer group then shows only the topics that remain, also after a restart, which loads the
 * groups again from {@code __consumer_offsets} (the deletion wrote tombstones).
 */
class DeletedTopicOffsetsTest {

    private static final String KEPT = "kept";
    private static final String DELETED = "deleted";

    @TempDir
    Path dir;

    @Test
    void offsetsOfADeletedTopicAreDeletedAndStayDeletedAfterARestart() throws Exception {
        try (TestBroker broker = TestBroker.start(dir); Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic(KEPT, 2, (short) 1), new NewTopic(DELETED, 2, (short) 1)))
                .all().get();
            try (KafkaProducer<byte[], byte[]> producer = broker.producer(Map.of())) {
                for (int p = 0; p < 2; p++) {
                    producer.send(new ProducerRecord<>(KEPT, p, null, "k".getBytes()));
                    producer.send(new ProducerRecord<>(DELETED, p, null, "d".getBytes()));
                }
            }
            Map<TopicPartition, OffsetAndMetadata> committed = new HashMap<>();
            for (int p = 0; p < 2; p++) {
                committed.put(new TopicPartition(KEPT, p), new OffsetAndMetadata(1));
                committed.put(new TopicPartition(DELETED, p), new OffsetAndMetadata(1));
            }
            commitAsClassicGroup(broker, "classic", committed);
            commitAsConsumerGroup(broker, "modern", committed);
            Set<TopicPartition> kept = Set.of(new TopicPartition(KEPT, 0), new TopicPartition(KEPT, 1));
            assertThat(committedPartitions(admin, "classic")).isEqualTo(committed.keySet());
            assertThat(committedPartitions(admin, "modern")).isEqualTo(committed.keySet());

            admin.deleteTopics(List.of(DELETED)).all().get();

            for (String group : List.of("classic", "modern")) {
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(committedPartitions(admin, group)).as("offsets of group %s", group).isEqualTo(kept));
            }

            broker.restart();

            for (String group : List.of("classic", "modern")) {
                await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() ->
                    assertThat(committedPartitions(admin, group)).as("offsets of group %s after the restart", group)
                        .isEqualTo(kept));
            }
        }
    }

    @Test
    void offsetsCommittedAfterTheTopicIsCreatedAgainAreKept() throws Exception {
        try (TestBroker broker = TestBroker.start(dir); Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic(KEPT, 1, (short) 1), new NewTopic(DELETED, 1, (short) 1)))
                .all().get();
            TopicPartition kept = new TopicPartition(KEPT, 0);
            TopicPartition deleted = new TopicPartition(DELETED, 0);
            commitAsClassicGroup(broker, "classic", Map.of(kept, new OffsetAndMetadata(1),
                deleted, new OffsetAndMetadata(1)));
            admin.deleteTopics(List.of(DELETED)).all().get();
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(committedPartitions(admin, "classic")).isEqualTo(Set.of(kept)));

            await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() ->
                admin.createTopics(List.of(new NewTopic(DELETED, 1, (short) 1))).all().get());
            commitAsClassicGroup(broker, "classic", Map.of(deleted, new OffsetAndMetadata(2)));
            broker.restart();

            await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() ->
                assertThat(admin.listConsumerGroupOffsets("classic").partitionsToOffsetAndMetadata().get())
                    .as("the new topic's commit, after the restart")
                    .isEqualTo(Map.of(kept, new OffsetAndMetadata(1), deleted, new OffsetAndMetadata(2))));
        }
    }

    /** Commits with the classic protocol, as a consumer that assigns its partitions itself. */
    private static void commitAsClassicGroup(TestBroker broker, String group, Map<TopicPartition, OffsetAndMetadata> offsets) {
        try (KafkaConsumer<byte[], byte[]> consumer = broker.consumer(Map.of(ConsumerConfig.GROUP_ID_CONFIG, group))) {
            consumer.assign(offsets.keySet());
            consumer.commitSync(offsets);
        }
    }

    /** Commits as the one member of a KIP-848 consumer group subscribed to both topics. */
    private static void commitAsConsumerGroup(TestBroker broker, String group,
                                              Map<TopicPartition, OffsetAndMetadata> offsets) {
        try (KafkaConsumer<byte[], byte[]> consumer = broker.consumer(Map.of(ConsumerConfig.GROUP_ID_CONFIG, group,
                ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer"))) {
            consumer.subscribe(List.of(KEPT, DELETED));
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                consumer.poll(Duration.ofMillis(100));
                return consumer.assignment().equals(offsets.keySet());
            });
            consumer.commitSync(offsets);
        }
    }

    private static Set<TopicPartition> committedPartitions(Admin admin, String group) throws Exception {
        return admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get().keySet();
    }
}
