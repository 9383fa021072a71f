package io.tributary.broker.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.TestCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Coordinator failover on a three-broker cluster: the transaction coordinator crashes (no
 * controlled shutdown, logs unflushed) after EndTxn decided the commit and before its markers
 * could be written. The broker that takes over the id's {@code __transaction_state} partition
 * loads PrepareCommit, writes the markers once the data partition has a leader again, and
 * completes the transaction; the read_committed consumer gets the record and the partition's last
 * stable offset moves past the marker.
 */
class TransactionCoordinatorFailoverTest {

    private static final String ID = "failover-app";

    @TempDir
    Path dir;

    @Test
    void aNewCoordinatorCompletesACommitWhoseCoordinatorCrashedBeforeItsMarkers() throws Exception {
        try (TestCluster cluster = TestCluster.start(dir, 3, Map.of("broker.transaction-state-log-num-partitions", "3"));
             Admin admin = cluster.admin();
             KafkaProducer<byte[], byte[]> producer = cluster.producer(Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, ID,
                 ProducerConfig.MAX_BLOCK_MS_CONFIG, 30_000))) {
            producer.initTransactions();
            int coordinator = admin.describeTransactions(List.of(ID)).description(ID).get().coordinatorId();
            int dataLeader = (coordinator + 1) % 3;
            TopicPartition tp = new TopicPartition("failover", 0);
            admin.createTopics(List.of(new NewTopic(tp.topic(), Map.of(0, List.of(dataLeader))))).all().get();
            assertThat(cluster.awaitLeader(tp)).isEqualTo(dataLeader);

            producer.beginTransaction();
            producer.send(new ProducerRecord<>(tp.topic(), 0, null, "committed".getBytes(StandardCharsets.UTF_8))).get();
            cluster.stop(dataLeader); // the only replica: the markers cannot be written for now
            producer.commitTransaction(); // answered once PrepareCommit is written
            assertThat(admin.describeTransactions(List.of(ID)).description(ID).get().state())
                .isEqualTo(TransactionState.PREPARE_COMMIT);

            cluster.crash(coordinator);
            cluster.start(dataLeader);
            TransactionDescription completed = await().atMost(Duration.ofSeconds(60))
                .until(() -> describeQuietly(admin), d -> d != null && d.state() == TransactionState.COMPLETE_COMMIT);
            assertThat(completed.coordinatorId()).as("another broker took over").isNotEqualTo(coordinator);
            cluster.start(coordinator);

            try (KafkaConsumer<byte[], byte[]> consumer = cluster.consumer(Map.of(
                    ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                    ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"))) {
                assertCommittedOnce(consumer, tp);
            }
        }
    }

    private static TransactionDescription describeQuietly(Admin admin) {
        try {
            return admin.describeTransactions(List.of(ID)).description(ID).get();
        } catch (Exception e) {
            return null; // the coordinator moves or loads: ask again
        }
    }

    /**
     * Reads {@code tp} from its start with {@code consumer} (read_committed): the one committed record,
     * and the last stable offset past its commit marker.
     */
    static void assertCommittedOnce(KafkaConsumer<byte[], byte[]> consumer, TopicPartition tp) {
        consumer.assign(List.of(tp));
        consumer.seekToBeginning(List.of(tp));
        List<String> values = new ArrayList<>();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            consumer.poll(Duration.ofMillis(100)).forEach(r -> values.add(new String(r.value(), StandardCharsets.UTF_8)));
            return !values.isEmpty();
        });
        assertThat(values).containsExactly("committed");
        assertThat(consumer.endOffsets(List.of(tp)).get(tp)).as("the LSO is past the commit marker").isEqualTo(2);
    }
}
