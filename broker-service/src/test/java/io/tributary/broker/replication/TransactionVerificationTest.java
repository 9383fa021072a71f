package io.tributary.broker.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.TestCluster;
import io.tributary.broker.testing.WireClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.ProduceResponse;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.message.TxnOffsetCommitRequestData;
import org.apache.kafka.common.requests.TxnOffsetCommitRequest;
import org.apache.kafka.common.requests.TxnOffsetCommitResponse;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * KIP-890 part 1 on a real two-broker cluster: a partition leader verifies a transaction's first
 * batch with the transaction coordinator before appending it, from memory when it is the
 * coordinator and over the inter-broker listener (AddPartitionsToTxn v5, verify only) when it is
 * not. A transaction of kafka-clients' producer across both brokers commits; a late transactional
 * batch, sent after its transaction committed, is refused on either broker and opens no hanging
 * transaction; so is a late TxnOffsetCommit, which opens none on the group's offsets partition.
 */
class TransactionVerificationTest {

    private static final String ID = "verified-app";

    @TempDir
    static Path dir;
    static TestCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        cluster = TestCluster.start(dir, 2, Map.of());
        try (Admin admin = cluster.admin()) {
            admin.createTopics(List.of(new NewTopic("on-zero", Map.of(0, List.of(0, 1))),
                new NewTopic("on-one", Map.of(0, List.of(1, 0))))).all().get();
        }
        assertThat(cluster.awaitLeader(new TopicPartition("on-zero", 0))).isZero();
        assertThat(cluster.awaitLeader(new TopicPartition("on-one", 0))).isEqualTo(1);
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void theLastStableOffsetLagShowsAnOpenTransactionUntilItEnds() throws Exception {
        TopicPartition lagging = new TopicPartition("lso-lag", 0);
        try (Admin admin = cluster.admin()) {
            admin.createTopics(List.of(new NewTopic(lagging.topic(), Map.of(0, List.of(0, 1))))).all().get();
        }
        io.micrometer.core.instrument.MeterRegistry meters = cluster.broker(cluster.awaitLeader(lagging)).meterRegistry();
        java.util.function.Supplier<Double> lag = () -> {
            io.micrometer.core.instrument.Gauge gauge = meters.find("kafka.cluster.partition.laststableoffsetlag")
                .tags("topic", lagging.topic(), "partition", "0").gauge();
            return gauge == null ? null : gauge.value();
        };
        try (KafkaProducer<byte[], byte[]> producer = cluster.producer(Map.of(
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, "lso-lag-app", ProducerConfig.MAX_BLOCK_MS_CONFIG, 30_000))) {
            producer.initTransactions();
            producer.beginTransaction();
            for (int i = 0; i < 3; i++) {
                producer.send(new ProducerRecord<>(lagging.topic(), 0, null, bytes("open-" + i))).get();
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> lag.get() != null && lag.get() == 3.0);
            producer.commitTransaction();
        }
        // The commit marker replicated: the high watermark passes it and the LSO is the high watermark again.
        await().atMost(Duration.ofSeconds(30)).until(() -> lag.get() == 0.0);
    }

