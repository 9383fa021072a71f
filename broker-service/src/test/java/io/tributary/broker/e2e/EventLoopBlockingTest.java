package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.TestCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Future;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.blockhound.BlockHound;

/**
 * Nothing blocks a broker's Netty event loop (DESIGN.md section 3): BlockHound watches every
 * {@code kafka-network-*} and {@code kafka-acceptor-*} thread of a three-broker cluster while a
 * workload that rolls, flushes and compacts runs through it: an idempotent acks=all producer on a
 * replicated topic with 2 KiB segments and {@code flush.messages=1} (a roll and an fsync
 * nearly every batch; followers fetching), a keyed producer on a compacted topic with the cleaner
 * busy, and a consumer group reading and committing offsets. Share fetches and acknowledgements
 * (KIP-932) write share-partition state through the share coordinator, on this broker or another,
 * and so do share groups' offsets listed, altered and deleted by the admin client.
 *
 * <p>A third topic takes the produce path that network threads serve themselves (1 MiB segments,
 * no forced flushes): its appends into the page cache inside {@code LogSegment.append} are the one
 * file I/O allowed there, and the test checks that path was taken.
 *
 * <p>Blocking means what BlockHound counts by default (sleeping, waiting, parking on a contended
 * lock or a latch, such as a synchronous ZooKeeper call, stream and socket I/O) plus the file
 * channel's reads, writes and {@code force}, and a mapped index's {@code force}. Each blocking call
 * is recorded with its stack, not thrown, so the workload runs to its end and the first one is
 * reported. Sending file slices ({@code sendfile}) is the event loop's own work and stays there.
 *
 * <p>Runs in a JVM of its own (the {@code event-loop-blocking} Surefire execution), since BlockHound
 * instruments the JDK for the whole JVM and needs {@code -XX:+AllowRedefinitionToAddDeleteMethods}.
 */
class EventLoopBlockingTest {

    private static final Queue<Throwable> blockingCalls = new ConcurrentLinkedQueue<>();

    @TempDir
    static Path dir;
    static TestCluster cluster;

    @BeforeAll
    static void installBlockHoundAndStart() throws Exception {
        BlockHound.builder()
            .loadIntegrations() // Netty's own allowances
            .nonBlockingThreadPredicate(ignored -> EventLoopBlockingTest::isBrokerEventLoop)
            .markAsBlocking("sun.nio.ch.FileChannelImpl", "force", "(Z)V")
            .markAsBlocking("sun.nio.ch.FileChannelImpl", "write", "(Ljava/nio/ByteBuffer;)I")
            .markAsBlocking("sun.nio.ch.FileChannelImpl", "write", "(Ljava/nio/ByteBuffer;J)I")
            .markAsBlocking("sun.nio.ch.FileChannelImpl", "read", "(Ljava/nio/ByteBuffer;)I")
            .markAsBlocking("sun.nio.ch.FileChannelImpl", "read", "(Ljava/nio/ByteBuffer;J)I")
            .markAsBlocking("java.nio.MappedByteBuffer", "force", "()Ljava/nio/MappedByteBuffer;")
            // The one I/O a network thread may do: a produce it serves appends to the page cache
            // (docs/broker-internals.md, "Produce on the network thread").
            .allowBlockingCallsInside("io.tributary.broker.log.LogSegment", "append")
            // Netty's adaptive allocator frees a magazine under the magazine's StampedLock when it
            // grows its magazines on contention (event loops of three brokers share it here). The lock
            // guards a few in-memory fields, never I/O; Netty's own integration (4.2.15) does not list it.
            .allowBlockingCallsInside("io.netty.buffer.AdaptivePoolingAllocator$Magazine", "free")
            .blockingMethodCallback(method -> blockingCalls.add(
                new AssertionError(method + " on " + Thread.currentThread().getName())))
            .install();
        assertBlockHoundWatchesEventLoops();
        cluster = TestCluster.start(dir, 3, Map.of(
            "broker.log-segment-bytes", "2048", // below a topic's minimum segment.bytes (1 MiB)
            "broker.log-cleaner-backoff-ms", "100",
            "broker.num-network-threads", "1",
            "broker.share-coordinator-state-topic-num-partitions", "3",
            // A share group's partitions are assigned at the heartbeat after their state exists: 500 ms, not 5 s.
            "broker.group-share-heartbeat-interval-ms", "500"));
    }

    /** A park on a thread named like an event loop is caught: the test cannot pass for want of instrumentation. */
    private static void assertBlockHoundWatchesEventLoops() throws Exception {
        Thread canary = new Thread(() -> java.util.concurrent.locks.LockSupport.parkNanos(1_000), "kafka-network-canary");
        canary.start();
        canary.join();
        assertThat(blockingCalls).as("BlockHound catches a park on an event loop").hasSize(1);
        blockingCalls.clear();
    }

