package io.tributary.broker.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.TestCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Followers keep idempotent producers' state from the batches they copy, so after a failover
 * the new leader still recognises a retried batch as a duplicate (answering its original
 * offset) and still refuses a sequence gap.
 */
class FollowerProducerStateTest {

    private static final long PRODUCER_ID = 4242;
    private static final short EPOCH = 0;

    @TempDir
    Path dir;

    private static MemoryRecords batch(int sequence) {
        return MemoryRecords.withIdempotentRecords(Compression.NONE, PRODUCER_ID, EPOCH, sequence,
            new SimpleRecord(("seq-" + sequence).getBytes(StandardCharsets.UTF_8)));
    }

    private static ProduceResult append(TestCluster cluster, int broker, TopicPartition tp, int sequence) throws Exception {
        return cluster.broker(broker).replicaManager().appendRecords(10_000, (short) -1, Map.of(tp, batch(sequence)))
            .get(30, TimeUnit.SECONDS).get(tp);
    }

    @Test
    void aRetriedBatchIsADuplicateOnTheNewLeader() throws Exception {
        TopicPartition tp = new TopicPartition("idempotent", 0);
        try (TestCluster cluster = TestCluster.start(dir, 3, Map.of())) {
            try (Admin admin = cluster.admin()) {
                admin.createTopics(List.of(new NewTopic("idempotent", 1, (short) 3))).all().get(30, TimeUnit.SECONDS);
            }
            int leader = cluster.awaitLeader(tp);
            cluster.awaitIsr(tp, List.of(0, 1, 2));
            assertThat(append(cluster, leader, tp, 0).baseOffset()).isZero();
            assertThat(append(cluster, leader, tp, 1).baseOffset()).isEqualTo(1);
            cluster.assertReplicasIdentical(tp);

            cluster.crash(leader);
            await().atMost(Duration.ofSeconds(30)).until(() -> cluster.partitionState(tp).hasLeader()
                && cluster.partitionState(tp).leader() != leader);
            int newLeader = cluster.awaitLeader(tp);

            // The producer never saw the answer to sequence 1 and sends it again to the new leader.
            ProduceResult retried = append(cluster, newLeader, tp, 1);
            assertThat(retried.error()).isEqualTo(Errors.NONE);
            assertThat(retried.baseOffset()).isEqualTo(1);
            assertThat(cluster.replica(newLeader, tp).orElseThrow().log().orElseThrow().logEndOffset()).isEqualTo(2);

            assertThat(append(cluster, newLeader, tp, 3).error()).isEqualTo(Errors.OUT_OF_ORDER_SEQUENCE_NUMBER);
            ProduceResult next = append(cluster, newLeader, tp, 2);
            assertThat(next.error()).isEqualTo(Errors.NONE);
            assertThat(next.baseOffset()).isEqualTo(2);
        }
    }
}
