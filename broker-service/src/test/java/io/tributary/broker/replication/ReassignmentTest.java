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
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterPartitionReassignmentsOptions;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.PartitionReassignment;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.InvalidReplicaAssignmentException;
import org.apache.kafka.common.errors.InvalidReplicationFactorException;
import org.apache.kafka.common.errors.NoReassignmentInProgressException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Partition reassignment on four in-JVM brokers (AlterPartitionReassignments and
 * ListPartitionReassignments, KIP-455): replicas move off a broker while a producer writes, the
 * new replicas end byte-identical, the old one deletes its log; a reassignment that cannot finish
 * is listed and can be cancelled; bad targets are refused with Kafka's errors.
 */
class ReassignmentTest {

    private static final String TOPIC = "moving";

    @TempDir
    Path dir;

    private TestCluster cluster;

    @BeforeEach
    void startCluster() throws Exception {
        cluster = TestCluster.start(dir, 4, Map.of());
        try (Admin admin = cluster.admin()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, Map.of(0, List.of(0, 1, 2), 1, List.of(1, 2, 0)))
                .configs(Map.of("min.insync.replicas", "2")))).all().get(30, TimeUnit.SECONDS);
        }
        for (int p = 0; p < 2; p++) {
            cluster.awaitLeader(new TopicPartition(TOPIC, p));
            cluster.awaitIsr(new TopicPartition(TOPIC, p), List.of(0, 1, 2));
        }
    }

    @AfterEach
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static List<Integer> ids(List<org.apache.kafka.common.Node> nodes) {
        return nodes.stream().map(org.apache.kafka.common.Node::id).toList();
    }

    @Test
    void replicasMoveOffABrokerWhileAProducerWrites() throws Exception {
        TopicPartition p0 = new TopicPartition(TOPIC, 0);
        TopicPartition p1 = new TopicPartition(TOPIC, 1);
        List<String> acked = Collections.synchronizedList(new ArrayList<>());
        try (KafkaProducer<byte[], byte[]> producer = cluster.producer(Map.of(ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true, ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 60_000));
             Admin admin = cluster.admin()) {
            for (int i = 0; i < 400; i++) {
                String value = "before-" + i;
                producer.send(new ProducerRecord<>(TOPIC, i % 2, null, value.getBytes(StandardCharsets.UTF_8)),
                    (md, e) -> {
                        if (e == null) {
                            acked.add(value);
                        }
                    });
            }
            producer.flush();
            admin.alterPartitionReassignments(Map.of(
                p0, Optional.of(new NewPartitionReassignment(List.of(1, 2, 3))),
                p1, Optional.of(new NewPartitionReassignment(List.of(3, 2, 1))))).all().get(30, TimeUnit.SECONDS);
            for (int i = 0; i < 400; i++) {
                String value = "during-" + i;
                producer.send(new ProducerRecord<>(TOPIC, i % 2, null, value.getBytes(StandardCharsets.UTF_8)),
                    (md, e) -> {
                        if (e == null) {
                            acked.add(value);
                        }
                    });
            }
            producer.flush();

            await().atMost(Duration.ofSeconds(60)).until(() ->
                admin.listPartitionReassignments().reassignments().get(10, TimeUnit.SECONDS).isEmpty());
            // Every broker's metadata names the new replicas and leaders once its watch has fired.
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                TopicDescription description = admin.describeTopics(List.of(TOPIC)).allTopicNames()
                    .get(30, TimeUnit.SECONDS).get(TOPIC);
                TopicPartitionInfo info0 = description.partitions().get(0);
                TopicPartitionInfo info1 = description.partitions().get(1);
                assertThat(ids(info0.replicas())).containsExactly(1, 2, 3);
                assertThat(ids(info1.replicas())).containsExactly(3, 2, 1);
                assertThat(List.of(1, 2, 3)).contains(info0.leader().id(), info1.leader().id());
            });
        }
        assertThat(acked).hasSize(800);
        cluster.assertReplicasIdentical(p0);
        cluster.assertReplicasIdentical(p1);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(cluster.replica(0, p0)).isEmpty();
            assertThat(cluster.broker(0).logManager().getLog(p0)).isEmpty();
            assertThat(cluster.broker(0).logManager().getLog(p1)).isEmpty();
        });
        List<String> consumed = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = cluster.consumer(Map.of(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest"))) {
            consumer.assign(List.of(p0, p1));
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    consumed.add(new String(r.value(), StandardCharsets.UTF_8));
                }
                return consumed.size() >= acked.size();
            });
        }
        assertThat(consumed).containsExactlyInAnyOrderElementsOf(acked);
    }

    @Test
    void aReassignmentThatCannotFinishIsListedAndCanBeCancelled() throws Exception {
        TopicPartition p0 = new TopicPartition(TOPIC, 0);
        try (Admin admin = cluster.admin()) {
            cluster.crash(3);
            await().atMost(Duration.ofSeconds(30)).until(() -> !cluster.anyRunning().metadataCache().isAlive(3));
            // Broker 3 is down: a target naming it is refused, as it is not registered.
            assertThatThrownBy(() -> admin.alterPartitionReassignments(Map.of(
                p0, Optional.of(new NewPartitionReassignment(List.of(1, 2, 3))))).all().get(30, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(InvalidReplicaAssignmentException.class);

            cluster.start(3);
            await().atMost(Duration.ofSeconds(30)).until(() -> cluster.anyRunning().metadataCache().isAlive(3));
            // Broker 3 runs but copies nothing (its fetchers are stopped), so the move cannot finish.
            cluster.broker(3).replicaManager().stopFetchers();
            admin.alterPartitionReassignments(Map.of(p0, Optional.of(new NewPartitionReassignment(List.of(1, 2, 3)))))
                .all().get(30, TimeUnit.SECONDS);
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(() ->
                cluster.anyRunning().metadataCache().topic(TOPIC).orElseThrow().isReassigning(0));
            await().atMost(Duration.ofSeconds(10)).until(() -> admin.listPartitionReassignments().reassignments()
                .get(10, TimeUnit.SECONDS).containsKey(p0));
            Map<TopicPartition, PartitionReassignment> ongoing = admin.listPartitionReassignments().reassignments()
                .get(10, TimeUnit.SECONDS);
            assertThat(ongoing).containsKey(p0);
            assertThat(ongoing.get(p0).addingReplicas()).containsExactly(3);
            assertThat(ongoing.get(p0).removingReplicas()).containsExactly(0);
            assertThat(ongoing.get(p0).replicas()).containsExactly(1, 2, 3, 0);

            admin.alterPartitionReassignments(Map.of(p0, Optional.empty())).all().get(30, TimeUnit.SECONDS);
            // Brokers learn of it through their ZooKeeper watches, as Kafka's brokers through metadata.
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                assertThat(admin.listPartitionReassignments().reassignments().get(10, TimeUnit.SECONDS)).isEmpty();
                // Back to the original replicas (in the order the reassignment left them, as Kafka does).
                assertThat(cluster.anyRunning().metadataCache().topic(TOPIC).orElseThrow().replicas().get(0))
                    .containsExactlyInAnyOrder(0, 1, 2);
            });
            assertThatThrownBy(() -> admin.alterPartitionReassignments(Map.of(p0, Optional.empty())).all()
                .get(30, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(NoReassignmentInProgressException.class);
        }
        cluster.assertReplicasIdentical(p0);
    }

    @Test
    void aReplicationFactorChangeIsRefusedWhenTheCallerForbidsIt() throws Exception {
        TopicPartition p0 = new TopicPartition(TOPIC, 0);
        try (Admin admin = cluster.admin()) {
            assertThatThrownBy(() -> admin.alterPartitionReassignments(
                Map.of(p0, Optional.of(new NewPartitionReassignment(List.of(1, 2)))),
                new AlterPartitionReassignmentsOptions().allowReplicationFactorChange(false)).all().get(30, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(InvalidReplicationFactorException.class);
            assertThatThrownBy(() -> admin.alterPartitionReassignments(
                Map.of(p0, Optional.of(new NewPartitionReassignment(List.of(1, 1, 2))))).all().get(30, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(InvalidReplicaAssignmentException.class);
            // Shrinking is allowed by default: the partition ends with two replicas.
            admin.alterPartitionReassignments(Map.of(p0, Optional.of(new NewPartitionReassignment(List.of(2, 1)))))
                .all().get(30, TimeUnit.SECONDS);
            await().atMost(Duration.ofSeconds(30)).until(() ->
                cluster.anyRunning().metadataCache().topic(TOPIC).orElseThrow().replicas().get(0).equals(List.of(2, 1)));
            assertThat(Set.copyOf(cluster.partitionState(p0).isr())).isEqualTo(Set.of(1, 2));
        }
        cluster.assertReplicasIdentical(p0);
    }

    @Test
    void aCancelThatWouldLeaveNoInSyncOriginalReplicaIsRefused() throws Exception {
        TopicPartition risky = new TopicPartition("risky", 0);
        try (Admin admin = cluster.admin()) {
            admin.createTopics(List.of(new NewTopic("risky", Map.of(0, List.of(0, 1))))).all().get(30, TimeUnit.SECONDS);
            cluster.awaitLeader(risky);
            // Moving to [2, 3]: broker 3 copies nothing, so the move waits; broker 2 joins the ISR.
            cluster.broker(3).replicaManager().stopFetchers();
            admin.alterPartitionReassignments(Map.of(risky, Optional.of(new NewPartitionReassignment(List.of(2, 3)))))
                .all().get(30, TimeUnit.SECONDS);
            cluster.awaitIsr(risky, List.of(0, 1, 2));
            // Both original replicas die: broker 2, a new replica, is the only one in sync and leads.
            cluster.crash(0);
            cluster.crash(1);
            await().atMost(Duration.ofSeconds(30)).until(() -> cluster.partitionState(risky).leader() == 2
                && cluster.partitionState(risky).isr().equals(List.of(2)));

            // Going back to [0, 1] would drop the only in-sync copy: refused, nothing changes.
            assertThatThrownBy(() -> admin.alterPartitionReassignments(Map.of(risky, Optional.empty())).all()
                .get(30, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(InvalidReplicaAssignmentException.class);
            assertThat(cluster.partitionState(risky).leader()).isEqualTo(2);
            assertThat(cluster.anyRunning().metadataCache().topic("risky").orElseThrow().replicas().get(0))
                .containsExactly(2, 3, 0, 1);
            assertThat(cluster.replica(2, risky)).isPresent();
        }
    }

    @Test
    void aBrokerOutsideThePartitionsReplicasIsTakenOutOfItsIsr() throws Exception {
        // Both the leader (its ISR check finds no such follower) and the controller (it keeps only assigned
        // replicas) remove it.
        TopicPartition p0 = new TopicPartition(TOPIC, 0);
        // As a leader could have written while its view of a finished reassignment was stale: broker 3 is
        // registered but holds no replica of the partition.
        LeaderAndIsr state = cluster.partitionState(p0);
        cluster.anyRunning().zkClient().updatePartitionState(TOPIC, 0, state.withIsr(List.of(0, 1, 2, 3)));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
            assertThat(cluster.partitionState(p0).isr()).containsExactlyInAnyOrder(0, 1, 2));
    }
}
