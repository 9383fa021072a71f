package io.tributary.broker.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.ProcessCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Coordinator failover with real processes: three brokers, {@code __transaction_state} replicated
 * three times; the data partition's only replica is stopped so that a commit's markers cannot be
 * written, the commit is answered (PrepareCommit is in the log of the coordinator and its
 * followers), and the coordinator's process is then SIGKILLed. The broker that becomes leader of
 * the id's {@code __transaction_state} partition loads PrepareCommit and, once the data partition
 * is back, writes the markers and completes the commit; read_committed consumers get the record and
 * the partition's last stable offset passes the marker, so nothing stays blocked.
 */
class TransactionCoordinatorProcessFailoverTest {

    private static final String ID = "process-failover-app";

    @TempDir
    Path dir;

    @Test
    void aCommitWhoseCoordinatorWasSigkilledBeforeItsMarkersCompletesOnTheNextCoordinator() throws Exception {
        try (ProcessCluster cluster = ProcessCluster.start(dir, 3, List.of(
                "--broker.transaction-state-log-num-partitions=3", "--broker.transaction-state-log-replication-factor=3",
                "--broker.transaction-state-log-min-isr=2"));
             Admin admin = cluster.admin();
             KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                 ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
                 ProducerConfig.TRANSACTIONAL_ID_CONFIG, ID, ProducerConfig.MAX_BLOCK_MS_CONFIG, 60_000),
                 new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.initTransactions();
            int coordinator = admin.describeTransactions(List.of(ID)).description(ID).get().coordinatorId();
            int dataLeader = (coordinator + 1) % 3;
            TopicPartition tp = new TopicPartition("process-failover", 0);
            admin.createTopics(List.of(new NewTopic(tp.topic(), Map.of(0, List.of(dataLeader))))).all().get();
            await().atMost(Duration.ofSeconds(30)).until(() -> leader(admin, tp) == dataLeader);

            producer.beginTransaction();
            producer.send(new ProducerRecord<>(tp.topic(), 0, null, "committed".getBytes(StandardCharsets.UTF_8))).get();
            assertThat(cluster.stop(dataLeader)).isIn(0, 143); // the only replica: the markers wait
            producer.commitTransaction(); // answered once PrepareCommit is written
            assertThat(admin.describeTransactions(List.of(ID)).description(ID).get().state())
                .isEqualTo(TransactionState.PREPARE_COMMIT);

            cluster.kill(coordinator);
            cluster.start(dataLeader);
            TransactionDescription completed = await().atMost(Duration.ofSeconds(90))
                .until(() -> describeQuietly(admin), d -> d != null && d.state() == TransactionState.COMPLETE_COMMIT);
            assertThat(completed.coordinatorId()).as("another broker took over").isNotEqualTo(coordinator);
            cluster.start(coordinator);

            try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                    ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
                    ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
                    new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
                TransactionCoordinatorFailoverTest.assertCommittedOnce(consumer, tp);
            }
        }
    }

    private static int leader(Admin admin, TopicPartition tp) {
        try {
            var leader = admin.describeTopics(List.of(tp.topic())).allTopicNames().get().get(tp.topic()).partitions()
                .get(tp.partition()).leader();
            return leader == null ? -1 : leader.id();
        } catch (Exception e) {
            return -1;
        }
    }

    private static TransactionDescription describeQuietly(Admin admin) {
        try {
            return admin.describeTransactions(List.of(ID)).description(ID).get();
        } catch (Exception e) {
            return null;
        }
    }
}
