package io.tributary.broker.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.KafkaTool;
import io.tributary.broker.testing.TestCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replication throttles (KIP-73) with Kafka's own kafka-reassign-partitions on three brokers: a
 * replica added to a partition holding 4 MB with {@code --throttle 500000} copies at about that
 * rate (leader side on the old replica's broker, follower side on the new one's), where an
 * unthrottled copy between brokers in one JVM takes a fraction of a second; {@code --verify} then
 * exits 0 and clears the broker and topic throttles it had set.
 */
class ReplicationThrottleTest {

    private static final String TOOL = "org.apache.kafka.tools.reassign.ReassignPartitionsCommand";
    private static final String TOPIC = "throttled";
    private static final TopicPartition TP = new TopicPartition(TOPIC, 0);
    private static final long THROTTLE = 500_000;
    private static final int RECORDS = 40;
    private static final int RECORD_BYTES = 100_000;

    @TempDir
    Path dir;
    TestCluster cluster;

    @BeforeEach
    void start() throws Exception {
        cluster = TestCluster.start(dir, 3, Map.of("broker.auto-leader-rebalance-enable", "false"));
    }

    @AfterEach
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private KafkaTool.Result reassign(String... args) throws Exception {
        return KafkaTool.runAgainst(cluster.bootstrapServers(), TOOL, args);
    }

    private long followerFetches() {
        long total = 0;
        for (io.tributary.broker.fetchsession.FetchContext.Kind kind : io.tributary.broker.fetchsession.FetchContext.Kind.values()) {
            total += cluster.broker(0).fetchManager().requests(kind, true);
        }
        return total;
    }

    private Config describe(ConfigResource resource) throws Exception {
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
            for (int i = 0; i < RECORDS; i++) {
                producer.send(new ProducerRecord<>(TOPIC, new byte[RECORD_BYTES])).get();
            }
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
        // replica.fetch.max.bytes (1 MiB) before the rate is measured over it.
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
}