    @Test
    void aTransactionAcrossBothBrokersIsVerifiedAndALateBatchOpensNoHangingTransaction() throws Exception {
        TopicPartition onZero = new TopicPartition("on-zero", 0);
        TopicPartition onOne = new TopicPartition("on-one", 0);
        // Counted from here: the other test's transaction may have been verified before.
        Map<Integer, Long> verifiedBefore = new java.util.HashMap<>();
        Map<Integer, Double> refusedBefore = new java.util.HashMap<>();
        for (int broker : List.of(0, 1)) {
            io.micrometer.core.instrument.MeterRegistry meters = cluster.broker(broker).meterRegistry();
            verifiedBefore.put(broker, meters.get("kafka.server.addpartitionstotxnmanager.verificationtimems")
                .summary().count());
            refusedBefore.put(broker, meters.get("kafka.server.addpartitionstotxnmanager.verificationfailurerate")
                .counter().count());
        }
        TransactionDescription committed;
        try (KafkaProducer<byte[], byte[]> producer = cluster.producer(Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, ID,
                ProducerConfig.MAX_BLOCK_MS_CONFIG, 30_000));
             Admin admin = cluster.admin()) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(onZero.topic(), 0, null, bytes("a"))).get();
            producer.send(new ProducerRecord<>(onOne.topic(), 0, null, bytes("b"))).get();
            producer.commitTransaction();
            await().atMost(Duration.ofSeconds(20)).until(() -> admin.describeTransactions(List.of(ID)).description(ID)
                .get().state() == org.apache.kafka.clients.admin.TransactionState.COMPLETE_COMMIT);
            committed = admin.describeTransactions(List.of(ID)).description(ID).get();
        }
        // The partitions are led by different brokers: one of them is verified from memory, the other
        // over the network; the late batches below are answered the coordinator's error through both.
        for (TopicPartition tp : List.of(onZero, onOne)) {
            int leader = cluster.awaitLeader(tp);
            try (WireClient client = WireClient.connect(cluster.broker(leader).bootstrapServers())) {
                ProduceResponseData.PartitionProduceResponse v12 = lateBatch(client, tp, committed, (short) 12);
                assertThat(Errors.forCode(v12.errorCode())).as("%s led by %d, coordinator %d", tp, leader,
                    committed.coordinatorId()).isEqualTo(Errors.TRANSACTION_ABORTABLE);
                ProduceResponseData.PartitionProduceResponse v9 = lateBatch(client, tp, committed, (short) 9);
                assertThat(Errors.forCode(v9.errorCode())).as("an older client gets INVALID_TXN_STATE")
                    .isEqualTo(Errors.INVALID_TXN_STATE);
            }
        }

        for (int broker : List.of(0, 1)) {
            io.micrometer.core.instrument.MeterRegistry meters = cluster.broker(broker).meterRegistry();
            assertThat(meters.get("kafka.server.addpartitionstotxnmanager.verificationtimems").summary().count()
                - verifiedBefore.get(broker))
                .as("broker %d verified the committed transaction's batch and the two late ones", broker).isEqualTo(3);
            assertThat(meters.get("kafka.server.addpartitionstotxnmanager.verificationfailurerate").counter().count()
                - refusedBefore.get(broker)).as("the late batches' partitions were not verified").isEqualTo(2);
            assertThat(meters.get("kafka.coordinator.transaction.transactionmarkerchannelmanager.pendingmarkers")
                .gauge().value()).isZero();
        }
        assertThat(cluster.broker(committed.coordinatorId()).meterRegistry()
            .get("kafka.server.transaction.coordinator.metrics.partition.load.time").summary().count())
            .as("the coordinator loaded its __transaction_state partitions").isPositive();

        try (Admin admin = cluster.admin();
             KafkaConsumer<byte[], byte[]> consumer = cluster.consumer(Map.of(
                 ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed", ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"))) {
            assertThat(admin.describeProducers(List.of(onZero, onOne)).all().get().values())
                .allSatisfy(state -> assertThat(state.activeProducers())
                    .allSatisfy(p -> assertThat(p.currentTransactionStartOffset()).isEmpty()));
            consumer.assign(List.of(onZero, onOne));
            assertThat(consumer.endOffsets(List.of(onZero, onOne))).as("no open transaction holds the LSO")
                .containsEntry(onZero, 2L).containsEntry(onOne, 2L);
            List<String> values = new ArrayList<>();
            await().atMost(Duration.ofSeconds(20)).until(() -> {
                consumer.poll(Duration.ofMillis(100)).forEach(r -> values.add(new String(r.value(), StandardCharsets.UTF_8)));
                return values.size() >= 2;
            });
            assertThat(values).containsExactlyInAnyOrder("a", "b");
        }
    }

    @Test
    void aLateTxnOffsetCommitIsRefusedAndOpensNoTransactionOnTheOffsetsPartition() throws Exception {
        String id = "offsets-app";
        String group = "verified-group";
        TopicPartition input = new TopicPartition("on-zero", 0);
        TransactionDescription committed;
        try (KafkaProducer<byte[], byte[]> producer = cluster.producer(Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, id,
                ProducerConfig.MAX_BLOCK_MS_CONFIG, 30_000));
             Admin admin = cluster.admin()) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(input.topic(), 0, null, bytes("with-offsets"))).get();
            producer.sendOffsetsToTransaction(Map.of(input, new OffsetAndMetadata(5)), new ConsumerGroupMetadata(group));
            producer.commitTransaction();
            await().atMost(Duration.ofSeconds(20)).until(() -> admin.describeTransactions(List.of(id)).description(id)
                .get().state() == org.apache.kafka.clients.admin.TransactionState.COMPLETE_COMMIT);
            committed = admin.describeTransactions(List.of(id)).description(id).get();
        }
        int groupCoordinator;
        try (Admin admin = cluster.admin()) {
            groupCoordinator = admin.describeConsumerGroups(List.of(group)).describedGroups().get(group).get()
                .coordinator().id();
        }
        // The committed transaction's producer commits offsets again, without a transaction open (a late
        // retry): the coordinator has not got the offsets partition in a transaction, so nothing is written.
        try (WireClient client = WireClient.connect(cluster.broker(groupCoordinator).bootstrapServers())) {
            for (short version : new short[] {3, 4}) {
                TxnOffsetCommitRequestData data = new TxnOffsetCommitRequestData().setTransactionalId(id)
                    .setGroupId(group).setProducerId(committed.producerId())
                    .setProducerEpoch((short) committed.producerEpoch());
                data.topics().add(new TxnOffsetCommitRequestData.TxnOffsetCommitRequestTopic().setName(input.topic())
                    .setPartitions(List.of(new TxnOffsetCommitRequestData.TxnOffsetCommitRequestPartition()
                        .setPartitionIndex(0).setCommittedOffset(99))));
                TxnOffsetCommitResponse response = client.send(new TxnOffsetCommitRequest(data, version));
                assertThat(Errors.forCode(response.data().topics().get(0).partitions().get(0).errorCode()))
                    .as("TxnOffsetCommit v%d", version)
                    .isEqualTo(version >= 4 ? Errors.TRANSACTION_ABORTABLE : Errors.INVALID_TXN_STATE);
            }
        }
        try (Admin admin = cluster.admin()) {
            int offsetsPartitions = admin.describeTopics(List.of("__consumer_offsets")).allTopicNames().get()
                .get("__consumer_offsets").partitions().size();
            TopicPartition offsetsPartition = new TopicPartition("__consumer_offsets",
                Utils.abs(group.hashCode()) % offsetsPartitions);
            assertThat(admin.describeProducers(List.of(offsetsPartition)).partitionResult(offsetsPartition).get()
                .activeProducers()).allSatisfy(p -> assertThat(p.currentTransactionStartOffset())
                    .as("no transaction open on %s", offsetsPartition).isEmpty());
            // A stable fetch would wait behind an open transaction's pending offsets; it answers the committed one.
            assertThat(admin.listConsumerGroupOffsets(Map.of(group, new ListConsumerGroupOffsetsSpec()),
                    new ListConsumerGroupOffsetsOptions().requireStable(true)).partitionsToOffsetAndMetadata(group)
                .get(30, java.util.concurrent.TimeUnit.SECONDS)).containsEntry(input, new OffsetAndMetadata(5));
        }
    }

    /** A transactional batch of the committed transaction's producer, next sequence, sent after the commit. */
    private static ProduceResponseData.PartitionProduceResponse lateBatch(WireClient client, TopicPartition tp,
            TransactionDescription txn, short version) throws Exception {
        MemoryRecords batch = MemoryRecords.withTransactionalRecords(Compression.NONE, txn.producerId(),
            (short) txn.producerEpoch(), 1, new SimpleRecord(bytes("late")));
        ProduceRequestData data = new ProduceRequestData().setAcks((short) -1).setTimeoutMs(30_000).setTransactionalId(ID);
        ProduceRequestData.TopicProduceData topic = new ProduceRequestData.TopicProduceData().setName(tp.topic());
        topic.partitionData().add(new ProduceRequestData.PartitionProduceData().setIndex(tp.partition()).setRecords(batch));
        data.topicData().add(topic);
        ProduceResponse response = client.send(new ProduceRequest(data, version));
        return response.data().responses().iterator().next().partitionResponses().get(0);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
