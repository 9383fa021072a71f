package io.tributary.broker.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.TestCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Broker failures seen by a consumer group and by ZooKeeper: a group keeps consuming when its
 * coordinator's broker dies (the replicated {@code __consumer_offsets} moves with leadership and
 * keeps every committed offset), and a broker whose ZooKeeper session expires registers again and
 * rejoins the ISRs without a restart.
 */
class BrokerFailoverTest {

    private static final int RECORDS = 300;

    @TempDir
    Path dir;

    private TestCluster cluster;

    @BeforeEach
    void startCluster() throws Exception {
        cluster = TestCluster.start(dir, 3, Map.of());
        try (Admin admin = cluster.admin()) {
            admin.createTopics(List.of(new NewTopic("orders", 3, (short) 3))).all().get(30, TimeUnit.SECONDS);
        }
        for (int p = 0; p < 3; p++) {
            cluster.awaitLeader(new TopicPartition("orders", p));
        }
        try (KafkaProducer<byte[], byte[]> producer = cluster.producer(Map.of(ProducerConfig.ACKS_CONFIG, "all"))) {
            for (int i = 0; i < RECORDS; i++) {
                producer.send(new ProducerRecord<>("orders", i % 3, null, ("o" + i).getBytes(StandardCharsets.UTF_8)));
            }
            producer.flush();
        }
    }

    @AfterEach
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aGroupKeepsConsumingAcrossTheLossOfItsCoordinatorAndKeepsItsCommittedOffsets() throws Exception {
        Set<String> seen = new HashSet<>();
        Map<TopicPartition, OffsetAndMetadata> committedBefore;
        int coordinatorOf;
        try (KafkaConsumer<byte[], byte[]> consumer = cluster.consumer(Map.of(ConsumerConfig.GROUP_ID_CONFIG, "billing",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest", ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10,
                ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 6000, ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 500))) {
            consumer.subscribe(List.of("orders"));
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                pollAndCommit(consumer, seen);
                return seen.size() >= RECORDS / 2;
            });
            int coordinator;
            try (Admin admin = cluster.admin()) {
                coordinator = admin.describeConsumerGroups(List.of("billing")).all().get(30, TimeUnit.SECONDS)
                    .get("billing").coordinator().id();
                committedBefore = admin.listConsumerGroupOffsets("billing").partitionsToOffsetAndMetadata()
                    .get(30, TimeUnit.SECONDS);
            }
            assertThat(committedBefore).isNotEmpty();
            cluster.crash(coordinator);
            coordinatorOf = coordinator;

            await().atMost(Duration.ofSeconds(60)).until(() -> {
                pollAndCommit(consumer, seen);
                return seen.size() >= RECORDS;
            });
        }
        assertThat(seen).hasSize(RECORDS);
        try (Admin admin = cluster.admin()) {
            Map<TopicPartition, OffsetAndMetadata> committedAfter = admin.listConsumerGroupOffsets("billing")
                .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
            committedBefore.forEach((tp, offset) ->
                assertThat(committedAfter.get(tp).offset()).as("committed offset of %s", tp).isGreaterThanOrEqualTo(offset.offset()));
            Map<TopicPartition, Long> ends = new HashMap<>();
            for (int p = 0; p < 3; p++) {
                ends.put(new TopicPartition("orders", p), (long) RECORDS / 3);
            }
            ends.forEach((tp, end) -> assertThat(committedAfter.get(tp).offset()).isEqualTo(end));
        }
        // The coordinator's broker returns: every replica, of the topic and of the offsets topic, ends the same.
        cluster.start(coordinatorOf);
        for (int p = 0; p < 3; p++) {
            cluster.assertReplicasIdentical(new TopicPartition("orders", p));
            cluster.assertReplicasIdentical(new TopicPartition("__consumer_offsets", p));
        }
    }

    private static void pollAndCommit(KafkaConsumer<byte[], byte[]> consumer, Set<String> seen) {
        var records = consumer.poll(Duration.ofMillis(200));
        for (ConsumerRecord<byte[], byte[]> r : records) {
            seen.add(new String(r.value(), StandardCharsets.UTF_8));
        }
        if (!records.isEmpty()) {
            try {
                consumer.commitSync(Duration.ofSeconds(10));
            } catch (org.apache.kafka.common.errors.RetriableException
                     | org.apache.kafka.clients.consumer.CommitFailedException e) {
                // the coordinator moved or the group rebalanced: the records are seen again and committed later
            }
        }
    }

    @Test
    void aBrokerWhoseSessionExpiresRegistersAgainAndRejoinsTheIsr() throws Exception {
        int victim = cluster.partitionState(new TopicPartition("orders", 0)).leader();
        long oldSession = cluster.broker(victim).zkClient().sessionId();
        cluster.zooKeeper().expireSession(oldSession);

        await().atMost(Duration.ofSeconds(30)).until(() -> {
            long session = cluster.broker(victim).zkClient().sessionId();
            return session != 0 && session != oldSession && cluster.anyRunning().metadataCache().isAlive(victim)
                && cluster.broker(victim).zkClient().getDataAndVersion("/brokers/ids/" + victim)
                    .map(v -> v.ephemeralOwner() == session).orElse(false);
        });
        try (KafkaProducer<byte[], byte[]> producer = cluster.producer(Map.of(ProducerConfig.ACKS_CONFIG, "all"))) {
            producer.send(new ProducerRecord<>("orders", 0, null, "after-expiry".getBytes(StandardCharsets.UTF_8)))
                .get(60, TimeUnit.SECONDS);
        }
        for (int p = 0; p < 3; p++) {
            cluster.assertReplicasIdentical(new TopicPartition("orders", p));
        }
    }
}
