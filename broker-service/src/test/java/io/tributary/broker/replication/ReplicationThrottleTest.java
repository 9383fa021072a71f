package io.tributary.broker.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.cluster.BrokerState;
import io.tributary.broker.replica.Partition;
import io.tributary.broker.testing.KafkaTool;
import io.tributary.broker.testing.TestCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replication throttles (KIP-73) on three brokers sharing one cluster:
 * <ul>
 *   <li>with Kafka's own kafka-reassign-partitions: a replica added to a partition holding 2 MB with
 *       {@code --throttle 1000000} copies at about that rate (leader side on the old replica's broker,
 *       follower side on the new one's), where an unthrottled copy between brokers in one JVM takes a
 *       fraction of a second; {@code --verify} then exits 0 and clears the broker and topic throttles it
 *       had set;</li>
 *   <li>each side alone, set as an operator would with the Admin client: a leader throttle with no
 *       follower throttle, and a follower throttle with no leader throttle, each holds a reassignment's
 *       copy near its rate (both copies run at once, on different brokers);</li>
 *   <li>catch-up traffic: a follower that was down while 2 MB were written catches up near the rate of
 *       throttled replicas {@code *} and then rejoins the ISR.</li>
 * </ul>
 * Followers fetch at most 256 KiB per partition here, so the rate follows the throttle closely.
 */
class ReplicationThrottleTest {

    private static final String TOOL = "org.apache.kafka.tools.reassign.ReassignPartitionsCommand";
    private static final String TOPIC = "throttled";
    private static final TopicPartition TP = new TopicPartition(TOPIC, 0);
    private static final long THROTTLE = 1_000_000;
    private static final int RECORDS = 20;
    private static final int RECORD_BYTES = 100_000;

    /** The rate of the copies throttled side by side, bytes/s. */
    private static final long SIDE_THROTTLE = 1_000_000;
    private static final int SIDE_RECORDS = 20;

    @TempDir
    static Path dir;
    static TestCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        cluster = TestCluster.start(dir, 3, Map.of("broker.auto-leader-rebalance-enable", "false",
            "broker.replica-fetch-max-bytes", "262144"));
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static KafkaTool.Result reassign(String... args) throws Exception {
        return KafkaTool.runAgainst(cluster.bootstrapServers(), TOOL, args);
    }

    private static long followerFetches() {
        long total = 0;
        for (io.tributary.broker.fetchsession.FetchContext.Kind kind : io.tributary.broker.fetchsession.FetchContext.Kind.values()) {
            total += cluster.broker(0).fetchManager().requests(kind, true);
        }
        return total;
    }

    private static Config describe(ConfigResource resource) throws Exception {
        try (Admin admin = cluster.admin()) {
            return admin.describeConfigs(List.of(resource)).all().get().get(resource);
        }
    }

    @Test
    void aThrottledReassignmentCopiesAtAboutTheThrottleAndVerifyClearsIt() throws Exception {
        try (Admin admin = cluster.admin()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, Map.of(0, List.of(0))))).all().get();
        }
        cluster.awaitLeader(TP);
        try (KafkaProducer<byte[], byte[]> producer = cluster.producer(Map.of(ProducerConfig.ACKS_CONFIG, "1",
                ProducerConfig.LINGER_MS_CONFIG, 0))) {
            produce(producer, TOPIC, RECORDS);
        }
        long leaderEnd = cluster.replica(0, TP).orElseThrow().log().orElseThrow().logEndOffset();
        Path plan = Files.writeString(dir.resolve("plan.json"),
            "{\"version\":1,\"partitions\":[{\"topic\":\"" + TOPIC + "\",\"partition\":0,\"replicas\":[0,1]}]}");

        long fetchesBefore = followerFetches();
        long begin = System.nanoTime();
        KafkaTool.Result executed = reassign("--reassignment-json-file", plan.toString(), "--execute",
            "--throttle", Long.toString(THROTTLE));
        assertThat(executed.exitCode()).as(executed.output()).isZero();
        assertThat(describe(new ConfigResource(ConfigResource.Type.BROKER, "0"))
            .get("leader.replication.throttled.rate").value()).isEqualTo(Long.toString(THROTTLE));
        assertThat(describe(new ConfigResource(ConfigResource.Type.TOPIC, TOPIC))
            .get("follower.replication.throttled.replicas").value()).isEqualTo("0:1");

        await().atMost(Duration.ofSeconds(120)).until(() -> cluster.replica(1, TP)
            .flatMap(p -> p.log()).map(l -> l.logEndOffset() >= leaderEnd).orElse(false));
        double seconds = (System.nanoTime() - begin) / 1e9;
        long fetches = followerFetches() - fetchesBefore;
        double rate = (double) RECORDS * RECORD_BYTES / seconds;
        // Unthrottled this copy takes well under a second; the first fetch may take one
        // replica.fetch.max.bytes (256 KiB here) before the rate is measured over it.
        System.out.printf("Copied %d bytes in %.1f s with a throttle of %d bytes/s, %d follower fetches%n",
            RECORDS * RECORD_BYTES, seconds, THROTTLE, fetches);
        assertThat(rate).as("bytes/s copied with a throttle of %d", THROTTLE).isLessThan(3.0 * THROTTLE);
        // A held follower's fetch waits (replica.fetch.wait.max.ms, 200 ms here) instead of being answered
        // empty at once: a few fetches a second, not thousands.
        assertThat(fetches).as("follower fetches at the leader in %.1f s", seconds).isLessThan((long) (seconds * 40));

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            KafkaTool.Result verified = reassign("--reassignment-json-file", plan.toString(), "--verify");
            assertThat(verified.exitCode()).as(verified.output()).isZero();
            assertThat(verified.output()).contains("is completed").contains("Clearing broker-level throttles")
                .contains("Clearing topic-level throttles");
        });
        for (int broker : List.of(0, 1)) {
            // As in Kafka 3.9, a throttle rate not set dynamically is not listed.
            Config config = describe(new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(broker)));
            assertThat(config.get("leader.replication.throttled.rate")).isNull();
            assertThat(config.get("follower.replication.throttled.rate")).isNull();
        }
        Config topic = describe(new ConfigResource(ConfigResource.Type.TOPIC, TOPIC));
        assertThat(topic.get("leader.replication.throttled.replicas").value()).isEmpty();
        assertThat(topic.get("follower.replication.throttled.replicas").value()).isEmpty();
        cluster.awaitIsr(TP, List.of(0, 1));
    }

    @Test
    void aLeaderThrottleAloneAndAFollowerThrottleAloneEachHoldACopyNearTheirRate() throws Exception {
        // Each throttle's rate is measured from its first bytes (Kafka's SimpleRate over up to 11 one-second
        // windows): every test here uses sides no other test records on, or a restarted broker's.
        TopicPartition leaderSide = new TopicPartition("leader-side", 0);
        TopicPartition followerSide = new TopicPartition("follower-side", 0);
        try (Admin admin = cluster.admin()) {
            admin.createTopics(List.of(new NewTopic(leaderSide.topic(), Map.of(0, List.of(2))),
                new NewTopic(followerSide.topic(), Map.of(0, List.of(1))))).all().get();
        }
        cluster.awaitLeader(leaderSide);
        cluster.awaitLeader(followerSide);
        try (KafkaProducer<byte[], byte[]> producer = cluster.producer(Map.of(ProducerConfig.ACKS_CONFIG, "1",
                ProducerConfig.LINGER_MS_CONFIG, 0))) {
            produce(producer, leaderSide.topic(), SIDE_RECORDS);
            produce(producer, followerSide.topic(), SIDE_RECORDS);
        }
        // Leader side only: broker 2 answers broker 0's fetches of leader-side slowly; no follower throttle.
        // Follower side only: broker 0 fetches follower-side from broker 1 slowly; broker 1 has no leader rate.
        try (Admin admin = cluster.admin()) {
            alter(admin, new ConfigResource(ConfigResource.Type.BROKER, "2"), "leader.replication.throttled.rate",
                Long.toString(SIDE_THROTTLE));
            alter(admin, new ConfigResource(ConfigResource.Type.TOPIC, leaderSide.topic()),
                "leader.replication.throttled.replicas", "0:2");
            alter(admin, new ConfigResource(ConfigResource.Type.BROKER, "0"), "follower.replication.throttled.rate",
                Long.toString(SIDE_THROTTLE));
            alter(admin, new ConfigResource(ConfigResource.Type.TOPIC, followerSide.topic()),
                "follower.replication.throttled.replicas", "0:0");
        }
        awaitBrokerConfig(2, "leader.replication.throttled.rate", Long.toString(SIDE_THROTTLE));
        awaitBrokerConfig(0, "follower.replication.throttled.rate", Long.toString(SIDE_THROTTLE));
        awaitTopicOverride(2, leaderSide, "leader.replication.throttled.replicas");
        awaitTopicOverride(1, followerSide, "follower.replication.throttled.replicas");
        assertThat(describe(new ConfigResource(ConfigResource.Type.BROKER, "1")).get("leader.replication.throttled.rate"))
            .as("no leader throttle where follower-side is led").isNull();

        long begin = System.nanoTime();
        try (Admin admin = cluster.admin()) {
            admin.alterPartitionReassignments(Map.of(
                leaderSide, java.util.Optional.of(new NewPartitionReassignment(List.of(2, 0))),
                followerSide, java.util.Optional.of(new NewPartitionReassignment(List.of(1, 0))))).all().get();
        }
        long bytes = (long) SIDE_RECORDS * RECORD_BYTES;
        // Each copy timed on its own: they run at once.
        long leaderSideEnd = endOffset(2, leaderSide);
        long followerSideEnd = endOffset(1, followerSide);
        CompletableFuture<Double> leaderSideSeconds = CompletableFuture.supplyAsync(
            () -> awaitCopied(0, leaderSide, leaderSideEnd, begin));
        double followerSideRate = bytes / awaitCopied(0, followerSide, followerSideEnd, begin);
        double leaderSideRate = bytes / leaderSideSeconds.get(120, TimeUnit.SECONDS);
        System.out.printf("Copied %d bytes at %.0f bytes/s (leader throttle) and %.0f bytes/s (follower throttle), "
            + "each throttled at %d bytes/s%n", bytes, leaderSideRate, followerSideRate, SIDE_THROTTLE);
        assertThat(leaderSideRate).as("bytes/s with a leader throttle of %d", SIDE_THROTTLE).isLessThan(2.0 * SIDE_THROTTLE);
        assertThat(followerSideRate).as("bytes/s with a follower throttle of %d", SIDE_THROTTLE)
            .isLessThan(2.0 * SIDE_THROTTLE);
        cluster.awaitIsr(leaderSide, List.of(2, 0));
        cluster.awaitIsr(followerSide, List.of(1, 0));
        try (Admin admin = cluster.admin()) {
            delete(admin, new ConfigResource(ConfigResource.Type.BROKER, "2"), "leader.replication.throttled.rate");
            delete(admin, new ConfigResource(ConfigResource.Type.BROKER, "0"), "follower.replication.throttled.rate");
        }
    }

    @Test
    void aFollowerCatchingUpAfterARestartIsThrottledAndThenRejoinsTheIsr() throws Exception {
        TopicPartition tp = new TopicPartition("catch-up", 0);
        try (Admin admin = cluster.admin()) {
            admin.createTopics(List.of(new NewTopic(tp.topic(), Map.of(0, List.of(1, 2))))).all().get();
            // Broker 2's follower throttle, set while it runs (kept in ZooKeeper, applied again at its start),
            // on every replica of the topic: an in-sync follower is never held.
            alter(admin, new ConfigResource(ConfigResource.Type.BROKER, "2"), "follower.replication.throttled.rate",
                Long.toString(SIDE_THROTTLE));
            alter(admin, new ConfigResource(ConfigResource.Type.TOPIC, tp.topic()),
                "follower.replication.throttled.replicas", "*");
        }
        cluster.awaitIsr(tp, List.of(1, 2));
        awaitBrokerConfig(2, "follower.replication.throttled.rate", Long.toString(SIDE_THROTTLE));
        cluster.stop(2);
        cluster.awaitIsr(tp, List.of(1));
        try (KafkaProducer<byte[], byte[]> producer = cluster.producer(Map.of(ProducerConfig.ACKS_CONFIG, "1",
                ProducerConfig.LINGER_MS_CONFIG, 0))) {
            produce(producer, tp.topic(), SIDE_RECORDS);
        }
        long leaderEnd = endOffset(1, tp);

        // Timed from the start of log loading: the follower fetches once its logs are loaded and it is
        // registered, before the start returns; ZooKeeper's connection before is not replication.
        AtomicLong loading = new AtomicLong();
        cluster.start(2, server -> server.addStateListener(state -> {
            if (state == BrokerState.RECOVERY) {
                loading.set(System.nanoTime());
            }
        }));
        double rate = (long) SIDE_RECORDS * RECORD_BYTES / awaitCopied(2, tp, leaderEnd, loading.get());
        System.out.printf("Caught up at %.0f bytes/s with a follower throttle of %d bytes/s%n", rate, SIDE_THROTTLE);
        assertThat(rate).as("bytes/s caught up with a throttle of %d", SIDE_THROTTLE).isLessThan(2.0 * SIDE_THROTTLE);
        cluster.awaitIsr(tp, List.of(1, 2));
        try (Admin admin = cluster.admin()) {
            delete(admin, new ConfigResource(ConfigResource.Type.BROKER, "2"), "follower.replication.throttled.rate");
        }
    }

    private static void produce(KafkaProducer<byte[], byte[]> producer, String topic, int records) throws Exception {
        for (int i = 0; i < records; i++) {
            producer.send(new ProducerRecord<>(topic, new byte[RECORD_BYTES])).get();
        }
    }

    private static long endOffset(int broker, TopicPartition tp) {
        return cluster.replica(broker, tp).flatMap(Partition::log).orElseThrow().logEndOffset();
    }

    /** Waits until broker {@code broker}'s replica of {@code tp} reaches {@code end}; the seconds since {@code beginNanos}. */
    private static double awaitCopied(int broker, TopicPartition tp, long end, long beginNanos) {
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(10)).until(() -> cluster.replica(broker, tp)
            .flatMap(Partition::log).map(l -> l.logEndOffset() >= end).orElse(false));
        return (System.nanoTime() - beginNanos) / 1e9;
    }

    private static void alter(Admin admin, ConfigResource resource, String name, String value) throws Exception {
        admin.incrementalAlterConfigs(Map.of(resource, List.of(new AlterConfigOp(new ConfigEntry(name, value),
            AlterConfigOp.OpType.SET)))).all().get();
    }

    private static void delete(Admin admin, ConfigResource resource, String name) throws Exception {
        admin.incrementalAlterConfigs(Map.of(resource, List.of(new AlterConfigOp(new ConfigEntry(name, null),
            AlterConfigOp.OpType.DELETE)))).all().get();
    }

    /** Until broker {@code broker} applies its dynamic {@code name} (it answers a describe of itself from what it applied). */
    private static void awaitBrokerConfig(int broker, String name, String value) {
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            ConfigEntry entry = describe(new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(broker))).get(name);
            return entry != null && value.equals(entry.value());
        });
    }

    /** Until the log of broker {@code broker}'s replica of {@code tp} has the topic override {@code name}. */
    private static void awaitTopicOverride(int broker, TopicPartition tp, String name) {
        await().atMost(Duration.ofSeconds(30)).until(() -> cluster.replica(broker, tp).flatMap(Partition::log)
            .map(l -> l.config().overrides().containsKey(name)).orElse(false));
    }
}
