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
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Online migration of a group between the classic protocol and the consumer protocol (KIP-848)
 * with kafka-clients 4.4 consumers, as operators roll one: three consumers reading a six-partition
 * topic are replaced one at a time by consumers of the other protocol while records keep coming.
 * Every record is consumed (duplicates across rebalances are allowed, none is lost), committed
 * offsets are kept, and the group ends as a group of the new protocol.
 */
class GroupProtocolMigrationTest {

    private static final int PARTITIONS = 6;

    @TempDir
    static Path dir;
    static TestBroker broker;
    static KafkaProducer<byte[], byte[]> producer;

    @BeforeAll
    static void start() {
        broker = TestBroker.start(dir, Map.of("broker.group-consumer-heartbeat-interval-ms", "300"));
        producer = broker.producer(Map.of());
    }

    @AfterAll
    static void stop() {
        producer.close();
        broker.close();
    }

    /** A consumer of the group with {@code group.protocol} classic or consumer, committing by hand. */
    private static KafkaConsumer<byte[], byte[]> consumer(String group, String topic, String protocol) {
        Map<String, Object> settings = new HashMap<>();
        settings.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        settings.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, protocol);
        settings.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        if (protocol.equals("classic")) {
            settings.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 300);
            settings.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 10_000);
        }
        KafkaConsumer<byte[], byte[]> consumer = broker.consumer(settings);
        consumer.subscribe(List.of(topic));
        return consumer;
    }

    /** The records produced and consumed by one rolling migration. */
    private static final class Rolling {
        final String topic;
        final List<KafkaConsumer<byte[], byte[]>> members = new ArrayList<>();
        final Set<String> consumed = new HashSet<>();
        int produced;

        Rolling(String topic) {
            this.topic = topic;
        }

        /** Produces a few records and polls every member once, committing what each got. */
        void round() {
            for (int i = 0; i < 6; i++) {
                producer.send(new ProducerRecord<>(topic, ("r" + produced++).getBytes(StandardCharsets.UTF_8)));
            }
            producer.flush();
            for (KafkaConsumer<byte[], byte[]> member : members) {
                boolean got = false;
                for (ConsumerRecord<byte[], byte[]> r : member.poll(Duration.ofMillis(50))) {
                    consumed.add(new String(r.value(), StandardCharsets.UTF_8));
                    got = true;
                }
                if (got) {
                    try {
                        member.commitSync(Duration.ofSeconds(10));
                    } catch (CommitFailedException | RebalanceInProgressException e) {
                        // The partitions moved: the next owner reads them again from the last commit.
                    }
                }
            }
        }

        /** Rounds until the members share all partitions, each one owned once, and every member has some. */
        void untilBalanced() {
            await().atMost(Duration.ofSeconds(90)).until(() -> {
                round();
                List<TopicPartition> owned = new ArrayList<>();
                members.forEach(m -> owned.addAll(m.assignment()));
                return owned.size() == PARTITIONS && new HashSet<>(owned).size() == PARTITIONS
                    && members.stream().allMatch(m -> !m.assignment().isEmpty());
            });
        }

        /** Replaces the first member of the old protocol by a member of {@code protocol}, then rounds until balanced. */
        void replace(int index, String group, String protocol) {
            members.remove(index).close(Duration.ofSeconds(10));
            round();
            members.add(index, consumer(group, topic, protocol));
            untilBalanced();
        }

        /** Stops producing and polls until every record produced was consumed. */
        void drain() {
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                for (KafkaConsumer<byte[], byte[]> member : members) {
                    member.poll(Duration.ofMillis(50)).forEach(r -> consumed.add(new String(r.value(),
                        StandardCharsets.UTF_8)));
                    member.commitSync(Duration.ofSeconds(10));
                }
                return consumed.size() == produced;
            });
            Set<String> expected = new HashSet<>();
            for (int i = 0; i < produced; i++) {
                expected.add("r" + i);
            }
            assertThat(consumed).as("every record consumed, none lost").isEqualTo(expected);
        }
    }

    private static long committedTotal(Admin admin, String group) throws Exception {
        return admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get().values().stream()
            .mapToLong(OffsetAndMetadata::offset).sum();
    }

    private static GroupType type(Admin admin, String group) throws Exception {
        return admin.describeConsumerGroups(List.of(group)).all().get().get(group).type();
    }

    private void migrate(String group, String from, String to, GroupType before, GroupType after) throws Exception {
        String topic = group + "-records";
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic(topic, PARTITIONS, (short) 1))).all().get();
            Rolling rolling = new Rolling(topic);
            try {
                for (int i = 0; i < 3; i++) {
                    rolling.members.add(consumer(group, topic, from));
                }
                rolling.untilBalanced();
                assertThat(type(admin, group)).isEqualTo(before);
                await().atMost(Duration.ofSeconds(30)).until(() -> {
                    rolling.round();
                    return committedTotal(admin, group) > 0;
                });
                long committedBefore = committedTotal(admin, group);

                rolling.replace(0, group, to);
                assertThat(committedTotal(admin, group)).as("committed offsets kept through the conversion")
                    .isGreaterThanOrEqualTo(committedBefore);
                rolling.replace(1, group, to);
                rolling.replace(2, group, to);

                rolling.drain();
                await().atMost(Duration.ofSeconds(30)).until(() -> type(admin, group) == after);
                assertThat(committedTotal(admin, group)).as("everything consumed is committed")
                    .isEqualTo(rolling.produced);
            } finally {
                rolling.members.forEach(m -> m.close(Duration.ofSeconds(5)));
            }
        }
    }

    @Test
    void aRollingUpgradeMovesAClassicGroupToTheConsumerProtocolWithoutLosingRecords() throws Exception {
        migrate("rolling-upgrade", "classic", "consumer", GroupType.CLASSIC, GroupType.CONSUMER);
    }

    @Test
    void aRollingDowngradeMovesAConsumerGroupBackToTheClassicProtocolWithoutLosingRecords() throws Exception {
        migrate("rolling-downgrade", "consumer", "classic", GroupType.CONSUMER, GroupType.CLASSIC);
    }
}
