package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.TestBroker;
import io.tributary.broker.testing.TestCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.FeatureUpdate;
import org.apache.kafka.clients.admin.UpdateFeaturesOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Share-group dead-letter topics (KIP-1191) with kafka-clients 4.4's {@link KafkaShareConsumer}: a
 * rejected record and one released at {@code share.delivery.count.limit} are written to the group's
 * {@code errors.deadletterqueue.topic.name} with Kafka's {@code __dlq.errors.*} headers, read back with a
 * plain {@link KafkaConsumer}; with and without {@code errors.deadletterqueue.copy.record.enable}; a
 * group without a dead-letter topic, or whose topic is missing while auto-creation is off, writes none.
 */
class ShareGroupDeadLetterTest {

    /** Members get their assignments in heartbeat responses: every 500 ms rather than Kafka's 5 s. */
    private static final String FAST_HEARTBEAT_SETTING = "broker.group-share-heartbeat-interval-ms";
    private static final String FAST_HEARTBEAT_MS = "500";
    private static final Map<String, Object> FAST_HEARTBEATS = Map.of(FAST_HEARTBEAT_SETTING, FAST_HEARTBEAT_MS);

    @TempDir
    Path dir;

    private TestBroker broker;
    private TestCluster cluster;
    private final List<AutoCloseable> clients = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : clients) {
            c.close();
        }
        if (broker != null) {
            broker.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void rejectedAndOverTheLimitRecordsGoToTheDeadLetterTopicWithHeadersOnly() throws Exception {
        broker = TestBroker.start(dir.resolve("broker"), FAST_HEARTBEATS);
        createTopic("orders", 1, Map.of());
        createTopic("dlq.orders", 1, Map.of("errors.deadletterqueue.group.enable", "true"));
        configureGroup("checkers", Map.of("errors.deadletterqueue.topic.name", "dlq.orders"));

        rejectOffsetZeroAndReleaseOffsetOneTwice("checkers", "orders");

        List<ConsumerRecord<String, String>> dead = readAll("dlq.orders", 2);
        assertThat(dead).extracting(r -> headers(r).get("__dlq.errors.offset")).containsExactlyInAnyOrder("0", "1");
        ConsumerRecord<String, String> rejected = byOffset(dead, "0");
        assertThat(headers(rejected)).containsEntry("__dlq.errors.topic", "orders")
            .containsEntry("__dlq.errors.partition", "0")
            .containsEntry("__dlq.errors.group", "checkers")
            .containsEntry("__dlq.errors.delivery.count", "1")
            .containsEntry("__dlq.errors.message", "Offset rejected by client.");
        assertThat(headers(byOffset(dead, "1"))).containsEntry("__dlq.errors.delivery.count", "2")
            .containsEntry("__dlq.errors.message", "Offset delivery count exceeded the threshold.");
        assertThat(dead).allSatisfy(r -> {
            assertThat(r.key()).isNull();
            assertThat(r.value()).isNull();
        });
    }

    @Test
    void withCopyEnabledTheKeyAndValueAreCopiedToATopicCreatedOnFirstUse() throws Exception {
        broker = TestBroker.start(dir.resolve("broker"), Map.of(FAST_HEARTBEAT_SETTING, FAST_HEARTBEAT_MS,
            "broker.errors-deadletterqueue-auto-create-topics-enable", "true"));
        createTopic("orders", 1, Map.of());
        configureGroup("copiers", Map.of("errors.deadletterqueue.topic.name", "dlq.copied",
            "errors.deadletterqueue.copy.record.enable", "true"));

        rejectOffsetZeroAndReleaseOffsetOneTwice("copiers", "orders");

        List<ConsumerRecord<String, String>> dead = readAll("dlq.copied", 2);
        assertThat(byOffset(dead, "0").key()).isEqualTo("k0");
        assertThat(byOffset(dead, "0").value()).isEqualTo("v0");
        assertThat(byOffset(dead, "1").value()).isEqualTo("v1");
        try (Admin admin = admin()) {
            assertThat(admin.describeConfigs(List.of(new ConfigResource(ConfigResource.Type.TOPIC, "dlq.copied")))
                .all().get().values().iterator().next().get("errors.deadletterqueue.group.enable").value())
                .isEqualTo("true");
        }
    }

    @Test
    void groupsWithoutATopicOrWhoseTopicIsMissingOrRefusedWriteNothing() throws Exception {
        broker = TestBroker.start(dir.resolve("broker"), FAST_HEARTBEATS);
        createTopic("orders", 1, Map.of());
        createTopic("dlq.orders", 1, Map.of("errors.deadletterqueue.group.enable", "true"));
        createTopic("dlq.disabled", 1, Map.of());
        createTopic("orders-dlq", 1, Map.of("errors.deadletterqueue.group.enable", "true"));
        configureGroup("plain", Map.of());
        configureGroup("missing", Map.of("errors.deadletterqueue.topic.name", "dlq.missing"));
        configureGroup("disabled", Map.of("errors.deadletterqueue.topic.name", "dlq.disabled"));
        // As in Kafka, a name without the prefix is accepted as a group config and refused when written.
        configureGroup("unprefixed", Map.of("errors.deadletterqueue.topic.name", "orders-dlq"));
        configureGroup("checkers", Map.of("errors.deadletterqueue.topic.name", "dlq.orders"));

        for (String group : List.of("plain", "missing", "disabled", "unprefixed", "checkers")) {
            rejectOffsetZeroAndReleaseOffsetOneTwice(group, "orders");
        }

        // One writer takes archived records in order: once the last group's are written, the others' were handled.
        List<ConsumerRecord<String, String>> dead = readAll("dlq.orders", 2);
        assertThat(dead).allSatisfy(r -> assertThat(headers(r)).containsEntry("__dlq.errors.group", "checkers"));
        try (Admin admin = admin()) {
            assertThat(admin.listTopics().names().get()).doesNotContain("dlq.missing");
            TopicPartition disabled = new TopicPartition("dlq.disabled", 0);
            TopicPartition unprefixed = new TopicPartition("orders-dlq", 0);
            assertThat(admin.listOffsets(Map.of(disabled, OffsetSpec.latest(), unprefixed, OffsetSpec.latest())).all().get())
                .allSatisfy((tp, info) -> assertThat(info.offset()).as(tp.toString()).isZero());
        }
    }

    @Test
    void anInternalNameIsRefusedWhenTheGroupConfigIsSet() throws Exception {
        broker = TestBroker.start(dir.resolve("broker"), FAST_HEARTBEATS);

        assertThatThrownBy(() -> configureGroup("g", Map.of("errors.deadletterqueue.topic.name", "__dlq")))
            .hasCauseInstanceOf(InvalidConfigurationException.class).hasMessageContaining("must not start with '__'");
    }

    @Test
    void aDeadLetterPartitionLedByAnotherBrokerIsWrittenWithAProduceRequest() throws Exception {
        cluster = TestCluster.start(dir, 2, FAST_HEARTBEATS);
        try (Admin admin = admin()) {
            admin.updateFeatures(Map.of("share.version", new FeatureUpdate((short) 1, FeatureUpdate.UpgradeType.UPGRADE)),
                new UpdateFeaturesOptions()).all().get();
            admin.createTopics(List.of(new NewTopic("orders", Map.of(0, List.of(0))),
                new NewTopic("dlq.orders", Map.of(0, List.of(1))).configs(Map.of("errors.deadletterqueue.group.enable", "true"))))
                .all().get();
        }
        configureGroup("checkers", Map.of("errors.deadletterqueue.topic.name", "dlq.orders",
            "errors.deadletterqueue.copy.record.enable", "true"));
        ConfigResource resource = new ConfigResource(ConfigResource.Type.GROUP, "checkers");
        try (Admin admin = admin()) {
            await().atMost(Duration.ofSeconds(15)).until(() -> "dlq.orders".equals(admin.describeConfigs(List.of(resource))
                .all().get().get(resource).get("errors.deadletterqueue.topic.name").value()));
        }

        rejectOffsetZeroAndReleaseOffsetOneTwice("checkers", "orders");

        List<ConsumerRecord<String, String>> dead = readAll("dlq.orders", 2);
        assertThat(byOffset(dead, "0").value()).isEqualTo("v0");
        assertThat(headers(byOffset(dead, "1"))).containsEntry("__dlq.errors.group", "checkers")
            .containsEntry("__dlq.errors.delivery.count", "2");
    }

    private Admin admin() {
        return broker != null ? broker.admin() : cluster.admin();
    }

    private String bootstrapServers() {
        return broker != null ? broker.bootstrapServers() : cluster.bootstrapServers();
    }

    /**
     * Writes k0/v0, k1/v1, k2/v2 (once per topic), then with {@code group} (delivery count limit 2):
     * rejects offset 0, accepts 2, releases 1 twice (archived at the limit).
     */
    private void rejectOffsetZeroAndReleaseOffsetOneTwice(String group, String topic) throws Exception {
        if (!produced) {
            produce(topic);
            produced = true;
        }
        KafkaShareConsumer<String, String> consumer = shareConsumer(group, topic);
        List<ConsumerRecord<String, String>> first = poll(consumer, 3);
        for (ConsumerRecord<String, String> r : first) {
            consumer.acknowledge(r, r.offset() == 0 ? AcknowledgeType.REJECT
                : r.offset() == 1 ? AcknowledgeType.RELEASE : AcknowledgeType.ACCEPT);
        }
        assertThat(consumer.commitSync().values()).allSatisfy(error -> assertThat(error).isEmpty());
        List<ConsumerRecord<String, String>> again = poll(consumer, 1);
        assertThat(again).extracting(ConsumerRecord::offset).containsExactly(1L);
        assertThat(again.get(0).deliveryCount()).contains((short) 2);
        consumer.acknowledge(again.get(0), AcknowledgeType.RELEASE);
        assertThat(consumer.commitSync().values()).allSatisfy(error -> assertThat(error).isEmpty());
    }

    private boolean produced;

    private void configureGroup(String group, Map<String, String> configs) throws Exception {
        Map<String, String> all = new LinkedHashMap<>(configs);
        all.put("share.auto.offset.reset", "earliest");
        all.put("share.delivery.count.limit", "2");
        List<AlterConfigOp> ops = new ArrayList<>();
        all.forEach((k, v) -> ops.add(new AlterConfigOp(new ConfigEntry(k, v), AlterConfigOp.OpType.SET)));
        try (Admin admin = admin()) {
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, group), ops)).all().get();
        }
    }

    private void createTopic(String topic, int partitions, Map<String, String> configs) throws Exception {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1).configs(configs))).all().get();
        }
    }

    private void produce(String topic) {
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
            for (int i = 0; i < 3; i++) {
                producer.send(new ProducerRecord<>(topic, 0, "k" + i, "v" + i,
                    List.<Header>of(new RecordHeader("origin", "test".getBytes(StandardCharsets.UTF_8)))));
            }
            producer.flush();
        }
    }

    private KafkaShareConsumer<String, String> shareConsumer(String group, String topic) {
        Map<String, Object> p = new HashMap<>();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        p.put("share.acknowledgement.mode", "explicit");
        KafkaShareConsumer<String, String> consumer = new KafkaShareConsumer<>(p, new StringDeserializer(),
            new StringDeserializer());
        clients.add(consumer);
        consumer.subscribe(List.of(topic));
        return consumer;
    }

    private static List<ConsumerRecord<String, String>> poll(KafkaShareConsumer<String, String> consumer, int count) {
        List<ConsumerRecord<String, String>> out = new ArrayList<>();
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            consumer.poll(Duration.ofMillis(100)).forEach(out::add);
            return out.size() >= count;
        });
        return out;
    }

    private List<ConsumerRecord<String, String>> readAll(String topic, int count) {
        Map<String, Object> p = new HashMap<>();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        KafkaConsumer<String, String> consumer = new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
        clients.add(consumer);
        List<ConsumerRecord<String, String>> out = new ArrayList<>();
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            List<TopicPartition> partitions = new ArrayList<>();
            consumer.partitionsFor(topic).forEach(info -> partitions.add(new TopicPartition(topic, info.partition())));
            if (!consumer.assignment().containsAll(partitions)) {
                consumer.assign(partitions);
                consumer.seekToBeginning(partitions);
            }
            consumer.poll(Duration.ofMillis(100)).forEach(out::add);
            return out.size() >= count;
        });
        return out;
    }

    private static ConsumerRecord<String, String> byOffset(List<ConsumerRecord<String, String>> records, String offset) {
        return records.stream().filter(r -> offset.equals(headers(r).get("__dlq.errors.offset"))).findFirst().orElseThrow();
    }

    private static Map<String, String> headers(ConsumerRecord<String, String> record) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (Header h : record.headers()) {
            headers.put(h.key(), new String(h.value(), StandardCharsets.UTF_8));
        }
        return headers;
    }
}
