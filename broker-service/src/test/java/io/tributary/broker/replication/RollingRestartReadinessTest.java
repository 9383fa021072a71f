package io.tributary.broker.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.cluster.BrokerState;
import io.tributary.broker.health.BrokerReadinessIndicator;
import io.tributary.broker.testing.TestCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/**
 * What makes a StatefulSet's rolling restart safe: a restarted broker reports ready only once it
 * is back in the ISR of the partitions it follows, so the next broker is not restarted while the
 * partitions are one replica short.
 */
class RollingRestartReadinessTest {

    @TempDir
    Path dir;

    private TestCluster cluster;

    @AfterEach
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aRestartedBrokerIsNotReadyUntilItIsBackInTheIsrsItFollows() throws Exception {
        cluster = TestCluster.start(dir, 3, Map.of());
        TopicPartition tp = new TopicPartition("rolled", 0);
        try (Admin admin = cluster.admin()) {
            admin.createTopics(List.of(new NewTopic("rolled", 1, (short) 3))).all().get();
        }
        cluster.awaitIsr(tp, List.of(0, 1, 2));
        int leader = cluster.partitionState(tp).leader();
        int follower = cluster.brokerIds().stream().filter(id -> id != leader).findFirst().orElseThrow();
        assertThat(new BrokerReadinessIndicator(cluster.broker(follower)).health().getStatus()).isEqualTo(Status.UP);

        cluster.stop(follower);
        cluster.awaitIsr(tp, cluster.brokerIds().stream().filter(id -> id != follower).toList());
        try (KafkaProducer<byte[], byte[]> producer = cluster.producer(Map.of(ProducerConfig.ACKS_CONFIG, "all"))) {
            for (int i = 0; i < 100; i++) {
                producer.send(new ProducerRecord<>("rolled", 0, null, new byte[100]));
            }
            producer.flush();
        }

        // The first answer once it runs again: it has not rejoined the ISR yet (that takes its
        // registration reaching the leader, the leader's ISR write, and that write reaching it).
        AtomicReference<Health> atStart = new AtomicReference<>();
        cluster.start(follower, server -> server.addStateListener(state -> {
            if (state == BrokerState.RUNNING) {
                atStart.set(new BrokerReadinessIndicator(server).health());
            }
        }));
        assertThat(atStart.get().getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
        assertThat(atStart.get().getDetails()).containsEntry("state", "RUNNING")
            .containsEntry("followerPartitionsOutOfSync", 1);

        BrokerReadinessIndicator readiness = new BrokerReadinessIndicator(cluster.broker(follower));
        await().atMost(Duration.ofSeconds(30)).until(() -> readiness.health().getStatus().equals(Status.UP));
        assertThat(cluster.partitionState(tp).isr()).contains(follower);
    }
}
