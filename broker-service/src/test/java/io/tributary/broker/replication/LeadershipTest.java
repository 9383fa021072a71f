package io.tributary.broker.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.TestCluster;
import io.tributary.broker.testing.WireClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ElectionNotNeededException;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ElectLeadersRequest;
import org.apache.kafka.common.requests.ElectLeadersResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Leadership on purpose: a broker stopped cleanly first has its leaderships moved to other
 * in-sync replicas (controlled shutdown) so a producer sees nothing but retriable errors, and
 * leadership returns to the preferred replica by the ElectLeaders API or by the controller's
 * periodic imbalance check.
 */
class LeadershipTest {

    @TempDir
    Path dir;

    private TestCluster cluster;

    @AfterEach
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private void createTopic(String topic, int partitions) throws Exception {
        try (Admin admin = cluster.admin()) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 3)
                .configs(Map.of("min.insync.replicas", "2")))).all().get(30, TimeUnit.SECONDS);
        }
        for (int p = 0; p < partitions; p++) {
            cluster.awaitLeader(new TopicPartition(topic, p));
            cluster.awaitIsr(new TopicPartition(topic, p), List.of(0, 1, 2));
        }
    }

    @Test
    void aCleanlyStoppedBrokerHandsOverItsLeadershipsBeforeItStops() throws Exception {
        cluster = TestCluster.start(dir, 3, Map.of());
        createTopic("handover", 6);
        TopicPartition p0 = new TopicPartition("handover", 0);
        int victim = cluster.partitionState(p0).leader();
        List<Exception> errors = Collections.synchronizedList(new ArrayList<>());
        List<String> acked = Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean running = new AtomicBoolean(true);
        Thread writer;
        try (KafkaProducer<byte[], byte[]> producer = cluster.producer(Map.of(ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true, ProducerConfig.LINGER_MS_CONFIG, 5,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 60_000, ProducerConfig.RETRY_BACKOFF_MS_CONFIG, 50))) {
            writer = new Thread(() -> {
                int i = 0;
                while (running.get()) {
                    String value = "v" + i++;
                    producer.send(new ProducerRecord<>("handover", value.getBytes(StandardCharsets.UTF_8)), (md, e) -> {
                        if (e != null) {
                            errors.add(e);
                        } else {
                            acked.add(value);
                        }
                    });
                    try {
                        Thread.sleep(2); // paces the load, not a wait: bounds what the test reads back
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            writer.start();
            await().atMost(Duration.ofSeconds(30)).until(() -> acked.size() > 200);
            cluster.stop(victim);
            await().atMost(Duration.ofSeconds(30)).until(() -> acked.size() > 600);
            running.set(false);
            writer.join();
            producer.flush();
        }
        assertThat(errors).isEmpty();
        for (int p = 0; p < 6; p++) {
            TopicPartition tp = new TopicPartition("handover", p);
            assertThat(cluster.partitionState(tp).leader()).isNotEqualTo(victim);
            assertThat(cluster.partitionState(tp).isr()).doesNotContain(victim);
        }
        Set<String> consumed = new HashSet<>();
        try (KafkaConsumer<byte[], byte[]> consumer = cluster.consumer(Map.of(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest"))) {
            List<TopicPartition> all = new ArrayList<>();
            for (int p = 0; p < 6; p++) {
                all.add(new TopicPartition("handover", p));
            }
            consumer.assign(all);
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    assertThat(consumed.add(new String(r.value(), StandardCharsets.UTF_8))).as("no duplicate").isTrue();
                }
                return consumed.size() >= acked.size();
            });
        }
        assertThat(consumed).containsExactlyInAnyOrderElementsOf(acked);
        cluster.start(victim);
        for (int p = 0; p < 6; p++) {
            cluster.assertReplicasIdentical(new TopicPartition("handover", p));
        }
    }

    /**
     * The preferred replica is the controller: it crashes, another broker becomes the controller, it comes back. An
     * Admin that met it as the controller still sends ElectLeaders to it (kafka-clients does not refresh its metadata
     * on NOT_CONTROLLER for ElectLeaders), so the broker forwards the request to the new controller, as Kafka 4's
     * brokers do (fault campaign seed 3002, kill-during-preferred-election: two minutes of NotControllerException).
     */
    @Test
    void electLeadersMovesLeadershipBackToThePreferredReplica() throws Exception {
        cluster = TestCluster.start(dir, 3, Map.of("broker.auto-leader-rebalance-enable", "false"));
        createTopic("preferred", 3);
        int controller = cluster.awaitController();
        Map<Integer, List<Integer>> replicas = cluster.anyRunning().metadataCache().topic("preferred").orElseThrow()
            .replicas();
        TopicPartition tp = new TopicPartition("preferred", replicas.entrySet().stream()
            .filter(e -> e.getValue().get(0) == controller).findFirst().orElseThrow().getKey());
        int preferred = controller;
        assertThat(cluster.partitionState(tp).leader()).isEqualTo(preferred);

        try (Admin admin = cluster.admin()) {
            assertThat(admin.describeCluster().controller().get(30, TimeUnit.SECONDS).id()).isEqualTo(controller);
            cluster.crash(preferred);
            await().atMost(Duration.ofSeconds(30)).until(() -> cluster.partitionState(tp).hasLeader()
                && cluster.partitionState(tp).leader() != preferred);
            cluster.start(preferred);
            cluster.awaitIsr(tp, List.of(0, 1, 2));
            assertThat(cluster.awaitController()).isNotEqualTo(preferred);
            assertThat(cluster.partitionState(tp).leader()).isNotEqualTo(preferred);

            try (WireClient former = WireClient.connect(cluster.broker(preferred).bootstrapServers())) {
                ElectLeadersResponse response = former.send(new ElectLeadersRequest.Builder(ElectionType.PREFERRED,
                    List.of(tp), 30_000).build());
                assertThat(Errors.forCode(response.data().errorCode())).isEqualTo(Errors.NONE);
                assertThat(ElectLeadersResponse.electLeadersResult(response.data())).containsEntry(tp, Optional.empty());
            }
            assertThat(cluster.awaitLeader(tp)).isEqualTo(preferred);

            Map<TopicPartition, Optional<Throwable>> again = admin.electLeaders(ElectionType.PREFERRED, Set.of(tp))
                .partitions().get(30, TimeUnit.SECONDS);
            assertThat(again.get(tp)).containsInstanceOf(ElectionNotNeededException.class);
        }
        cluster.assertReplicasIdentical(tp);
    }

    @Test
    void theControllerRebalancesLeadersBackToPreferredReplicasOnItsOwn() throws Exception {
        cluster = TestCluster.start(dir, 3, Map.of("broker.leader-imbalance-check-interval-seconds", "1",
            "broker.leader-imbalance-per-broker-percentage", "0"));
        createTopic("rebalanced", 3);
        TopicPartition tp = new TopicPartition("rebalanced", 0);
        int preferred = cluster.anyRunning().metadataCache().topic("rebalanced").orElseThrow().replicas().get(0).get(0);
        cluster.crash(preferred);
        await().atMost(Duration.ofSeconds(30)).until(() -> cluster.partitionState(tp).hasLeader()
            && cluster.partitionState(tp).leader() != preferred);
        cluster.start(preferred);
        await().atMost(Duration.ofSeconds(30)).until(() -> cluster.partitionState(tp).leader() == preferred);
        cluster.assertReplicasIdentical(tp);
    }

    @Test
    void aFollowerCopiesFromEachLeaderOnNumReplicaFetchersThreads() throws Exception {
        cluster = TestCluster.start(dir, 3, Map.of("broker.num-replica-fetchers", "2"));
        Map<Integer, List<Integer>> assignment = new java.util.HashMap<>();
        for (int p = 0; p < 4; p++) {
            assignment.put(p, List.of(1, 0, 2));
        }
        try (Admin admin = cluster.admin()) {
            admin.createTopics(List.of(new NewTopic("fanned", assignment))).all().get(30, TimeUnit.SECONDS);
        }
        for (int p = 0; p < 4; p++) {
            cluster.awaitIsr(new TopicPartition("fanned", p), List.of(0, 1, 2));
        }
        // Broker 0 follows four partitions, all led by broker 1: they spread over two fetcher threads.
        assertThat(cluster.broker(0).replicaManager().fetcherManager().fetcherCount()).isEqualTo(2);
        assertThat(Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
            .filter(n -> n.startsWith("ReplicaFetcherThread-") && n.endsWith("-1-on-0")).sorted().toList())
            .containsExactly("ReplicaFetcherThread-0-1-on-0", "ReplicaFetcherThread-1-1-on-0");
    }
}
