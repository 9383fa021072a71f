package io.tributary.broker.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.tributary.broker.cluster.LeaderAndIsr;
import io.tributary.broker.testing.TestCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The replication and controller meters of a three-broker cluster move as Kafka's alerts expect:
 * one active controller in the sum over brokers; under-replicated and under-min-ISR partitions
 * and ISR shrinks on the leader when a follower dies, ISR expansions when it returns; offline
 * partitions on the controller when the only replica of a partition dies. (The Prometheus names
 * of these meters are checked on the application's endpoint by {@code BrokerApplicationTest}.)
 */
class ClusterMetricsTest {

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

    private double meter(int broker, String name) {
        MeterRegistry registry = cluster.broker(broker).meterRegistry();
        var meter = registry.find(name).meter();
        assertThat(meter).as("meter %s on broker %d", name, broker).isNotNull();
        return meter.measure().iterator().next().getValue();
    }

    private double sumOverRunning(String name) {
        return cluster.brokerIds().stream().filter(cluster::isRunning).mapToDouble(id -> meter(id, name)).sum();
    }

    @Test
    void replicationAndControllerMetersFollowFailuresAndRecovery() throws Exception {
        TopicPartition tp = new TopicPartition("watched", 0);
        try (Admin admin = cluster.admin()) {
            admin.createTopics(List.of(new NewTopic("watched", 1, (short) 3)
                .configs(Map.of("min.insync.replicas", "3")))).all().get();
        }
        cluster.awaitIsr(tp, List.of(0, 1, 2));
        LeaderAndIsr state = cluster.partitionState(tp);
        int leader = state.leader();
        int follower = cluster.brokerIds().stream().filter(id -> id != leader).findFirst().orElseThrow();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(sumOverRunning("kafka.controller.kafkacontroller.activecontrollercount")).isEqualTo(1.0);
            assertThat(meter(leader, "kafka.server.replicamanager.underreplicatedpartitions")).isZero();
            assertThat(meter(leader, "kafka.server.replicamanager.leadercount")).isPositive();
        });
        assertThat(meter(leader, "kafka.server.replicamanager.underminisrpartitioncount")).isZero();
        double shrinksBefore = meter(leader, "kafka.server.replicamanager.isrshrinks");
        double expandsBefore = meter(leader, "kafka.server.replicamanager.isrexpands");

        cluster.crash(follower);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(meter(leader, "kafka.server.replicamanager.underreplicatedpartitions")).isEqualTo(1.0);
            assertThat(meter(leader, "kafka.server.replicamanager.underminisrpartitioncount")).isEqualTo(1.0);
        });
        assertThat(cluster.partitionState(tp).isr()).doesNotContain(follower);
        assertThat(sumOverRunning("kafka.controller.kafkacontroller.activecontrollercount")).isEqualTo(1.0);

        cluster.start(follower);
        cluster.awaitIsr(tp, List.of(0, 1, 2));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(meter(leader, "kafka.server.replicamanager.underreplicatedpartitions")).isZero();
            assertThat(meter(leader, "kafka.server.replicamanager.underminisrpartitioncount")).isZero();
            assertThat(meter(leader, "kafka.server.replicamanager.isrexpands")).isGreaterThan(expandsBefore);
        });
        // The controller, not the leader, takes a dead follower out of the ISR; the leader shrinks
        // it itself only for a live follower that stops copying (ReplicationTest). Either way the
        // shrink counter never goes back.
        assertThat(meter(leader, "kafka.server.replicamanager.isrshrinks")).isGreaterThanOrEqualTo(shrinksBefore);

        int controller = cluster.awaitController();
        int lonely = cluster.brokerIds().stream().filter(id -> id != controller).findFirst().orElseThrow();
        TopicPartition single = new TopicPartition("single", 0);
        try (Admin admin = cluster.admin()) {
            admin.createTopics(List.of(new NewTopic("single", Map.of(0, List.of(lonely))))).all().get();
        }
        cluster.awaitLeader(single);
        assertThat(meter(controller, "kafka.controller.kafkacontroller.offlinepartitionscount")).isZero();
        cluster.crash(lonely);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
            assertThat(meter(controller, "kafka.controller.kafkacontroller.offlinepartitionscount")).isEqualTo(1.0));
        cluster.start(lonely);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
            assertThat(meter(controller, "kafka.controller.kafkacontroller.offlinepartitionscount")).isZero());
        assertThat(Optional.of(cluster.partitionState(single).leader())).contains(lonely);
    }
}
