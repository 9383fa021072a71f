package io.tributary.broker.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.cluster.LeaderAndIsr;
import io.tributary.broker.log.PartitionLog;
import io.tributary.broker.testing.TestCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.LogTruncationException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The failure modes of KIP-101 and KIP-279 on three in-JVM brokers, with a partition of two
 * replicas (brokers 0 and 1; broker 2 is the controller's spare): a follower never truncates by
 * its high watermark alone, a former leader truncates exactly its divergent suffix, and with
 * unclean leader election off a partition whose in-sync replicas are all down stays offline.
 * After each scenario the replicas are compared byte for byte up to the high watermark.
 */
class LeaderEpochTruncationTest {

    private static final String TOPIC = "epochs";
    private static final TopicPartition TP = new TopicPartition(TOPIC, 0);

    @TempDir
    Path dir;

    private TestCluster cluster;

    @BeforeEach
    void startCluster() throws Exception {
        cluster = TestCluster.start(dir, 3, Map.of());
    }

    @AfterEach
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private void createTopic(Map<String, String> configs) throws Exception {
        try (Admin admin = cluster.admin()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, Map.of(0, List.of(0, 1))).configs(configs))).all()
                .get(30, TimeUnit.SECONDS);
        }
        assertThat(cluster.awaitLeader(TP)).isZero();
        cluster.awaitIsr(TP, List.of(0, 1));
    }

    private KafkaProducer<byte[], byte[]> producer(String acks) {
        return cluster.producer(Map.of(ProducerConfig.ACKS_CONFIG, acks, ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false,
            ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 60_000, ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000,
            ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1, ProducerConfig.RETRY_BACKOFF_MS_CONFIG, 100));
    }

    private void send(KafkaProducer<byte[], byte[]> producer, String value) throws Exception {
        producer.send(new ProducerRecord<>(TOPIC, 0, null, value.getBytes(StandardCharsets.UTF_8))).get(60, TimeUnit.SECONDS);
    }

    private List<String> consume(int expected) {
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = cluster.consumer(Map.of(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest"))) {
            consumer.assign(List.of(TP));
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    values.add(new String(r.value(), StandardCharsets.UTF_8));
                }
                return values.size() >= expected;
            });
            assertThat(consumer.poll(Duration.ofMillis(500))).isEmpty();
        }
        return values;
    }

    /**
     * The high watermark of {@link #TP} in broker {@code broker}'s checkpoint file (Kafka's
     * {@code replication-offset-checkpoint}: a version line, a count line, then "topic partition offset"
     * lines), 0 when it has no entry.
     */
    private long checkpointedHighWatermark(int broker) throws java.io.IOException {
        Path file = dir.resolve("broker-" + broker).resolve("kafka-logs").resolve("replication-offset-checkpoint");
        if (!java.nio.file.Files.exists(file)) {
            return 0;
        }
        return java.nio.file.Files.readAllLines(file).stream().skip(2).map(l -> l.split(" "))
            .filter(f -> f.length == 3 && f[0].equals(TP.topic()) && Integer.parseInt(f[1]) == TP.partition())
            .mapToLong(f -> Long.parseLong(f[2])).findFirst().orElse(0);
    }

    private PartitionLog log(int broker) {
        return cluster.replica(broker, TP).flatMap(Partition::log).orElseThrow();
    }

    /** Stops broker {@code broker}'s fetching of the partition, as a follower that has not fetched yet. */
    private void stopFetching(int broker) {
        cluster.broker(broker).replicaManager().fetcherManager().removePartitions(Set.of(TP));
    }

    @Test
    void aRestartedFollowerKeepsWhatItHasAndLeadsWithEveryAcknowledgedRecord() throws Exception {
        createTopic(Map.of("min.insync.replicas", "2"));
        List<String> acked = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = producer("all")) {
            for (int i = 0; i < 20; i++) {
                send(producer, "m" + i);
                acked.add("m" + i);
            }
        }
        long followerEnd = log(1).logEndOffset();
        assertThat(followerEnd).isEqualTo(20);

        // The follower dies; its high-watermark checkpoint is older than its log (none was written since).
        // Read from the file: once restarted, its first fetch may move the high watermark at once.
        cluster.crash(1);
        assertThat(checkpointedHighWatermark(1)).as("checkpointed high watermark").isLessThan(followerEnd);
        cluster.start(1);
        PartitionLog restarted = log(1);
        assertThat(restarted.logEndOffset()).as("no truncation to the high watermark at start").isEqualTo(followerEnd);

        // It rejoins the ISR; the leader dies before anything else happens.
        cluster.awaitIsr(TP, List.of(0, 1));
        cluster.crash(0);
        await().atMost(Duration.ofSeconds(30)).until(() -> cluster.partitionState(TP).leader() == 1);
        assertThat(consume(acked.size())).containsExactlyElementsOf(acked);

        cluster.start(0);
        cluster.assertReplicasIdentical(TP);
    }

    @Test
    void aFormerLeaderTruncatesExactlyItsDivergentSuffix() throws Exception {
        createTopic(Map.of("min.insync.replicas", "1"));
        try (KafkaProducer<byte[], byte[]> producer = producer("all")) {
            send(producer, "m0");
            send(producer, "m1");
        }
        // m2 reaches only the leader: the follower has not fetched it when both brokers die.
        stopFetching(1);
        try (KafkaProducer<byte[], byte[]> producer = producer("1")) {
            send(producer, "m2-unreplicated");
        }
        assertThat(log(0).logEndOffset()).isEqualTo(3);
        assertThat(log(1).logEndOffset()).isEqualTo(2);

        // The leader dies; the follower, in the ISR, leads in a new epoch and takes another write at offset 2.
        cluster.crash(0);
        await().atMost(Duration.ofSeconds(30)).until(() -> cluster.partitionState(TP).leader() == 1);
        cluster.awaitLeader(TP);
        try (KafkaProducer<byte[], byte[]> producer = producer("1")) {
            send(producer, "m2-new-leader");
        }

        // The former leader returns: offset 2 holds different records on the two brokers until it truncates.
        cluster.start(0);
        cluster.assertReplicasIdentical(TP);
        assertThat(consume(3)).containsExactly("m0", "m1", "m2-new-leader");
        assertThat(log(0).leaderEpochCache().entries()).isEqualTo(log(1).leaderEpochCache().entries());
    }

    @Test
    void withUncleanElectionOffAPartitionStaysOfflineUntilAnInSyncReplicaReturns() throws Exception {
        createTopic(Map.of("min.insync.replicas", "1"));
        try (KafkaProducer<byte[], byte[]> producer = producer("all")) {
            send(producer, "m0");
            cluster.crash(1);
            cluster.awaitIsr(TP, List.of(0));
            send(producer, "m1-only-on-the-leader");
        }
        cluster.crash(0);
        await().atMost(Duration.ofSeconds(30)).until(() -> !cluster.partitionState(TP).hasLeader());

        // The stale replica returns first: it is not in the ISR, so it must not lead.
        cluster.start(1);
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).until(() -> {
            LeaderAndIsr state = cluster.partitionState(TP);
            return !state.hasLeader() && state.isr().equals(List.of(0));
        });
        assertThat(cluster.replica(1, TP).map(Partition::isLeader)).isEqualTo(Optional.of(false));

        cluster.start(0);
        assertThat(cluster.awaitLeader(TP)).isZero();
        cluster.assertReplicasIdentical(TP);
        assertThat(consume(2)).containsExactly("m0", "m1-only-on-the-leader");
    }

    @Test
    void withUncleanElectionOnTheStaleReplicaLeadsAndTheOldLeaderTruncatesToIt() throws Exception {
        createTopic(Map.of("min.insync.replicas", "1", "unclean.leader.election.enable", "true"));
        try (KafkaProducer<byte[], byte[]> producer = producer("all")) {
            send(producer, "m0");
            cluster.crash(1);
            cluster.awaitIsr(TP, List.of(0));
            send(producer, "m1-lost-by-unclean-election");
        }
        cluster.crash(0);
        cluster.start(1);
        await().atMost(Duration.ofSeconds(30)).until(() -> cluster.partitionState(TP).leader() == 1);
        cluster.awaitLeader(TP);
        try (KafkaProducer<byte[], byte[]> producer = producer("1")) {
            send(producer, "m1-after-unclean-election");
        }
        cluster.start(0);
        cluster.assertReplicasIdentical(TP);
        assertThat(consume(2)).containsExactly("m0", "m1-after-unclean-election");
    }

    @Test
    void aConsumerDetectsTheTruncationOfWhatItReadAfterAnUncleanElection() throws Exception {
        createTopic(Map.of("min.insync.replicas", "1", "unclean.leader.election.enable", "true"));
        try (KafkaProducer<byte[], byte[]> producer = producer("all")) {
            send(producer, "m0");
            cluster.crash(1);
            cluster.awaitIsr(TP, List.of(0));
            send(producer, "m1-lost");
        }
        try (KafkaConsumer<byte[], byte[]> consumer = cluster.consumer(Map.of(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "none", ConsumerConfig.METADATA_MAX_AGE_CONFIG, 500))) {
            consumer.assign(List.of(TP));
            consumer.seek(TP, 0);
            List<String> read = new ArrayList<>();
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> read.add(new String(r.value(), StandardCharsets.UTF_8)));
                return read.size() == 2;
            });
            assertThat(read).containsExactly("m0", "m1-lost");

            // The replica that missed m1-lost leads after an unclean election, and offsets 1 and 2 get new records.
            cluster.crash(0);
            cluster.start(1);
            await().atMost(Duration.ofSeconds(30)).until(() -> cluster.partitionState(TP).leader() == 1);
            cluster.awaitLeader(TP);
            try (KafkaProducer<byte[], byte[]> producer = producer("1")) {
                send(producer, "m1-after");
                send(producer, "m2-after");
            }
            // The consumer's position (2, in the epoch of m1-lost) is validated with OffsetForLeaderEpoch (KIP-320):
            // that epoch ends at offset 1 on the new leader, so reading on from 2 would skip m1-after.
            LogTruncationException truncation = await().atMost(Duration.ofSeconds(30)).until(() -> {
                try {
                    consumer.poll(Duration.ofMillis(200)).forEach(r -> read.add(new String(r.value(),
                        StandardCharsets.UTF_8)));
                    return null;
                } catch (LogTruncationException e) {
                    return e;
                }
            }, e -> e != null);
            assertThat(truncation.divergentOffsets().get(TP).offset()).isEqualTo(1);
            assertThat(read).containsExactly("m0", "m1-lost");
        }
    }
}
