package io.tributary.broker.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.BrokerServer;
import io.tributary.broker.fetchsession.FetchContext;
import io.tributary.broker.testing.TestCluster;
import io.tributary.broker.testing.WireClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.requests.FetchResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Incremental fetch sessions (KIP-227) on two brokers and a topic of 1,000 partitions, all led
 * by broker 0 and followed by broker 1: the follower and a kafka-clients consumer of every
 * partition fetch incrementally (the leader counts full and incremental requests), and on the
 * wire an incremental fetch is answered with only the partitions that changed.
 */
class FetchSessionsTest {

    private static final String TOPIC = "many";
    private static final int PARTITIONS = 1000;

    @TempDir
    static Path dir;
    static TestCluster cluster;
    static Uuid topicId;

    @BeforeAll
    static void start() throws Exception {
        cluster = TestCluster.start(dir, 2, Map.of("broker.auto-leader-rebalance-enable", "false"));
        Map<Integer, List<Integer>> assignment = new HashMap<>();
        for (int p = 0; p < PARTITIONS; p++) {
            assignment.put(p, List.of(0, 1));
        }
        try (Admin admin = cluster.admin()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, assignment))).all().get();
            topicId = admin.describeTopics(List.of(TOPIC)).allTopicNames().get().get(TOPIC).topicId();
        }
        // Every partition led by broker 0 with broker 1 in its ISR.
        await().atMost(Duration.ofSeconds(120)).until(() -> leader().replicaManager().leaderCount() >= PARTITIONS
            && leader().replicaManager().underReplicatedPartitionCount() == 0);
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static BrokerServer leader() {
        return cluster.broker(0);
    }

    private static long requests(FetchContext.Kind kind, boolean follower) {
        return leader().fetchManager().requests(kind, follower);
    }

    @Test
    void theFollowerOfAThousandPartitionsFetchesIncrementally() throws Exception {
        long full = requests(FetchContext.Kind.FULL, true);
        long incremental = requests(FetchContext.Kind.INCREMENTAL, true);
        long errors = requests(FetchContext.Kind.SESSION_ERROR, true);
        // Sessions hold at least the partitions it follows (the consumer test's, if it ran first, are gone).
        assertThat(leader().fetchManager().cache().partitionsCached()).isGreaterThanOrEqualTo(PARTITIONS);

        try (KafkaProducer<byte[], byte[]> producer = cluster.producer(Map.of())) {
            for (int p = 0; p < PARTITIONS; p += 100) {
                producer.send(new ProducerRecord<>(TOPIC, p, null, ("r" + p).getBytes(StandardCharsets.UTF_8))).get();
            }
        }
        // acks=all was answered: the follower fetched those records, and keeps fetching.
        await().atMost(Duration.ofSeconds(30))
            .until(() -> requests(FetchContext.Kind.INCREMENTAL, true) >= incremental + 20);
        assertThat(requests(FetchContext.Kind.FULL, true)).as("full fetches of the follower").isEqualTo(full);
        assertThat(requests(FetchContext.Kind.SESSION_ERROR, true)).isEqualTo(errors);
        for (int p = 0; p < PARTITIONS; p += 100) {
            assertThat(cluster.replica(1, new TopicPartition(TOPIC, p)).orElseThrow().log().orElseThrow().logEndOffset())
                .isPositive();
        }
    }

    @Test
    void aConsumerOfAThousandPartitionsFetchesIncrementally() throws Exception {
        List<TopicPartition> all = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            all.add(new TopicPartition(TOPIC, p));
        }
        long full = requests(FetchContext.Kind.FULL, false);
        long incremental = requests(FetchContext.Kind.INCREMENTAL, false);
        long errors = requests(FetchContext.Kind.SESSION_ERROR, false);
        try (KafkaConsumer<byte[], byte[]> consumer = cluster.consumer(Map.of(
                ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100, ConsumerConfig.GROUP_ID_CONFIG, "sessions"));
             KafkaProducer<byte[], byte[]> producer = cluster.producer(Map.of())) {
            consumer.assign(all);
            consumer.seekToEnd(all);
            all.forEach(consumer::position); // the starting offsets are fixed before anything is produced
            for (int p = 5; p < PARTITIONS; p += 50) {
                producer.send(new ProducerRecord<>(TOPIC, p, null, "c".getBytes(StandardCharsets.UTF_8))).get();
            }
            int[] read = {0};
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(200));
                read[0] += records.count();
                return read[0] >= PARTITIONS / 50 && requests(FetchContext.Kind.INCREMENTAL, false) >= incremental + 20;
            });
            assertThat(read[0]).isEqualTo(PARTITIONS / 50);
        }
        // One full fetch opened the session; every other fetch named only what changed.
        assertThat(requests(FetchContext.Kind.FULL, false) - full).as("full fetches of the consumer").isEqualTo(1);
        assertThat(requests(FetchContext.Kind.SESSION_ERROR, false)).isEqualTo(errors);
    }

    @Test
    void onTheWireAnIncrementalFetchIsAnsweredWithOnlyWhatChanged() throws Exception {
        try (WireClient client = WireClient.connect(leader().bootstrapServers())) {
            // Partitions 997 to 999, which the other tests do not write to.
            FetchResponseData opened = fetch(client, 0, 0, Map.of(997, 0L, 998, 0L, 999, 0L), List.of());
            assertThat(opened.errorCode()).isZero();
            assertThat(opened.sessionId()).isPositive();
            assertThat(partitions(opened)).containsExactly(997, 998, 999);
            int session = opened.sessionId();

            // Nothing changed: nothing in the answer, though the session holds three partitions.
            FetchResponseData quiet = fetch(client, session, 1, Map.of(), List.of());
            assertThat(quiet.errorCode()).isZero();
            assertThat(quiet.sessionId()).isEqualTo(session);
            assertThat(partitions(quiet)).isEmpty();

            try (KafkaProducer<byte[], byte[]> producer = cluster.producer(Map.of())) {
                producer.send(new ProducerRecord<>(TOPIC, 998, null, "w".getBytes(StandardCharsets.UTF_8))).get();
            }
            // Partition 998 has a record (and a new high watermark); 997 and 999 are left out.
            FetchResponseData changed = fetch(client, session, 2, Map.of(), List.of());
            assertThat(partitions(changed)).containsExactly(998);
            assertThat(changed.responses().get(0).partitions().get(0).records().sizeInBytes()).isPositive();

            // The next request moves partition 998 past its record and forgets partition 999; a replayed
            // epoch is refused; the session goes on at the right one.
            assertThat(partitions(fetch(client, session, 3, Map.of(998, 1L), List.of(999)))).isEmpty();
            assertThat(leader().fetchManager().cache().get(session).orElseThrow().size()).isEqualTo(2);
            FetchResponseData replayed = fetch(client, session, 3, Map.of(), List.of());
            assertThat(Errors.forCode(replayed.errorCode())).isEqualTo(Errors.INVALID_FETCH_SESSION_EPOCH);
            assertThat(replayed.sessionId()).isZero();
            assertThat(Errors.forCode(fetch(client, session + 1, 1, Map.of(), List.of()).errorCode()))
                .isEqualTo(Errors.FETCH_SESSION_ID_NOT_FOUND);
            assertThat(fetch(client, session, 4, Map.of(), List.of()).errorCode()).isZero();

            // Epoch -1 closes it.
            FetchResponseData closed = fetch(client, session, -1, Map.of(997, 0L), List.of());
            assertThat(closed.sessionId()).isZero();
            assertThat(partitions(closed)).containsExactly(997);
            assertThat(leader().fetchManager().cache().get(session)).isEmpty();
        }
    }

    /** A consumer's Fetch v17 naming partitions of the topic with their fetch offsets, answered at once (no wait). */
    private static FetchResponseData fetch(WireClient client, int sessionId, int epoch, Map<Integer, Long> partitions,
                                           List<Integer> forget) throws Exception {
        FetchRequestData data = new FetchRequestData().setReplicaId(-1).setMaxWaitMs(0).setMinBytes(0)
            .setMaxBytes(1 << 20).setSessionId(sessionId).setSessionEpoch(epoch);
        if (!partitions.isEmpty()) {
            FetchRequestData.FetchTopic topic = new FetchRequestData.FetchTopic().setTopicId(topicId);
            new java.util.TreeMap<>(partitions).forEach((p, offset) -> topic.partitions().add(
                new FetchRequestData.FetchPartition().setPartition(p).setFetchOffset(offset).setPartitionMaxBytes(1 << 16)));
            data.topics().add(topic);
        }
        if (!forget.isEmpty()) {
            data.forgottenTopicsData().add(new FetchRequestData.ForgottenTopic().setTopicId(topicId)
                .setPartitions(new ArrayList<>(forget)));
        }
        FetchResponse response = client.send(new FetchRequest(data, (short) 17));
        return response.data();
    }

    private static List<Integer> partitions(FetchResponseData data) {
        return data.responses().stream().flatMap(t -> t.partitions().stream())
            .map(FetchResponseData.PartitionData::partitionIndex).toList();
    }
}
