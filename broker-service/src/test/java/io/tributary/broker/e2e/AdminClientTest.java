package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.broker.testing.TestBroker;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidPartitionsException;
import org.apache.kafka.common.errors.InvalidReplicationFactorException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Kafka's Admin client manages topics, configs and partitions and describes the cluster. */
class AdminClientTest {

    @TempDir
    static Path dir;
    static TestBroker broker;
    static Admin admin;

    @BeforeAll
    static void start() {
        broker = TestBroker.start(dir, Map.of("broker.num-partitions", "3"));
        admin = broker.admin();
    }

    @AfterAll
    static void stop() {
        admin.close();
        broker.close();
    }

    @Test
    void createDescribeListAndDeleteTopics() throws Exception {
        CreateTopicsResult created = admin.createTopics(List.of(new NewTopic("orders", 4, (short) 1),
            new NewTopic("defaults", java.util.Optional.empty(), java.util.Optional.empty())));
        created.all().get();
        assertThat(created.numPartitions("orders").get()).isEqualTo(4);
        assertThat(created.numPartitions("defaults").get()).isEqualTo(3);
        Uuid id = created.topicId("orders").get();
        assertThat(id).isNotEqualTo(Uuid.ZERO_UUID);

        assertThat(admin.listTopics().names().get()).contains("orders", "defaults");
        TopicDescription orders = admin.describeTopics(List.of("orders")).allTopicNames().get().get("orders");
        assertThat(orders.topicId()).isEqualTo(id);
        assertThat(orders.partitions()).hasSize(4);
        orders.partitions().forEach(p -> {
            assertThat(p.leader().id()).isEqualTo(0);
            assertThat(p.replicas()).extracting(Node::id).containsExactly(0);
            assertThat(p.isr()).extracting(Node::id).containsExactly(0);
        });

        admin.deleteTopics(List.of("orders")).all().get();
        assertThat(admin.listTopics().names().get()).doesNotContain("orders");
        assertThatThrownBy(() -> admin.describeTopics(List.of("orders")).allTopicNames().get())
            .hasCauseInstanceOf(UnknownTopicOrPartitionException.class);
        // A recreated topic gets a new id.
        admin.createTopics(List.of(new NewTopic("orders", 1, (short) 1))).all().get();
        assertThat(admin.describeTopics(List.of("orders")).allTopicNames().get().get("orders").topicId()).isNotEqualTo(id);
    }

    @Test
    void creationErrorsCarryKafkasErrorCodes() {
        assertThatThrownBy(() -> admin.createTopics(List.of(new NewTopic("replicated", 1, (short) 3))).all().get())
            .hasCauseInstanceOf(InvalidReplicationFactorException.class)
            .hasMessageContaining("larger than available brokers: 1");
        assertThatThrownBy(() -> admin.createTopics(List.of(new NewTopic("bad name!", 1, (short) 1))).all().get())
            .hasCauseInstanceOf(InvalidTopicException.class);
        assertThatThrownBy(() -> admin.createTopics(List.of(new NewTopic("badconfig", 1, (short) 1)
                .configs(Map.of("retention.ms", "soon")))).all().get())
            .hasCauseInstanceOf(InvalidConfigurationException.class);
        assertThatThrownBy(() -> admin.createTopics(List.of(new NewTopic("unknownconfig", 1, (short) 1)
                .configs(Map.of("no.such.config", "1")))).all().get())
            .hasCauseInstanceOf(InvalidConfigurationException.class);
    }

    @Test
    void existingTopicAndValidateOnly() throws Exception {
        admin.createTopics(List.of(new NewTopic("once", 1, (short) 1))).all().get();
        assertThatThrownBy(() -> admin.createTopics(List.of(new NewTopic("once", 1, (short) 1))).all().get())
            .hasCauseInstanceOf(TopicExistsException.class);
        admin.createTopics(List.of(new NewTopic("dry-run", 2, (short) 1)), new CreateTopicsOptions().validateOnly(true))
            .all().get();
        assertThat(admin.listTopics().names().get()).doesNotContain("dry-run");
    }

    @Test
    void describeClusterNamesTheBrokerAndController() throws Exception {
        DescribeClusterResult cluster = admin.describeCluster();
        Collection<Node> nodes = cluster.nodes().get();
        assertThat(nodes).extracting(Node::id).containsExactly(0);
        assertThat(cluster.controller().get().id()).isEqualTo(0);
        assertThat(cluster.clusterId().get()).isNotBlank();
    }

