package io.tributary.broker.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.broker.testing.LogCapture;
import io.tributary.broker.testing.TestBroker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What producers and consumers may do under Kafka's ACL rules, with real kafka-clients
 * authenticated as different users (SASL PLAIN): each API of the produce and consume paths is
 * refused with Kafka's exception without its ACL and works with it; prefixed ACLs, DENY over
 * ALLOW, hidden topics in Metadata, and the super user.
 */
class ClientAclMatrixTest {

    private static final String JAAS = "org.apache.kafka.common.security.plain.PlainLoginModule required"
        + " username=\"admin\" password=\"admin-pw-1\" user_admin=\"admin-pw-1\" user_alice=\"alice-pw-2\""
        + " user_bob=\"bob-pw-3\";";
    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    @TempDir
    static Path dir;
    static TestBroker broker;
    static LogCapture logs;
    private final List<AclBinding> granted = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        logs = LogCapture.open();
        broker = TestBroker.start(dir.resolve("broker"), Map.of(
            "broker.listeners", "SASL_PLAINTEXT://127.0.0.1:" + TestBroker.freePort(),
            "broker.listener-security-protocol-map", "SASL_PLAINTEXT:SASL_PLAINTEXT",
            "broker.sasl-enabled-mechanisms", "PLAIN",
            "broker.sasl-mechanism-inter-broker-protocol", "PLAIN",
            "broker.sasl-jaas-config", JAAS,
            "broker.authorizer-class-name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
            "broker.super-users", "User:admin",
            "broker.auto-create-topics-enable", "false"));
        try (Admin admin = Admin.create(client("admin", "admin-pw-1"))) {
            admin.createTopics(List.of(new NewTopic("orders", 1, (short) 1), new NewTopic("orders-eu", 1, (short) 1),
                new NewTopic("secret", 1, (short) 1), new NewTopic("payments", 1, (short) 1))).all().get();
        }
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
        try (LogCapture captured = logs) {
            captured.assertNoLineContains("admin-pw-1", "alice-pw-2", "bob-pw-3");
        }
    }

    @AfterEach
    void revoke() {
        broker.server().authorizer().aclsChanged(List.of(), granted);
        granted.clear();
    }

    private static Map<String, Object> client(String user, String password) {
        Map<String, Object> configs = new HashMap<>();
        configs.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        configs.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        configs.put(SaslConfigs.SASL_MECHANISM, "PLAIN");
        configs.put(SaslConfigs.SASL_JAAS_CONFIG, "org.apache.kafka.common.security.plain.PlainLoginModule required"
            + " username=\"" + user + "\" password=\"" + password + "\";");
        return configs;
    }

    private static Map<String, Object> alice() {
        return client("alice", "alice-pw-2");
    }

    private void allow(String user, ResourceType type, String name, PatternType pattern, AclOperation operation) {
        grant(new AclBinding(new ResourcePattern(type, name, pattern),
            new AccessControlEntry("User:" + user, "*", operation, AclPermissionType.ALLOW)));
    }

    private void deny(String user, ResourceType type, String name, AclOperation operation) {
        grant(new AclBinding(new ResourcePattern(type, name, PatternType.LITERAL),
            new AccessControlEntry("User:" + user, "*", operation, AclPermissionType.DENY)));
    }

    private void grant(AclBinding binding) {
        granted.add(binding);
        broker.server().authorizer().aclsChanged(List.of(binding), List.of());
    }

    private static KafkaProducer<byte[], byte[]> producer(Map<String, Object> configs) {
        Map<String, Object> p = new HashMap<>(configs);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) TIMEOUT.toMillis());
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        return new KafkaProducer<>(p);
    }

    private static KafkaConsumer<byte[], byte[]> consumer(Map<String, Object> configs, String group) {
        Map<String, Object> c = new HashMap<>(configs);
        c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        if (group != null) {
            c.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        }
        return new KafkaConsumer<>(c);
    }

    private static void send(Map<String, Object> configs, String topic) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = producer(configs)) {
            producer.send(new ProducerRecord<>(topic, "v".getBytes(StandardCharsets.UTF_8))).get();
        }
    }

    private static int pollAll(KafkaConsumer<byte[], byte[]> consumer, int atLeast) {
        int count = 0;
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (count < atLeast && System.nanoTime() < deadline) {
            count += consumer.poll(Duration.ofMillis(200)).count();
        }
        return count;
    }

    @Test
    void produceNeedsWriteOnTheTopicAndAnIdempotentProducerNeedsNothingMore() throws Exception {
        assertThatThrownBy(() -> send(alice(), "orders")).isInstanceOf(ExecutionException.class)
            .cause().isInstanceOf(TopicAuthorizationException.class);
        allow("alice", ResourceType.TOPIC, "orders", PatternType.LITERAL, AclOperation.WRITE);
        send(alice(), "orders"); // WRITE on a topic also lets InitProducerId through (KIP-679)
    }

    @Test
    void anIdempotentProducerWithoutWriteAnywhereIsRefusedAProducerId() {
        allow("bob", ResourceType.TOPIC, "payments", PatternType.LITERAL, AclOperation.DESCRIBE);
        // The refused InitProducerId fails the send's future, or, when its answer is in before the
        // send, the send itself (kafka-clients: "in an error state", caused by it): either is the refusal.
        Throwable refused = org.assertj.core.api.Assertions.catchThrowable(() -> send(client("bob", "bob-pw-3"), "payments"));
        assertThat(refused).isInstanceOfAny(ExecutionException.class, org.apache.kafka.common.KafkaException.class);
        assertThat(java.util.stream.Stream.iterate(refused, java.util.Objects::nonNull, Throwable::getCause))
            .as("the cause chain").hasAtLeastOneElementOfType(ClusterAuthorizationException.class);
        allow("bob", ResourceType.CLUSTER, "kafka-cluster", PatternType.LITERAL, AclOperation.IDEMPOTENT_WRITE);
        assertThatThrownBy(() -> send(client("bob", "bob-pw-3"), "payments")).isInstanceOf(ExecutionException.class)
            .cause().as("a producer id, then the topic refuses the write")
            .isInstanceOf(TopicAuthorizationException.class);
    }

    @Test
    void prefixedAclsCoverEveryTopicWithThePrefix() throws Exception {
        allow("alice", ResourceType.TOPIC, "orders-", PatternType.PREFIXED, AclOperation.WRITE);
        send(alice(), "orders-eu");
        assertThatThrownBy(() -> send(alice(), "orders")).cause().isInstanceOf(TopicAuthorizationException.class);
    }

    @Test
    void denyOverridesAllow() throws Exception {
        allow("alice", ResourceType.TOPIC, "*", PatternType.LITERAL, AclOperation.WRITE);
        deny("alice", ResourceType.TOPIC, "secret", AclOperation.WRITE);
        send(alice(), "payments");
        assertThatThrownBy(() -> send(alice(), "secret")).cause().isInstanceOf(TopicAuthorizationException.class);
    }

    @Test
    void aGroupConsumerNeedsReadOnTheGroupAndOnTheTopic() throws Exception {
        send(client("admin", "admin-pw-1"), "payments");
        allow("alice", ResourceType.TOPIC, "payments", PatternType.LITERAL, AclOperation.READ);
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(alice(), "billing")) {
            consumer.subscribe(List.of("payments"));
            assertThatThrownBy(() -> pollAll(consumer, 1)).isInstanceOf(GroupAuthorizationException.class);
        }
        allow("alice", ResourceType.GROUP, "billing", PatternType.LITERAL, AclOperation.READ);
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(alice(), "billing")) {
            consumer.subscribe(List.of("payments"));
            assertThat(pollAll(consumer, 1)).isPositive();
            consumer.commitSync();
            assertThat(consumer.committed(java.util.Set.of(new TopicPartition("payments", 0)))
                .get(new TopicPartition("payments", 0))).isNotNull();
        }
        allow("alice", ResourceType.GROUP, "ledger", PatternType.LITERAL, AclOperation.READ);
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(alice(), "ledger")) {
            consumer.assign(List.of(new TopicPartition("secret", 0)));
            assertThatThrownBy(() -> pollAll(consumer, 1)).isInstanceOf(TopicAuthorizationException.class);
            assertThatThrownBy(() -> consumer.commitSync(Map.of(new TopicPartition("secret", 0),
                new OffsetAndMetadata(0)))).isInstanceOf(TopicAuthorizationException.class);
        }
    }

    @Test
    void offsetsNeedDescribeOnTheTopic() {
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(alice(), null)) {
            assertThatThrownBy(() -> consumer.endOffsets(List.of(new TopicPartition("orders", 0)), TIMEOUT))
                .isInstanceOf(TopicAuthorizationException.class);
        }
        allow("alice", ResourceType.TOPIC, "orders", PatternType.LITERAL, AclOperation.DESCRIBE);
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(alice(), null)) {
            assertThat(consumer.endOffsets(List.of(new TopicPartition("orders", 0)), TIMEOUT)).hasSize(1);
        }
    }

    @Test
    void metadataHidesTopicsThePrincipalMayNotDescribe() throws Exception {
        allow("alice", ResourceType.TOPIC, "orders", PatternType.PREFIXED, AclOperation.READ);
        try (Admin admin = Admin.create(alice())) {
            assertThat(admin.listTopics().names().get()).containsExactlyInAnyOrder("orders", "orders-eu");
            assertThatThrownBy(() -> admin.describeTopics(List.of("secret")).allTopicNames().get())
                .cause().isInstanceOf(TopicAuthorizationException.class);
        }
        try (Admin admin = Admin.create(client("admin", "admin-pw-1"))) {
            assertThat(admin.listTopics().names().get()).contains("orders", "orders-eu", "secret", "payments");
        }
    }

    @Test
    void groupAdministrationNeedsDescribeAndDeleteOnTheGroup() throws Exception {
        allow("alice", ResourceType.GROUP, "audit", PatternType.LITERAL, AclOperation.READ);
        allow("alice", ResourceType.TOPIC, "payments", PatternType.LITERAL, AclOperation.READ);
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(alice(), "audit")) {
            consumer.commitSync(Map.of(new TopicPartition("payments", 0), new OffsetAndMetadata(0)));
        }
        try (Admin admin = Admin.create(client("bob", "bob-pw-3"))) {
            assertThat(admin.listConsumerGroups().all().get()).as("bob may describe no group").isEmpty();
            assertThatThrownBy(() -> admin.describeConsumerGroups(List.of("audit")).all().get())
                .cause().isInstanceOf(GroupAuthorizationException.class);
            assertThatThrownBy(() -> admin.deleteConsumerGroups(List.of("audit")).all().get())
                .cause().isInstanceOf(GroupAuthorizationException.class);
        }
        try (Admin admin = Admin.create(alice())) {
            assertThat(admin.listConsumerGroups().all().get()).extracting(g -> g.groupId()).contains("audit");
            assertThat(admin.listConsumerGroupOffsets("audit").partitionsToOffsetAndMetadata().get())
                .containsKey(new TopicPartition("payments", 0));
        }
        allow("alice", ResourceType.GROUP, "audit", PatternType.LITERAL, AclOperation.DELETE);
        try (Admin admin = Admin.create(alice())) {
            admin.deleteConsumerGroups(List.of("audit")).all().get();
        }
    }

    @Test
    void theSuperUserNeedsNoAcl() throws Exception {
        send(client("admin", "admin-pw-1"), "secret");
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(client("admin", "admin-pw-1"), "admins")) {
            consumer.subscribe(List.of("secret"));
            assertThat(pollAll(consumer, 1)).isPositive();
        }
    }
}
