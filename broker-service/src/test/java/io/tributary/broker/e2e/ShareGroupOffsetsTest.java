package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.KafkaTool;
import io.tributary.broker.testing.ShareConsumers;
import io.tributary.broker.testing.TestBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.SharePartitionOffsetInfo;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.GroupNotEmptyException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Share groups' offsets (KIP-932) with kafka-clients 4.4 and {@code kafka-share-groups}: the admin
 * client lists a share-partition's start offset once records are accepted, the tool prints it, resets
 * it to the earliest offset, to an offset and (for all the group's topics) to the latest, and deletes it for an empty group (refused while members remain), and
 * deleting the group deletes its share state. Lag (KIP-1226) counts the records from the start offset
 * to the high watermark not yet acknowledged or archived, out-of-order acknowledgements included, and
 * the tool's {@code --describe} prints it.
 */
class ShareGroupOffsetsTest {

    private static final String TOPIC = "queue";
    private static final String GROUP = "resetters";
    private static final TopicPartition TP = new TopicPartition(TOPIC, 0);
    private static final String TOOL = "org.apache.kafka.tools.consumer.group.ShareGroupCommand";

    @TempDir
    Path dir;

    private TestBroker broker;
    private Admin admin;

    @BeforeEach
    void start() throws Exception {
        broker = TestBroker.start(dir.resolve("broker"), Map.of("broker.group-share-heartbeat-interval-ms", "500"));
        admin = broker.admin();
        admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get();
        readFromTheStart();
        send(List.of("a", "b", "c", "d", "e"));
    }

    @AfterEach
    void stop() {
        admin.close();
        broker.close();
    }

    @Test
    void startOffsetsAreListedResetAndDeletedForAnEmptyGroup() throws Exception {
        try (KafkaShareConsumer<String, String> consumer =
                ShareConsumers.implicit(broker.bootstrapServers(), GROUP, TOPIC)) {
            assertThat(ShareConsumers.pollUntil(consumer, 5)).containsExactly("a", "b", "c", "d", "e");
            consumer.commitSync(); // accepts them
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(offsets().get(TP)).isNotNull().extracting(SharePartitionOffsetInfo::startOffset).isEqualTo(5L));
            assertThat(admin.listShareGroupOffsets(Map.of(GROUP, new ListShareGroupOffsetsSpec()
                .topicPartitions(List.of(TP)))).partitionsToOffsetInfo(GROUP).get().get(TP).startOffset()).isEqualTo(5L);

            KafkaTool.Result described = tool("--describe", "--group", GROUP, "--offsets");
            assertThat(described.exitCode()).as(described.output()).isZero();
            assertThat(described.output().lines().filter(l -> l.startsWith(GROUP + " ")).toList())
                .singleElement().satisfies(line -> assertThat(line.split("\\s+")).contains(TOPIC, "0", "5"));

            // Members remain: refused.
            assertThatThrownBy(() -> admin.alterShareGroupOffsets(GROUP, Map.of(TP, 0L)).all().get())
                .hasCauseInstanceOf(GroupNotEmptyException.class);
            assertThatThrownBy(() -> admin.deleteShareGroupOffsets(GROUP, Set.of(TOPIC)).all().get())
                .hasCauseInstanceOf(GroupNotEmptyException.class);
        }
        awaitEmpty();

        KafkaTool.Result reset = tool("--reset-offsets", "--group", GROUP, "--topic", TOPIC, "--to-earliest", "--execute");
        assertThat(reset.exitCode()).as(reset.output()).isZero();
        assertThat(offsets().get(TP).startOffset()).isZero();
        assertThat(offsets().get(TP).lag()).as("a reset starts the count again").isEqualTo(Optional.of(5L));
        try (KafkaShareConsumer<String, String> consumer =
                ShareConsumers.implicit(broker.bootstrapServers(), GROUP, TOPIC)) {
            assertThat(ShareConsumers.pollUntil(consumer, 5)).containsExactly("a", "b", "c", "d", "e");
            consumer.commitSync();
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(offsets().get(TP).startOffset()).isEqualTo(5L));
        }
        awaitEmpty();

        KafkaTool.Result toOffset = tool("--reset-offsets", "--group", GROUP, "--topic", TOPIC, "--to-offset", "3",
            "--execute");
        assertThat(toOffset.exitCode()).as(toOffset.output()).isZero();
        assertThat(offsets().get(TP).startOffset()).isEqualTo(3L);
        assertThat(offsets().get(TP).lag()).isEqualTo(Optional.of(2L));
        KafkaTool.Result toLatest = tool("--reset-offsets", "--group", GROUP, "--all-topics", "--to-latest", "--execute");
        assertThat(toLatest.exitCode()).as(toLatest.output()).isZero();
        assertThat(offsets().get(TP).startOffset()).isEqualTo(5L);

        KafkaTool.Result deleted = tool("--delete-offsets", "--group", GROUP, "--topic", TOPIC);
        assertThat(deleted.exitCode()).as(deleted.output()).isZero();
        assertThat(offsets()).doesNotContainKey(TP);
        // No state: the next consumer starts from share.auto.offset.reset (earliest).
        try (KafkaShareConsumer<String, String> consumer =
                ShareConsumers.implicit(broker.bootstrapServers(), GROUP, TOPIC)) {
            assertThat(ShareConsumers.pollUntil(consumer, 5)).containsExactly("a", "b", "c", "d", "e");
        }
    }

    @Test
    void lagFallsAsTheShareConsumerAcknowledges() throws Exception {
        Map<String, Object> p = new HashMap<>();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, GROUP);
        p.put("share.acknowledgement.mode", "explicit");
        try (KafkaShareConsumer<String, String> consumer = new KafkaShareConsumer<>(p, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of(TOPIC));
            List<ConsumerRecord<String, String>> records = new ArrayList<>();
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                consumer.poll(Duration.ofMillis(100)).forEach(records::add);
                return !records.isEmpty();
            });
            assertThat(records).as("one batch, one poll").hasSize(5);
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(offsets().get(TP)).isNotNull().extracting(SharePartitionOffsetInfo::lag)
                    .isEqualTo(Optional.of(5L)));

            // Offsets 0, 1 and 3: the start offset moves to 2 and offset 3 is complete past it.
            consumer.acknowledge(records.get(0), AcknowledgeType.ACCEPT);
            consumer.acknowledge(records.get(1), AcknowledgeType.ACCEPT);
            consumer.acknowledge(records.get(3), AcknowledgeType.ACCEPT);
            consumer.commitSync();
            SharePartitionOffsetInfo info = offsets().get(TP);
            assertThat(info.startOffset()).isEqualTo(2L);
            assertThat(info.lag()).isEqualTo(Optional.of(2L));

            KafkaTool.Result described = tool("--describe", "--group", GROUP);
            assertThat(described.exitCode()).as(described.output()).isZero();
            List<String> header = List.of(described.output().lines().filter(l -> l.startsWith("GROUP")).findFirst()
                .orElseThrow(() -> new AssertionError(described.output())).trim().split("\s+"));
            List<String> row = List.of(described.output().lines().filter(l -> l.startsWith(GROUP + " ")).findFirst()
                .orElseThrow(() -> new AssertionError(described.output())).trim().split("\s+"));
            assertThat(header).contains("LAG");
            assertThat(row.get(header.indexOf("LAG"))).as(described.output()).isEqualTo("2");

            consumer.acknowledge(records.get(2), AcknowledgeType.ACCEPT);
            consumer.acknowledge(records.get(4), AcknowledgeType.REJECT);
            consumer.commitSync();
            info = offsets().get(TP);
            assertThat(info.startOffset()).isEqualTo(5L);
            assertThat(info.lag()).isEqualTo(Optional.of(0L));
        }
        send(List.of("f", "g"));
        assertThat(offsets().get(TP).lag()).as("new records are lag until delivered").isEqualTo(Optional.of(2L));
    }

    @Test
    void deletingTheGroupDeletesItsShareState() throws Exception {
        try (KafkaShareConsumer<String, String> consumer =
                ShareConsumers.implicit(broker.bootstrapServers(), GROUP, TOPIC)) {
            assertThat(ShareConsumers.pollUntil(consumer, 5)).hasSize(5);
            consumer.commitSync();
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(offsets().get(TP)).isNotNull().extracting(SharePartitionOffsetInfo::startOffset).isEqualTo(5L));
        }
        awaitEmpty();
        admin.deleteShareGroups(List.of(GROUP)).all().get();

        // A new group of the same name starts afresh from share.auto.offset.reset, not at offset 5.
        readFromTheStart();
        try (KafkaShareConsumer<String, String> consumer =
                ShareConsumers.implicit(broker.bootstrapServers(), GROUP, TOPIC)) {
            assertThat(ShareConsumers.pollUntil(consumer, 5)).containsExactly("a", "b", "c", "d", "e");
        }
    }

    private Map<TopicPartition, SharePartitionOffsetInfo> offsets() throws Exception {
        return admin.listShareGroupOffsets(Map.of(GROUP, new ListShareGroupOffsetsSpec())).partitionsToOffsetInfo(GROUP)
            .get();
    }

    private void awaitEmpty() {
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() ->
            assertThat(admin.describeShareGroups(List.of(GROUP)).all().get().get(GROUP).groupState())
                .isEqualTo(GroupState.EMPTY));
    }

    private KafkaTool.Result tool(String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of("--bootstrap-server", broker.bootstrapServers()));
        all.addAll(List.of(args));
        return KafkaTool.run(null, TOOL, all.toArray(String[]::new));
    }

    private void readFromTheStart() throws Exception {
        admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, GROUP), List.of(
            new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", "earliest"), AlterConfigOp.OpType.SET))))
            .all().get();
    }



    private void send(List<String> values) {
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 1000); // the records of one send() call in one batch: flush() sends it
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
            values.forEach(v -> producer.send(new ProducerRecord<>(TOPIC, null, v)));
            producer.flush();
        }
    }
}