    @Test
    void alterAndDescribeTopicConfigs() throws Exception {
        admin.createTopics(List.of(new NewTopic("configured", 1, (short) 1)
            .configs(Map.of("retention.ms", "3600000")))).all().get();
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, "configured");
        Config config = admin.describeConfigs(List.of(resource)).all().get().get(resource);
        assertThat(config.get("retention.ms").value()).isEqualTo("3600000");
        assertThat(config.get("retention.ms").source()).isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG);
        assertThat(config.get("cleanup.policy").value()).isEqualTo("delete");
        assertThat(config.get("segment.bytes").source()).isEqualTo(ConfigEntry.ConfigSource.DEFAULT_CONFIG);

        admin.incrementalAlterConfigs(Map.of(resource, List.of(
            new AlterConfigOp(new ConfigEntry("max.message.bytes", "2048"), AlterConfigOp.OpType.SET),
            new AlterConfigOp(new ConfigEntry("retention.ms", ""), AlterConfigOp.OpType.DELETE),
            new AlterConfigOp(new ConfigEntry("cleanup.policy", "compact"), AlterConfigOp.OpType.APPEND)))).all().get();
        Config altered = admin.describeConfigs(List.of(resource)).all().get().get(resource);
        assertThat(altered.get("max.message.bytes").value()).isEqualTo("2048");
        assertThat(altered.get("retention.ms").value()).isEqualTo("604800000");
        assertThat(altered.get("retention.ms").source()).isEqualTo(ConfigEntry.ConfigSource.DEFAULT_CONFIG);
        assertThat(altered.get("cleanup.policy").value()).isEqualTo("delete,compact");

        assertThatThrownBy(() -> admin.incrementalAlterConfigs(Map.of(resource, List.of(
            new AlterConfigOp(new ConfigEntry("segment.bytes", "100"), AlterConfigOp.OpType.SET)))).all().get())
            .hasCauseInstanceOf(InvalidConfigurationException.class);
    }

    @Test
    void alteredMaxMessageBytesIsEnforcedOnProduce() throws Exception {
        admin.createTopics(List.of(new NewTopic("small-messages", 1, (short) 1))).all().get();
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, "small-messages");
        admin.incrementalAlterConfigs(Map.of(resource, List.of(
            new AlterConfigOp(new ConfigEntry("max.message.bytes", "1000"), AlterConfigOp.OpType.SET)))).all().get();
        try (KafkaProducer<byte[], byte[]> producer = broker.producer(Map.of("retries", 0))) {
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).untilAsserted(() ->
                assertThatThrownBy(() -> producer.send(new ProducerRecord<>("small-messages", new byte[2000])).get())
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(org.apache.kafka.common.errors.RecordTooLargeException.class));
            producer.send(new ProducerRecord<>("small-messages", new byte[100])).get();
        }
    }

    @Test
    void createPartitionsAddsPartitionsWithLeaders() throws Exception {
        admin.createTopics(List.of(new NewTopic("growing", 2, (short) 1))).all().get();
        admin.createPartitions(Map.of("growing", NewPartitions.increaseTo(5))).all().get();
        TopicDescription description = admin.describeTopics(List.of("growing")).allTopicNames().get().get("growing");
        assertThat(description.partitions()).hasSize(5);
        assertThat(description.partitions()).allSatisfy(p -> assertThat(p.leader()).isNotNull());
        assertThatThrownBy(() -> admin.createPartitions(Map.of("growing", NewPartitions.increaseTo(3))).all().get())
            .hasCauseInstanceOf(InvalidPartitionsException.class);
        try (KafkaProducer<byte[], byte[]> producer = broker.producer(Map.of())) {
            assertThat(producer.send(new ProducerRecord<>("growing", 4, null, new byte[]{1})).get().offset()).isZero();
        }
    }

    @Test
    void describeLogDirsReportsPartitionSizes() throws Exception {
        admin.createTopics(List.of(new NewTopic("sized", 1, (short) 1))).all().get();
        try (KafkaProducer<byte[], byte[]> producer = broker.producer(Map.of())) {
            producer.send(new ProducerRecord<>("sized", 0, null, new byte[5000])).get();
        }
        Map<String, LogDirDescription> dirs = admin.describeLogDirs(List.of(0)).allDescriptions().get().get(0);
        assertThat(dirs).hasSize(1);
        LogDirDescription logDir = dirs.values().iterator().next();
        assertThat(logDir.replicaInfos().get(new TopicPartition("sized", 0)).size()).isGreaterThan(5000);
        assertThat(logDir.totalBytes()).isPresent();
        assertThat(logDir.usableBytes()).isPresent();
    }

    @Test
    void deleteRecordsMovesTheLogStartOffset() throws Exception {
        admin.createTopics(List.of(new NewTopic("trimmed", 1, (short) 1))).all().get();
        try (KafkaProducer<byte[], byte[]> producer = broker.producer(Map.of())) {
            for (int i = 0; i < 10; i++) {
                producer.send(new ProducerRecord<>("trimmed", 0, null, new byte[]{(byte) i})).get();
            }
        }
        TopicPartition tp = new TopicPartition("trimmed", 0);
        long low = admin.deleteRecords(Map.of(tp, org.apache.kafka.clients.admin.RecordsToDelete.beforeOffset(4)))
            .lowWatermarks().get(tp).get().lowWatermark();
        assertThat(low).isEqualTo(4);
        assertThat(admin.listOffsets(Map.of(tp, org.apache.kafka.clients.admin.OffsetSpec.earliest())).partitionResult(tp)
            .get().offset()).isEqualTo(4);
        assertThat(admin.listOffsets(Map.of(tp, org.apache.kafka.clients.admin.OffsetSpec.latest())).partitionResult(tp)
            .get().offset()).isEqualTo(10);
        assertThatThrownBy(() -> admin.deleteRecords(Map.of(tp,
                org.apache.kafka.clients.admin.RecordsToDelete.beforeOffset(50))).all().get())
            .hasCauseInstanceOf(org.apache.kafka.common.errors.OffsetOutOfRangeException.class);
    }

    @Test
    void describeBrokerConfigsUsesKafkasNames() throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.BROKER, "0");
        Config config = admin.describeConfigs(List.of(resource)).all().get().get(resource);
        assertThat(config.get("num.partitions").value()).isEqualTo("3");
        assertThat(config.get("log.segment.bytes").value()).isEqualTo("1073741824");
        assertThat(config.get("broker.id").value()).isEqualTo("0");
        assertThat(Set.of(config.get("num.partitions").source())).containsExactly(ConfigEntry.ConfigSource.STATIC_BROKER_CONFIG);
    }
}
