package io.tributary.broker.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.broker.testing.TestBroker;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ACLs made with CreateAcls are what the authorizer enforces, at once and after a restart (they
 * live in ZooKeeper), and go with DeleteAcls; only a principal with ALTER on the cluster may
 * change them.
 */
class AclEnforcementTest {

    private static final String JAAS = "org.apache.kafka.common.security.plain.PlainLoginModule required"
        + " username=\"admin\" password=\"admin-pw-9\" user_admin=\"admin-pw-9\" user_alice=\"alice-pw-8\";";

    @TempDir
    Path dir;

    private static Map<String, Object> client(TestBroker broker, String user, String password) {
        Map<String, Object> configs = new HashMap<>();
        configs.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        configs.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        configs.put(SaslConfigs.SASL_MECHANISM, "PLAIN");
        configs.put(SaslConfigs.SASL_JAAS_CONFIG, "org.apache.kafka.common.security.plain.PlainLoginModule required"
            + " username=\"" + user + "\" password=\"" + password + "\";");
        return configs;
    }

    private static void produce(TestBroker broker) throws Exception {
        Map<String, Object> configs = client(broker, "alice", "alice-pw-8");
        configs.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        configs.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        configs.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 15_000);
        configs.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 15_000);
        configs.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(configs)) {
            producer.send(new ProducerRecord<>("ledger", new byte[] {7})).get();
        }
    }

    @Test
    void aclsMadeWithCreateAclsAreEnforcedAndSurviveARestart() throws Exception {
        AclBinding aliceWrites = new AclBinding(new ResourcePattern(ResourceType.TOPIC, "ledger", PatternType.LITERAL),
            new AccessControlEntry("User:alice", "*", AclOperation.WRITE, AclPermissionType.ALLOW));
        try (TestBroker broker = TestBroker.start(dir.resolve("broker"), Map.of(
                "broker.listeners", "SASL_PLAINTEXT://127.0.0.1:" + TestBroker.freePort(),
                "broker.listener-security-protocol-map", "SASL_PLAINTEXT:SASL_PLAINTEXT",
                "broker.sasl-enabled-mechanisms", "PLAIN",
                "broker.sasl-mechanism-inter-broker-protocol", "PLAIN",
                "broker.sasl-jaas-config", JAAS,
                "broker.authorizer-class-name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
                "broker.super-users", "User:admin"))) {
            try (Admin admin = Admin.create(client(broker, "admin", "admin-pw-9"))) {
                admin.createTopics(List.of(new NewTopic("ledger", 1, (short) 1))).all().get();
            }
            assertThatThrownBy(() -> produce(broker)).cause().isInstanceOf(TopicAuthorizationException.class);
            try (Admin alice = Admin.create(client(broker, "alice", "alice-pw-8"))) {
                assertThatThrownBy(() -> alice.createAcls(List.of(aliceWrites)).all().get())
                    .as("only ALTER on the cluster may change ACLs").cause()
                    .isInstanceOf(ClusterAuthorizationException.class);
            }
            try (Admin admin = Admin.create(client(broker, "admin", "admin-pw-9"))) {
                admin.createAcls(List.of(aliceWrites)).all().get();
            }
            produce(broker);

            broker.restart();
            produce(broker);
            try (Admin admin = Admin.create(client(broker, "admin", "admin-pw-9"))) {
                assertThat(admin.describeAcls(AclBindingFilter.ANY).values().get()).containsExactly(aliceWrites);
                admin.deleteAcls(List.of(aliceWrites.toFilter())).all().get();
            }
            assertThatThrownBy(() -> produce(broker)).cause().isInstanceOf(TopicAuthorizationException.class);
        }
    }
}
