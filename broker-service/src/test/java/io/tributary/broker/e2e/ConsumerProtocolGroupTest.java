package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.TestBroker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.SubscriptionPattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kafka-clients 4.4 consumers with {@code group.protocol=consumer} (KIP-848): the coordinator
 * assigns with its uniform and range assignors; inside a group each record goes to one member, and
 * each group reads every record; a member that leaves hands its partitions to the others; a
 * server-side regular expression subscribes; committed offsets and the admin client's description
 * work as with classic groups.
 */
class ConsumerProtocolGroupTest {

    private static final String TOPIC = "orders";
    private static final int PARTITIONS = 4;
    private static final int RECORDS = 400;

    @TempDir
    static Path dir;
    static TestBroker broker;

    @BeforeAll
    static void start() throws Exception {
        // Members learn of a new assignment in a heartbeat response: every 500 ms rather than Kafka's 5 s.
        broker = TestBroker.start(dir, Map.of("broker.group-consumer-heartbeat-interval-ms", "500"));
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 1),
                new NewTopic("audit-eu", 2, (short) 1), new NewTopic("audit-us", 1, (short) 1))).all().get();
        }
        try (KafkaProducer<byte[], byte[]> producer = broker.producer(Map.of())) {
            for (int i = 0; i < RECORDS; i++) {
                producer.send(new ProducerRecord<>(TOPIC, i % PARTITIONS, null, ("r" + i).getBytes(StandardCharsets.UTF_8)));
            }
            for (int i = 0; i < 30; i++) {
                producer.send(new ProducerRecord<>(i % 2 == 0 ? "audit-eu" : "audit-us", ("a" + i).getBytes(StandardCharsets.UTF_8)));
            }
        }
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    private static KafkaConsumer<byte[], byte[]> consumer(String group, String assignor) {
        Map<String, Object> settings = new HashMap<>();
        settings.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        settings.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer");
        settings.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        if (assignor != null) {
            settings.put(ConsumerConfig.GROUP_REMOTE_ASSIGNOR_CONFIG, assignor);
        }
        return broker.consumer(settings);
    }

    /** Polls every consumer in turn until {@code total} records came; the values each one got. */
    private static List<List<String>> pollUntil(List<KafkaConsumer<byte[], byte[]>> consumers, int total) {
        List<List<String>> got = new ArrayList<>();
        consumers.forEach(c -> got.add(new ArrayList<>()));
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            for (int i = 0; i < consumers.size(); i++) {
                for (ConsumerRecord<byte[], byte[]> r : consumers.get(i).poll(Duration.ofMillis(100))) {
                    got.get(i).add(new String(r.value(), StandardCharsets.UTF_8));
                }
            }
            return got.stream().mapToInt(List::size).sum() >= total;
        });
        return got;
    }

    @Test
    void membersShareTheRecordsOfAGroupAndEveryGroupReadsThemAll() throws Exception {
        try (KafkaConsumer<byte[], byte[]> a = consumer("shared", null);
             KafkaConsumer<byte[], byte[]> b = consumer("shared", null)) {
            a.subscribe(List.of(TOPIC));
            b.subscribe(List.of(TOPIC));
            // Both members hold partitions before the records are counted.
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                a.poll(Duration.ofMillis(50));
                b.poll(Duration.ofMillis(50));
                return a.assignment().size() == PARTITIONS / 2 && b.assignment().size() == PARTITIONS / 2;
            });
            a.seekToBeginning(a.assignment());
            b.seekToBeginning(b.assignment());
            List<List<String>> got = pollUntil(List.of(a, b), RECORDS);
            Set<String> all = new HashSet<>(got.get(0));
            all.addAll(got.get(1));
            assertThat(got.get(0).size() + got.get(1).size()).as("each record to one member").isEqualTo(RECORDS);
            assertThat(all).hasSize(RECORDS);
            assertThat(got.get(0)).isNotEmpty();
            assertThat(got.get(1)).isNotEmpty();
            a.commitSync();
            b.commitSync();

            try (Admin admin = broker.admin()) {
                ConsumerGroupDescription description = admin.describeConsumerGroups(List.of("shared")).all().get()
                    .get("shared");
                assertThat(description.type()).isEqualTo(GroupType.CONSUMER);
                assertThat(description.groupState()).isEqualTo(GroupState.STABLE);
                assertThat(description.members()).hasSize(2);
                assertThat(description.partitionAssignor()).isEqualTo("uniform");
                Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets("shared")
                    .partitionsToOffsetAndMetadata().get();
                assertThat(committed.values().stream().mapToLong(OffsetAndMetadata::offset).sum()).isEqualTo(RECORDS);
            }
            // Kafka's tools, as operators run them.
            io.tributary.broker.testing.KafkaTool.Result described = io.tributary.broker.testing.KafkaTool.runAgainst(
                broker.bootstrapServers(), "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand",
                "--describe", "--group", "shared", "--members");
            assertThat(described.exitCode()).as(described.output()).isZero();
            assertThat(described.output()).contains("shared").contains("CONSUMER-ID").contains(" 2 ");
            io.tributary.broker.testing.KafkaTool.Result listed = io.tributary.broker.testing.KafkaTool.runAgainst(
                broker.bootstrapServers(), "org.apache.kafka.tools.GroupsCommand", "--list");
            assertThat(listed.exitCode()).as(listed.output()).isZero();
            assertThat(listed.output()).containsPattern("shared\\s+Consumer\\s+consumer");
        }
        try (KafkaConsumer<byte[], byte[]> other = consumer("another", "range")) {
            other.subscribe(List.of(TOPIC));
            assertThat(new HashSet<>(pollUntil(List.of(other), RECORDS).get(0))).as("another group reads all").hasSize(RECORDS);
        }
    }

    @Test
    void aMemberThatLeavesHandsItsPartitionsToTheOthers() {
        try (KafkaConsumer<byte[], byte[]> stays = consumer("handover", "range")) {
            stays.subscribe(List.of(TOPIC));
            try (KafkaConsumer<byte[], byte[]> leaves = consumer("handover", "range")) {
                leaves.subscribe(List.of(TOPIC));
                await().atMost(Duration.ofSeconds(60)).until(() -> {
                    stays.poll(Duration.ofMillis(50));
                    leaves.poll(Duration.ofMillis(50));
                    return stays.assignment().size() == 2 && leaves.assignment().size() == 2;
                });
                Set<TopicPartition> overlap = new HashSet<>(stays.assignment());
                overlap.retainAll(leaves.assignment());
                assertThat(overlap).as("no partition has two owners").isEmpty();
            }
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                stays.poll(Duration.ofMillis(50));
                return stays.assignment().size() == PARTITIONS;
            });
        }
    }

    @Test
    void aRegularExpressionSubscribesToEveryMatchingTopic() {
        try (KafkaConsumer<byte[], byte[]> consumer = consumer("by-pattern", null)) {
            consumer.subscribe(new SubscriptionPattern("audit-.*"));
            List<String> got = pollUntil(List.of(consumer), 30).get(0);
            assertThat(got).hasSize(30);
            assertThat(consumer.assignment()).extracting(TopicPartition::topic).containsOnly("audit-eu", "audit-us");
        }
    }
}
