package io.tributary.broker.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.testing.TestBroker;
import io.tributary.broker.testing.WireClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.OffsetFetchRequestData;
import org.apache.kafka.common.message.SaslAuthenticateRequestData;
import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.MetadataResponse;
import org.apache.kafka.common.requests.OffsetFetchRequest;
import org.apache.kafka.common.requests.OffsetFetchResponse;
import org.apache.kafka.common.requests.SaslAuthenticateRequest;
import org.apache.kafka.common.requests.SaslAuthenticateResponse;
import org.apache.kafka.common.requests.SaslHandshakeRequest;
import org.apache.kafka.common.requests.SaslHandshakeResponse;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression tests of a security review: requests naming topics by id are authorized on the
 * topic the id stands for, and refusals do not reveal its name.
 */
class TopicIdAuthorizationTest {

    private static final String JAAS = "org.apache.kafka.common.security.plain.PlainLoginModule required"
        + " username=\"admin\" password=\"admin-pw-1\" user_admin=\"admin-pw-1\" user_alice=\"alice-pw-2\""
        + " user_bob=\"bob-pw-3\";";

    @TempDir
    static Path dir;
    static TestBroker broker;

    @BeforeAll
    static void start() throws Exception {
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
            admin.createTopics(List.of(new NewTopic("secret", 1, (short) 1), new NewTopic("payments", 1, (short) 1),
                new NewTopic("victim", 1, (short) 1))).all().get();
        }
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
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

    private static void allow(String user, ResourceType type, String name, AclOperation op) {
        broker.server().authorizer().aclsChanged(List.of(new AclBinding(new ResourcePattern(type, name,
            PatternType.LITERAL), new AccessControlEntry("User:" + user, "*", op, AclPermissionType.ALLOW))), List.of());
    }

    private static WireClient login(String user, String password) throws Exception {
        WireClient c = WireClient.connect(broker.bootstrapServers());
        SaslHandshakeResponse hs = c.send(new SaslHandshakeRequest.Builder(new SaslHandshakeRequestData()
            .setMechanism("PLAIN")).build((short) 1));
        assertThat(hs.error()).isEqualTo(Errors.NONE);
        SaslAuthenticateResponse auth = c.send(new SaslAuthenticateRequest.Builder(new SaslAuthenticateRequestData()
            .setAuthBytes(("\0" + user + "\0" + password).getBytes(StandardCharsets.UTF_8))).build((short) 2));
        assertThat(auth.error()).isEqualTo(Errors.NONE);
        return c;
    }

    private static Uuid topicId(String topic) throws Exception {
        try (Admin admin = Admin.create(client("admin", "admin-pw-1"))) {
            return admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).topicId();
        }
    }

    /** Metadata by topic id refuses a topic the caller may not describe without naming it (Kafka's answer). */
    @Test
    void metadataByTopicIdDoesNotRevealTheName() throws Exception {
        Uuid id = topicId("secret");
        try (WireClient bob = login("bob", "bob-pw-3")) {
            MetadataRequestData data = new MetadataRequestData().setAllowAutoTopicCreation(false);
            data.topics().add(new MetadataRequestData.MetadataRequestTopic().setTopicId(id).setName(null));
            MetadataResponse response = bob.send(new MetadataRequest.Builder(data).build((short) 12));
            var topic = response.data().topics().iterator().next();
            assertThat(topic.errorCode()).isEqualTo(Errors.TOPIC_AUTHORIZATION_FAILED.code());
            assertThat(topic.name()).isNull();
            assertThat(topic.topicId()).isEqualTo(id);
        }
    }

    /** OffsetFetch v10 (topic ids) with the ACLs a consumer needs answers the offsets, named or all. */
    @Test
    void offsetFetchV10AuthorizesTheTopicBehindTheId() throws Exception {
        allow("alice", ResourceType.GROUP, "g10", AclOperation.READ);
        allow("alice", ResourceType.TOPIC, "payments", AclOperation.READ);
        Map<String, Object> c = new HashMap<>(client("alice", "alice-pw-2"));
        c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        c.put(ConsumerConfig.GROUP_ID_CONFIG, "g10");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(c)) {
            consumer.commitSync(Map.of(new TopicPartition("payments", 0), new OffsetAndMetadata(0)));
        }
        Uuid id = topicId("payments");
        try (WireClient alice = login("alice", "alice-pw-2")) {
            OffsetFetchRequestData named = new OffsetFetchRequestData();
            named.groups().add(new OffsetFetchRequestData.OffsetFetchRequestGroup().setGroupId("g10")
                .setTopics(new ArrayList<>(List.of(new OffsetFetchRequestData.OffsetFetchRequestTopics().setTopicId(id)
                    .setPartitionIndexes(List.of(0))))));
            OffsetFetchResponse byId = alice.send(OffsetFetchRequest.Builder.forTopicIdsOrNames(named, false)
                .build((short) 10));
            var part = byId.data().groups().get(0).topics().get(0).partitions().get(0);
            OffsetFetchRequestData all = new OffsetFetchRequestData();
            all.groups().add(new OffsetFetchRequestData.OffsetFetchRequestGroup().setGroupId("g10").setTopics(null));
            OffsetFetchResponse allResponse = alice.send(OffsetFetchRequest.Builder.forTopicIdsOrNames(all, false)
                .build((short) 10));
            assertThat(part.errorCode()).isEqualTo(Errors.NONE.code());
            assertThat(part.committedOffset()).isZero();
            assertThat(allResponse.data().groups().get(0).topics()).extracting(t -> t.topicId()).containsExactly(id);
        }
    }
}
