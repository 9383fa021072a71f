package io.tributary.broker.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.TestCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Strict min ISR (KIP-966, KAFKA-15583) on three brokers: with {@code min.insync.replicas=2} and
 * both followers gone, an acks=1 record is written but not committed (the high watermark, which
 * consumers read up to, does not move) until a follower is back in the ISR; acks=all is refused.
 */
class StrictMinIsrTest {

    private static final TopicPartition TP = new TopicPartition("strict", 0);

    @TempDir
    static Path dir;
    static TestCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        cluster = TestCluster.start(dir, 3, Map.of());
        try (Admin admin = cluster.admin()) {
            admin.createTopics(List.of(new NewTopic(TP.topic(), Map.of(0, List.of(0, 1, 2)))
                .configs(Map.of("min.insync.replicas", "2")))).all().get();
        }
        assertThat(cluster.awaitLeader(TP)).isZero();
        cluster.awaitIsr(TP, List.of(0, 1, 2));
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static long latestOffset() throws Exception {
        try (Admin admin = cluster.admin()) {
            return admin.listOffsets(Map.of(TP, OffsetSpec.latest())).partitionResult(TP).get().offset();
        }
    }

    private static void send(short acks, String value) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = cluster.producer(Map.of(ProducerConfig.ACKS_CONFIG,
                Short.toString(acks), ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false, ProducerConfig.RETRIES_CONFIG, 0,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000, ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 20_000))) {
            producer.send(new ProducerRecord<>(TP.topic(), 0, null, value.getBytes(StandardCharsets.UTF_8))).get();
        }
    }

    @Test
    void anAcksOneRecordIsCommittedOnlyOnceEnoughReplicasAreInSyncAgain() throws Exception {
        send((short) -1, "committed");
        await().atMost(Duration.ofSeconds(30)).until(() -> latestOffset() == 1);

        cluster.stop(1);
        cluster.stop(2);
        cluster.awaitIsr(TP, List.of(0));
        send((short) 1, "written, not committed");
        io.micrometer.core.instrument.MeterRegistry meters = cluster.broker(0).meterRegistry();
        java.util.function.DoubleSupplier failed = () -> meters.get("kafka.server.brokertopicmetrics.failedproducerequests")
            .tag("topic", TP.topic()).counter().count();
        double failedBefore = failed.getAsDouble();
        assertThatThrownBy(() -> send((short) -1, "refused")).isInstanceOf(ExecutionException.class)
            .hasCauseInstanceOf(NotEnoughReplicasException.class);
        assertThat(failed.getAsDouble() - failedBefore).as("a broker-side failure, counted as Kafka counts it")
            .isEqualTo(1.0);
        assertThat(cluster.replica(0, TP).orElseThrow().log().orElseThrow().logEndOffset()).isEqualTo(2);
        assertThat(latestOffset()).as("the high watermark waits below min.insync.replicas").isEqualTo(1);

        cluster.start(1);
        cluster.awaitIsr(TP, List.of(0, 1));
        await().atMost(Duration.ofSeconds(30)).until(() -> latestOffset() == 2);
        cluster.start(2);
    }

    /**
     * KAFKA-15583: the effective min ISR is capped at the replica count, so a topic of one replica with
     * {@code min.insync.replicas=2} takes acks=all records (no NOT_ENOUGH_REPLICAS), commits them (the high
     * watermark moves, a read_uncommitted ListOffsets LATEST sees them) and is not counted under min ISR.
     */
    @Test
    void minInsyncReplicasAboveTheReplicaCountIsCappedAtIt() throws Exception {
        TopicPartition single = new TopicPartition("single-replica", 0);
        try (Admin admin = cluster.admin()) {
            admin.createTopics(List.of(new NewTopic(single.topic(), Map.of(0, List.of(0)))
                .configs(Map.of("min.insync.replicas", "2")))).all().get();
        }
        assertThat(cluster.awaitLeader(single)).isZero();
        try (KafkaProducer<byte[], byte[]> producer = cluster.producer(Map.of(ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.RETRIES_CONFIG, 0, ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000,
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 20_000))) {
            for (int i = 0; i < 3; i++) {
                producer.send(new ProducerRecord<>(single.topic(), 0, null, new byte[] {(byte) i})).get();
            }
        }
        try (Admin admin = cluster.admin()) {
            assertThat(admin.listOffsets(Map.of(single, OffsetSpec.latest()),
                    new org.apache.kafka.clients.admin.ListOffsetsOptions(org.apache.kafka.common.IsolationLevel.READ_UNCOMMITTED))
                .partitionResult(single).get().offset()).as("the high watermark").isEqualTo(3);
        }
        assertThat(cluster.replica(0, single).orElseThrow().log().orElseThrow().highWatermark()).isEqualTo(3);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
            assertThat(cluster.broker(0).replicaManager().underMinIsrPartitionCount()).as("UnderMinIsrPartitionCount")
                .isZero());
    }
}
