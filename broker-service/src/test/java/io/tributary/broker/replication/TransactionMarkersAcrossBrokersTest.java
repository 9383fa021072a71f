package io.tributary.broker.replication;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.BrokerServer;
import io.tributary.broker.cluster.LeaderAndIsr;
import io.tributary.broker.log.FetchIsolation;
import io.tributary.broker.log.PartitionLog;
import io.tributary.broker.replica.BrokerBlockingSender;
import io.tributary.broker.testing.TestCluster;
import io.tributary.broker.transaction.BrokerMarkerSender;
import io.tributary.broker.transaction.TransactionMarkerChannel;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A transaction's markers written from one broker of a real two-broker cluster: the partition it
 * leads gets its marker appended locally, the other broker's through a WriteTxnMarkers request
 * over the inter-broker listener (kafka-clients' NetworkClient), both replicated.
 */
class TransactionMarkersAcrossBrokersTest {

    @TempDir
    static Path dir;
    static TestCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        cluster = TestCluster.start(dir, 2, Map.of());
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static RecordBatch lastBatch(int brokerId, TopicPartition tp) {
        PartitionLog log = cluster.replica(brokerId, tp).orElseThrow().log().orElseThrow();
        RecordBatch last = null;
        for (RecordBatch batch : log.read(0, Integer.MAX_VALUE, FetchIsolation.LOG_END, true).records().batches()) {
            last = batch;
        }
        return last;
    }

    @Test
    void eachLeaderGetsItsMarkerLocallyOrOverTheInterBrokerListener() throws Exception {
        try (Admin admin = cluster.admin()) {
            admin.createTopics(List.of(new NewTopic("txn-a", Map.of(0, List.of(0, 1))),
                new NewTopic("txn-b", Map.of(0, List.of(1, 0))))).all().get();
        }
        TopicPartition onZero = new TopicPartition("txn-a", 0);
        TopicPartition onOne = new TopicPartition("txn-b", 0);
        assertThat(cluster.awaitLeader(onZero)).isZero();
        assertThat(cluster.awaitLeader(onOne)).isEqualTo(1);
        BrokerServer coordinator = cluster.broker(0);
        String listener = coordinator.properties().interBrokerListener();
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
        try (BrokerMarkerSender remote = new BrokerMarkerSender(
                id -> coordinator.metadataCache().broker(id).flatMap(b -> b.endPoint(listener))
                    .map(e -> new Node(id, e.host(), e.port())),
                id -> new BrokerBlockingSender("markers-test", listener, Map.of(), 10_000, 100, Time.SYSTEM))) {
            TransactionMarkerChannel channel = new TransactionMarkerChannel(0,
                tp -> coordinator.metadataCache().partitionState(tp).map(LeaderAndIsr::leader)
                    .map(OptionalInt::of).orElse(OptionalInt.empty()),
                coordinator.replicaManager()::appendTransactionMarkers, remote, scheduler, 30_000, 100, Time.SYSTEM);

            channel.writeMarkers(555L, (short) 0, 1, false, Set.of(onZero, onOne), () -> true).get();
        } finally {
            scheduler.shutdownNow();
        }

        for (TopicPartition tp : List.of(onZero, onOne)) {
            for (int broker : List.of(0, 1)) {
                RecordBatch batch = lastBatch(broker, tp);
                assertThat(batch).as("%s on broker %d", tp, broker).isNotNull();
                assertThat(batch.isControlBatch()).isTrue();
                assertThat(batch.producerId()).isEqualTo(555L);
            }
        }
        assertThat(Optional.of(cluster.replica(1, onOne).orElseThrow().log().orElseThrow().highWatermark()))
            .as("acks=all: the ISR has it").contains(1L);
    }
}
