package io.tributary.broker.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.TestCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.TopicPartition;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker that registers again under the same id (a restart, a lost ZooKeeper session) is, to
 * the controller, a broker that failed and started again, as Kafka's ZooKeeper-mode controller
 * treats a "bounced" broker: the leaderships and ISR places the partition states gave its earlier
 * run are taken back, and it leads again only in a new leader epoch. The controller finds it by
 * comparing each state's mzxid with the registration's czxid (the broker epoch), so also when
 * it never saw the registration missing.
 */
class BouncedBrokerTest {

    @TempDir
    Path dir;

    @Test
    void aRegistrationReplacedInOneTransactionCountsAsARestart() throws Exception {
        try (TestCluster cluster = TestCluster.start(dir, 3, Map.of())) {
            int controller = cluster.awaitController();
            int bounced = (controller + 1) % 3;
            int other = (controller + 2) % 3;
            TopicPartition led = new TopicPartition("bounce", 0);
            TopicPartition followed = new TopicPartition("bounce", 1);
            cluster.admin().createTopics(List.of(new NewTopic("bounce", Map.of(
                0, List.of(bounced, other), 1, List.of(other, bounced))))).all().get();
            cluster.awaitLeader(led);
            cluster.awaitLeader(followed);
            cluster.awaitIsr(led, List.of(bounced, other));
            cluster.awaitIsr(followed, List.of(other, bounced));
            int ledEpoch = cluster.partitionState(led).leaderEpoch();
            int followedEpoch = cluster.partitionState(followed).leaderEpoch();

            // The registration goes and comes back in one transaction: no watch ever sees it missing.
            KafkaZkClient zk = cluster.broker(bounced).zkClient();
            String path = ZkPaths.broker(bounced);
            KafkaZkClient.Versioned registration = zk.getDataAndVersion(path).orElseThrow();
            zk.curator().transaction().forOperations(
                zk.curator().transactionOp().delete().forPath(path),
                zk.curator().transactionOp().create().withMode(CreateMode.EPHEMERAL).forPath(path, registration.data()));
            assertThat(zk.getDataAndVersion(path).map(KafkaZkClient.Versioned::czxid))
                .isNotEqualTo(Optional.of(registration.czxid()));

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                LeaderAndIsr state = cluster.partitionState(led);
                assertThat(state.leader()).as("leader of %s", led).isEqualTo(other);
                assertThat(state.leaderEpoch()).isGreaterThan(ledEpoch);
                assertThat(cluster.partitionState(followed).leaderEpoch()).as("the ISR of %s shrank", followed)
                    .isGreaterThan(followedEpoch);
            });
            // It catches up as a follower and joins both ISRs again.
            cluster.awaitIsr(led, List.of(bounced, other));
            cluster.awaitIsr(followed, List.of(other, bounced));
        }
    }

    @Test
    void aLoneBrokerCrashedAndStartedAgainLeadsInANewEpoch() throws Exception {
        try (TestCluster cluster = TestCluster.start(dir, 1, Map.of())) {
            TopicPartition tp = new TopicPartition("alone", 0);
            cluster.admin().createTopics(List.of(new NewTopic("alone", 1, (short) 1))).all().get();
            cluster.awaitLeader(tp);
            int before = cluster.partitionState(tp).leaderEpoch();

            // No controller is left to see the crash: the next start finds the state naming the broker.
            cluster.crash(0);
            cluster.start(0);

            cluster.awaitLeader(tp);
            assertThat(cluster.partitionState(tp).leaderEpoch()).isGreaterThan(before);
            assertThat(cluster.replica(0, tp).orElseThrow().leaderEpoch()).isGreaterThan(before);
        }
    }
}
