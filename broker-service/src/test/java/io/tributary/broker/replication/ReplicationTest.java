package io.tributary.broker.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.cluster.LeaderAndIsr;
import io.tributary.broker.testing.TestCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three brokers in one JVM replicate a topic with RF 3: followers copy the leader, the high
 * watermark follows the ISR, a crashed leader is replaced from the ISR without losing an
 * acknowledged record, {@code min.insync.replicas} refuses acks=all writes it cannot honour, and
 * a returning broker catches up, rejoins the ISR and ends byte-identical.
 */
class ReplicationTest {

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

    private void createTopic(String topic, int partitions, Map<String, String> configs) throws Exception {
        try (Admin admin = cluster.admin()) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 3).configs(configs))).all()
                .get(30, TimeUnit.SECONDS);
        }
        for (int p = 0; p < partitions; p++) {
            cluster.awaitLeader(new TopicPartition(topic, p));
        }
    }

    private KafkaProducer<byte[], byte[]> idempotentProducer() {
        return cluster.producer(Map.of(ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
            ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 60_000, ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000,
            ProducerConfig.RETRY_BACKOFF_MS_CONFIG, 100));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private List<String> consumeAll(TopicPartition tp, int expected) {
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = cluster.consumer(Map.of(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest"))) {
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    values.add(new String(r.value(), StandardCharsets.UTF_8));
                }
                return values.size() >= expected;
            });
        }
        return values;
    }

    /**
     * {@code num.replica.fetchers} changed cluster-wide while records flow: each follower moves its
     * partitions to the new number of fetchers per leader, from the offsets they had reached, and
     * every acknowledged record still reaches every replica.
     */
    @Test
    void replicaFetchersAreResizedWhileFollowersKeepCopying() throws Exception {
        createTopic("resized", 8, Map.of("min.insync.replicas", "2"));
        try (KafkaProducer<byte[], byte[]> producer = idempotentProducer(); Admin admin = cluster.admin()) {
            for (int i = 0; i < 400; i++) {
                producer.send(new ProducerRecord<>("resized", i % 8, null, bytes("v" + i)));
            }
            admin.incrementalAlterConfigs(Map.of(new org.apache.kafka.common.config.ConfigResource(
                org.apache.kafka.common.config.ConfigResource.Type.BROKER, ""), List.of(
                    new org.apache.kafka.clients.admin.AlterConfigOp(new org.apache.kafka.clients.admin.ConfigEntry(
                        "num.replica.fetchers", "2"), org.apache.kafka.clients.admin.AlterConfigOp.OpType.SET))))
                .all().get(30, TimeUnit.SECONDS);
            for (int i = 400; i < 800; i++) {
                producer.send(new ProducerRecord<>("resized", i % 8, null, bytes("v" + i)));
            }
            producer.flush();
        }
        // Two fetchers per leader on some follower: partitions hashed to fetcher 1 moved there.
        await().atMost(Duration.ofSeconds(30)).until(() -> cluster.brokerIds().stream().anyMatch(id ->
            cluster.broker(id).replicaManager().fetcherManager().fetcherCount() > 2));
        for (int p = 0; p < 8; p++) {
            TopicPartition tp = new TopicPartition("resized", p);
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> cluster.assertReplicasIdentical(tp));
            assertThat(consumeAll(tp, 100)).hasSize(100);
        }
    }

    @Test
    void followersCopyTheLeaderAndTheHighWatermarkFollowsTheIsr() throws Exception {
        createTopic("copies", 2, Map.of("min.insync.replicas", "2"));
        try (KafkaProducer<byte[], byte[]> producer = idempotentProducer()) {
            for (int i = 0; i < 500; i++) {
                producer.send(new ProducerRecord<>("copies", i % 2, null, bytes("v" + i)));
            }
            RecordMetadata last = producer.send(new ProducerRecord<>("copies", 0, null, bytes("last"))).get(30,
                TimeUnit.SECONDS);
            assertThat(last.offset()).isEqualTo(250);
        }
        for (int p = 0; p < 2; p++) {
            TopicPartition tp = new TopicPartition("copies", p);
            cluster.assertReplicasIdentical(tp);
            int leader = cluster.partitionState(tp).leader();
            // acks=all returned, so the high watermark already covers every acknowledged record
            assertThat(cluster.replica(leader, tp).orElseThrow().log().orElseThrow().highWatermark())
                .isEqualTo(p == 0 ? 251 : 250);
        }
        assertThat(cluster.broker(0).replicaManager().fetcherManager().fetcherCount()).isPositive();
    }

    @Test
    void aCrashedLeaderIsReplacedFromTheIsrAndNoAcknowledgedRecordIsLost() throws Exception {
        TopicPartition tp = new TopicPartition("failover", 0);
        createTopic("failover", 1, Map.of("min.insync.replicas", "2"));
        List<String> acked = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = idempotentProducer()) {
            for (int round = 0; round < 2; round++) {
                for (int i = 0; i < 200; i++) {
                    String value = "r" + round + "-" + i;
                    producer.send(new ProducerRecord<>("failover", 0, null, bytes(value)), (md, e) -> {
                        if (e == null) {
                            synchronized (acked) {
                                acked.add(value);
                            }
                        }
                    });
                }
                producer.flush();
                // The broker restarted in the previous round is back in the ISR, so the ISR read here is the one
                // the controller elects from.
                cluster.awaitIsr(tp, List.of(0, 1, 2));
                LeaderAndIsr before = cluster.partitionState(tp);
                cluster.crash(before.leader());
                await().atMost(Duration.ofSeconds(30)).until(() -> {
                    LeaderAndIsr now = cluster.partitionState(tp);
                    return now.hasLeader() && now.leader() != before.leader();
                });
                LeaderAndIsr after = cluster.partitionState(tp);
                assertThat(after.leaderEpoch()).isGreaterThan(before.leaderEpoch());
                assertThat(before.isr()).contains(after.leader());
                cluster.start(before.leader());
            }
            producer.send(new ProducerRecord<>("failover", 0, null, bytes("after"))).get(60, TimeUnit.SECONDS);
            acked.add("after");
        }
        assertThat(acked).hasSize(401);
        List<String> consumed = consumeAll(tp, acked.size());
        assertThat(consumed).containsExactlyElementsOf(acked);
        cluster.assertReplicasIdentical(tp);
    }

    @Test
    void minInsyncReplicasRefusesAcksAllUntilAReplicaReturns() throws Exception {
        TopicPartition tp = new TopicPartition("guarded", 0);
        createTopic("guarded", 1, Map.of("min.insync.replicas", "2"));
        int leader = cluster.partitionState(tp).leader();
        List<Integer> followers = cluster.brokerIds().stream().filter(id -> id != leader).toList();
        // No retries, so the producer reports the broker's answer rather than retrying it until it times out.
        try (KafkaProducer<byte[], byte[]> producer = cluster.producer(Map.of(ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.RETRIES_CONFIG, 0, ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 10_000, ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000,
                ProducerConfig.LINGER_MS_CONFIG, 0))) {
            producer.send(new ProducerRecord<>("guarded", 0, null, bytes("before"))).get(30, TimeUnit.SECONDS);
            followers.forEach(cluster::crash);
            cluster.awaitIsr(tp, List.of(leader));

            assertThatThrownBy(() -> producer.send(new ProducerRecord<>("guarded", 0, null, bytes("refused")))
                .get(30, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(NotEnoughReplicasException.class);

            cluster.start(followers.get(0));
            cluster.awaitIsr(tp, List.of(leader, followers.get(0)));
            producer.send(new ProducerRecord<>("guarded", 0, null, bytes("after"))).get(30, TimeUnit.SECONDS);
        }
        cluster.start(followers.get(1));
        cluster.assertReplicasIdentical(tp);
        assertThat(consumeAll(tp, 2)).containsExactly("before", "after");
    }

    @Test
    void aFollowerThatStopsCopyingLeavesTheIsrAfterTheLagTimeAndWritesGoOn() throws Exception {
        TopicPartition tp = new TopicPartition("laggard", 0);
        createTopic("laggard", 1, Map.of("min.insync.replicas", "2"));
        cluster.awaitIsr(tp, List.of(0, 1, 2));
        LeaderAndIsr before = cluster.partitionState(tp);
        int follower = cluster.brokerIds().stream().filter(id -> id != before.leader()).findFirst().orElseThrow();
        // The follower stays registered and alive, so the controller does nothing: only the leader can notice.
        cluster.broker(follower).replicaManager().stopFetchers();
        try (KafkaProducer<byte[], byte[]> producer = idempotentProducer()) {
            producer.send(new ProducerRecord<>("laggard", 0, null, bytes("while-lagging"))).get(30, TimeUnit.SECONDS);
        }
        List<Integer> rest = cluster.brokerIds().stream().filter(id -> id != follower).toList();
        cluster.awaitIsr(tp, rest);
        // The leader's own conditional write: same leader epoch (the controller's writes bump it).
        assertThat(cluster.partitionState(tp).leaderEpoch()).isEqualTo(before.leaderEpoch());
        // Counted when the leader sees its write succeed, which may be just after ZooKeeper shows it.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
            assertThat(cluster.broker(before.leader()).replicaManager().stats().isrShrinks()).isPositive());
        try (KafkaProducer<byte[], byte[]> producer = idempotentProducer()) {
            producer.send(new ProducerRecord<>("laggard", 0, null, bytes("after-shrink"))).get(30, TimeUnit.SECONDS);
        }
        assertThat(consumeAll(tp, 2)).containsExactly("while-lagging", "after-shrink");
    }
}