    private static boolean isBrokerEventLoop(Thread thread) {
        String name = thread.getName();
        return name.startsWith("kafka-network-") || name.startsWith("kafka-acceptor-");
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void rollsFlushesReplicationCompactionAndGroupsNeverBlockAnEventLoop() throws Exception {
        try (Admin admin = cluster.admin()) {
            admin.createTopics(List.of(
                new NewTopic("rolled", 2, (short) 3).configs(Map.of(
                    "flush.messages", "1", "min.insync.replicas", "2")),
                new NewTopic("inline", 2, (short) 3).configs(Map.of(
                    "segment.bytes", "1048576", "min.insync.replicas", "2")),
                new NewTopic("compacted", 1, (short) 3).configs(Map.of(
                    "cleanup.policy", "compact", "min.cleanable.dirty.ratio", "0.01",
                    "delete.retention.ms", "0", "flush.messages", "1"))))
                .all().get();
        }
        int records = 600;
        try (KafkaProducer<byte[], byte[]> producer = cluster.producer(Map.of(
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.LINGER_MS_CONFIG, 0))) {
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            for (int i = 0; i < records; i++) {
                sent.add(producer.send(new ProducerRecord<>("rolled", i % 2, null, bytes("value-" + i))));
                sent.add(producer.send(new ProducerRecord<>("compacted", bytes("key-" + (i % 10)), bytes("value-" + i))));
                if (i % 50 == 49) {
                    producer.flush(); // small batches: many appends, rolls and fsyncs
                }
            }
            for (Future<RecordMetadata> f : sent) {
                f.get();
            }
        }
        // A producer of its own: a request that also holds a forced-flush topic's batches goes to the handler threads whole.
        try (KafkaProducer<byte[], byte[]> producer = cluster.producer(Map.of(
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.LINGER_MS_CONFIG, 0))) {
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            for (int i = 0; i < records; i++) {
                sent.add(producer.send(new ProducerRecord<>("inline", i % 2, null, bytes("value-" + i))));
            }
            for (Future<RecordMetadata> f : sent) {
                f.get();
            }
        }
        Set<String> read = new HashSet<>();
        try (KafkaConsumer<byte[], byte[]> consumer = cluster.consumer(Map.of(
                ConsumerConfig.GROUP_ID_CONFIG, "readers", ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false, ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 50))) {
            consumer.subscribe(List.of("rolled"));
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    read.add(new String(r.value(), StandardCharsets.UTF_8));
                }
                consumer.commitSync();
                return read.size() == records;
            });
        }
        // The cleaner has rewritten the compacted topic's old segments (it swaps them under the log's lock).
        TopicPartition compacted = new TopicPartition("compacted", 0);
        await().atMost(Duration.ofSeconds(60)).until(() -> cluster.brokerIds().stream().anyMatch(id ->
            cluster.broker(id).logManager().cleaner().map(c -> c.checkpoints().getOrDefault(compacted, 0L) > 0)
                .orElse(false)));

        assertThat(read).hasSize(records);
        double producesOnNetworkThreads = cluster.brokerIds().stream().mapToDouble(id -> cluster.broker(id)
            .meterRegistry().find("tributary.network.requests.on.network.thread").tag("request", "Produce")
            .counters().stream().mapToDouble(io.micrometer.core.instrument.Counter::count).sum()).sum();
        assertThat(producesOnNetworkThreads).as("produces served on network threads").isPositive();
        assertThat(blockingCalls)
            .withFailMessage(() -> "blocking calls on an event loop, the first: " + stackOf(blockingCalls.peek()))
            .isEmpty();
    }

    @Test
    void shareFetchesAndTheirStateWritesNeverBlockAnEventLoop() throws Exception {
        org.apache.kafka.common.Uuid topicId;
        try (Admin admin = cluster.admin()) {
            admin.createTopics(List.of(new NewTopic("queued", 3, (short) 3), new NewTopic("dlq.sharers", 1, (short) 3)
                .configs(Map.of("errors.deadletterqueue.group.enable", "true")))).all().get();
            admin.updateFeatures(Map.of("share.version", new org.apache.kafka.clients.admin.FeatureUpdate((short) 1,
                org.apache.kafka.clients.admin.FeatureUpdate.UpgradeType.UPGRADE)),
                new org.apache.kafka.clients.admin.UpdateFeaturesOptions()).all().get();
            org.apache.kafka.common.config.ConfigResource group = new org.apache.kafka.common.config.ConfigResource(
                org.apache.kafka.common.config.ConfigResource.Type.GROUP, "sharers");
            // Records of partition 0 are rejected: copied to the group's dead-letter topic (KIP-1191).
            admin.incrementalAlterConfigs(Map.of(group, Map.of("share.auto.offset.reset", "earliest",
                    "errors.deadletterqueue.topic.name", "dlq.sharers", "errors.deadletterqueue.copy.record.enable", "true")
                .entrySet().stream().map(e -> new org.apache.kafka.clients.admin.AlterConfigOp(
                    new org.apache.kafka.clients.admin.ConfigEntry(e.getKey(), e.getValue()),
                    org.apache.kafka.clients.admin.AlterConfigOp.OpType.SET)).toList())).all().get();
            topicId = admin.describeTopics(List.of("queued")).allTopicNames().get().get("queued").topicId();
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> cluster.brokerIds().stream().allMatch(id ->
            cluster.broker(id).metadataCache().finalizedFeatures().level("share.version") >= 1));
        try (KafkaProducer<byte[], byte[]> producer = cluster.producer(Map.of(ProducerConfig.ACKS_CONFIG, "all"))) {
            for (int i = 0; i < 30; i++) {
                producer.send(new ProducerRecord<>("queued", i % 3, null, bytes("shared-" + i)));
            }
            producer.flush();
        }
        long[] rejected = {0};
        for (int partition = 0; partition < 3; partition++) {
            int leader = cluster.awaitLeader(new TopicPartition("queued", partition));
            var endPoint = cluster.broker(leader).boundEndPoints().get(0);
            String member = org.apache.kafka.common.Uuid.randomUuid().toString();
            int index = partition;
            try (io.tributary.broker.testing.WireClient client = io.tributary.broker.testing.WireClient.connect(
                    endPoint.host() + ":" + endPoint.port())) {
                org.apache.kafka.common.message.ShareFetchRequestData fetch =
                    new org.apache.kafka.common.message.ShareFetchRequestData().setGroupId("sharers").setMemberId(member)
                        .setShareSessionEpoch(0).setMaxWaitMs(1000).setMinBytes(1).setMaxBytes(1 << 20)
                        .setMaxRecords(100).setBatchSize(100);
                fetch.topics().add(new org.apache.kafka.common.message.ShareFetchRequestData.FetchTopic().setTopicId(topicId));
                fetch.topics().iterator().next().partitions().add(
                    new org.apache.kafka.common.message.ShareFetchRequestData.FetchPartition().setPartitionIndex(index));
                org.apache.kafka.common.requests.ShareFetchResponse fetched = client.send(
                    new org.apache.kafka.common.requests.ShareFetchRequest.Builder(fetch).build((short) 2));
                var acquired = fetched.data().responses().iterator().next().partitions().get(0).acquiredRecords();
                assertThat(acquired).as("records of partition " + index).isNotEmpty();
                if (index == 0) {
                    acquired.forEach(a -> rejected[0] += a.lastOffset() - a.firstOffset() + 1);
                }
                org.apache.kafka.common.message.ShareAcknowledgeRequestData ack =
                    new org.apache.kafka.common.message.ShareAcknowledgeRequestData().setGroupId("sharers")
                        .setMemberId(member).setShareSessionEpoch(1);
                ack.topics().add(new org.apache.kafka.common.message.ShareAcknowledgeRequestData.AcknowledgeTopic()
                    .setTopicId(topicId));
                ack.topics().iterator().next().partitions().add(
                    new org.apache.kafka.common.message.ShareAcknowledgeRequestData.AcknowledgePartition()
                        .setPartitionIndex(index).setAcknowledgementBatches(acquired.stream().map(a ->
                            new org.apache.kafka.common.message.ShareAcknowledgeRequestData.AcknowledgementBatch()
                                .setFirstOffset(a.firstOffset()).setLastOffset(a.lastOffset())
                                .setAcknowledgeTypes(List.of((byte) (index == 0 ? 3 : 1)))).toList()));
                org.apache.kafka.common.requests.ShareAcknowledgeResponse acked = client.send(
                    new org.apache.kafka.common.requests.ShareAcknowledgeRequest.Builder(ack).build((short) 2));
                assertThat(acked.data().responses().iterator().next().partitions().get(0).errorCode())
                    .as("acknowledged, its state written").isZero();
            }
        }
        TopicPartition dead = new TopicPartition("dlq.sharers", 0);
        try (Admin admin = cluster.admin()) {
            await().atMost(Duration.ofSeconds(30)).until(() -> admin.listOffsets(Map.of(dead,
                    org.apache.kafka.clients.admin.OffsetSpec.latest())).partitionResult(dead).get().offset() == rejected[0]);
        }
        assertThat(blockingCalls)
            .withFailMessage(() -> "blocking calls on an event loop, the first: " + stackOf(blockingCalls.peek()))
            .isEmpty();
    }

    @Test
    void shareGroupOffsetsListedAlteredAndDeletedNeverBlockAnEventLoop() throws Exception {
        try (Admin admin = cluster.admin()) {
            admin.createTopics(List.of(new NewTopic("offsetted", 3, (short) 3))).all().get();
            admin.updateFeatures(Map.of("share.version", new org.apache.kafka.clients.admin.FeatureUpdate((short) 1,
                org.apache.kafka.clients.admin.FeatureUpdate.UpgradeType.UPGRADE)),
                new org.apache.kafka.clients.admin.UpdateFeaturesOptions()).all().get();
            admin.incrementalAlterConfigs(Map.of(new org.apache.kafka.common.config.ConfigResource(
                org.apache.kafka.common.config.ConfigResource.Type.GROUP, "offsetters"), List.of(
                    new org.apache.kafka.clients.admin.AlterConfigOp(new org.apache.kafka.clients.admin.ConfigEntry(
                        "share.auto.offset.reset", "earliest"), org.apache.kafka.clients.admin.AlterConfigOp.OpType.SET))))
                .all().get();
            await().atMost(Duration.ofSeconds(30)).until(() -> cluster.brokerIds().stream().allMatch(id ->
                cluster.broker(id).metadataCache().finalizedFeatures().level("share.version") >= 1));
            try (KafkaProducer<byte[], byte[]> producer = cluster.producer(Map.of(ProducerConfig.ACKS_CONFIG, "all"))) {
                for (int i = 0; i < 9; i++) {
                    producer.send(new ProducerRecord<>("offsetted", i % 3, null, bytes("offset-" + i)));
                }
                producer.flush();
            }
            Map<String, Object> settings = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "offsetters");
            try (org.apache.kafka.clients.consumer.KafkaShareConsumer<byte[], byte[]> consumer =
                     new org.apache.kafka.clients.consumer.KafkaShareConsumer<>(settings,
                         new org.apache.kafka.common.serialization.ByteArrayDeserializer(),
                         new org.apache.kafka.common.serialization.ByteArrayDeserializer())) {
                consumer.subscribe(List.of("offsetted"));
                List<byte[]> received = new ArrayList<>();
                await().atMost(Duration.ofSeconds(60)).until(() -> {
                    consumer.poll(Duration.ofMillis(100)).forEach(r -> received.add(r.value()));
                    return received.size() >= 9;
                });
                consumer.commitSync();
            }
            Map<String, org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec> all =
                Map.of("offsetters", new org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec());
            await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() ->
                assertThat(admin.listShareGroupOffsets(all).partitionsToOffsetInfo("offsetters").get().values())
                    .hasSize(3).allSatisfy(info -> assertThat(info.startOffset()).isEqualTo(3L)));
            await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> admin.alterShareGroupOffsets(
                "offsetters", Map.of(new TopicPartition("offsetted", 1), 0L)).all().get() == null);
            assertThat(admin.listShareGroupOffsets(all).partitionsToOffsetInfo("offsetters").get()
                .get(new TopicPartition("offsetted", 1)).startOffset()).isZero();
            admin.deleteShareGroupOffsets("offsetters", Set.of("offsetted")).all().get();
            assertThat(admin.listShareGroupOffsets(all).partitionsToOffsetInfo("offsetters").get()).isEmpty();
            admin.deleteShareGroups(List.of("offsetters")).all().get();
        }
        assertThat(blockingCalls)
            .withFailMessage(() -> "blocking calls on an event loop, the first: " + stackOf(blockingCalls.peek()))
            .isEmpty();
    }

    /** The first blocking call's stack, and how many of each kind (call and the broker frame that made it). */
    private static String stackOf(Throwable first) {
        if (first == null) {
            return "none";
        }
        Map<String, Long> kinds = new java.util.TreeMap<>();
        for (Throwable t : blockingCalls) {
            String caller = java.util.Arrays.stream(t.getStackTrace())
                .filter(f -> f.getClassName().startsWith("io.tributary.broker.") && !f.getClassName().endsWith("Test"))
                .findFirst().map(StackTraceElement::toString).orElse("?");
            kinds.merge(t.getMessage().replaceAll(" on .*", "") + " from " + caller, 1L, Long::sum);
        }
        var out = new java.io.StringWriter();
        first.printStackTrace(new java.io.PrintWriter(out));
        return blockingCalls.size() + " in all, by kind " + kinds + "\n" + out;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
