package io.tributary.broker.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.broker.testing.LogCapture;
import io.tributary.broker.testing.TestBroker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker whose only listener is SASL_PLAINTEXT starts with its first users and ACLs from
 * {@code broker.bootstrap-scram-users} and {@code broker.bootstrap-acls}: the bootstrap admin (a
 * super user, also the brokers' own login) creates topics, a bootstrap ACL lets alice produce, a
 * restart neither duplicates the ACL nor resets a password changed through the API, and no
 * password reaches the log.
 */
class SecurityBootstrapTest {

    private static final String ADMIN_PASSWORD = "admin-pw-4711";
    /** Quoted in the setting: commas and semicolons are part of it. */
    private static final String ALICE_PASSWORD = "alice,pw;0815";
    private static final String ALICE_NEW_PASSWORD = "alice-changed-pw-42";

    @TempDir
    Path dir;

    private Map<String, Object> saslOnly(Path adminPasswordFile) {
        return Map.of(
            "broker.listeners", "SASL_PLAINTEXT://127.0.0.1:" + TestBroker.freePort(),
            "broker.listener-security-protocol-map", "SASL_PLAINTEXT:SASL_PLAINTEXT",
            "broker.inter-broker-listener-name", "SASL_PLAINTEXT",
            "broker.sasl-enabled-mechanisms", "SCRAM-SHA-512",
            "broker.sasl-mechanism-inter-broker-protocol", "SCRAM-SHA-512",
            "broker.sasl-jaas-config", jaas("admin", ADMIN_PASSWORD),
            "broker.authorizer-class-name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
            "broker.super-users", "User:admin",
            "broker.bootstrap-scram-users", "SCRAM-SHA-512=[name=admin,password-file=" + adminPasswordFile + "];"
                + " SCRAM-SHA-512=[name=alice,password=\"" + ALICE_PASSWORD + "\",iterations=8192]",
            "broker.bootstrap-acls", "principal=User:alice, operation=Write, resource-type=Topic, resource-name=orders");
    }

    private static String jaas(String user, String password) {
        return "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + user + "\" password=\""
            + password + "\";";
    }

    private static Map<String, Object> client(TestBroker broker, String user, String password) {
        Map<String, Object> configs = new HashMap<>();
        configs.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        configs.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        configs.put(SaslConfigs.SASL_MECHANISM, "SCRAM-SHA-512");
        configs.put(SaslConfigs.SASL_JAAS_CONFIG, jaas(user, password));
        return configs;
    }

    private static void produce(TestBroker broker, String password, String topic) throws Exception {
        Map<String, Object> configs = client(broker, "alice", password);
        configs.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        configs.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        configs.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 15_000);
        configs.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 15_000);
        configs.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(configs)) {
            producer.send(new ProducerRecord<>(topic, new byte[] {1})).get();
        }
    }

    @Test
    void bootstrapUsersAndAclsOpenASaslOnlyBrokerAndARestartKeepsWhatTheApiChanged() throws Exception {
        Path adminPasswordFile = dir.resolve("admin-password");
        Files.writeString(adminPasswordFile, ADMIN_PASSWORD + "\n"); // as `kubectl create secret --from-file` often has it
        AclBinding aliceWritesOrders = new AclBinding(new ResourcePattern(ResourceType.TOPIC, "orders", PatternType.LITERAL),
            new AccessControlEntry("User:alice", "*", AclOperation.WRITE, AclPermissionType.ALLOW));
        List<String> logLines;
        try (LogCapture logs = LogCapture.open();
             TestBroker broker = TestBroker.start(dir.resolve("broker"), saslOnly(adminPasswordFile))) {
            try (Admin admin = Admin.create(client(broker, "admin", ADMIN_PASSWORD))) {
                admin.createTopics(List.of(new NewTopic("orders", 1, (short) 1), new NewTopic("audit", 1, (short) 1)))
                    .all().get();
                assertThat(admin.describeAcls(AclBindingFilter.ANY).values().get()).containsExactly(aliceWritesOrders);
            }
            produce(broker, ALICE_PASSWORD, "orders");
            assertThatThrownBy(() -> produce(broker, ALICE_PASSWORD, "audit")).as("no ACL lets alice write audit")
                .cause().isInstanceOf(TopicAuthorizationException.class);

            try (Admin admin = Admin.create(client(broker, "admin", ADMIN_PASSWORD))) {
                admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion("alice",
                    new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), ALICE_NEW_PASSWORD))).all().get();
            }
            broker.restart();

            produce(broker, ALICE_NEW_PASSWORD, "orders");
            assertThatThrownBy(() -> produce(broker, ALICE_PASSWORD, "orders"))
                .as("the bootstrap password does not come back after a restart")
                .hasRootCauseInstanceOf(SaslAuthenticationException.class);
            try (Admin admin = Admin.create(client(broker, "admin", ADMIN_PASSWORD))) {
                assertThat(admin.describeAcls(AclBindingFilter.ANY).values().get()).containsExactly(aliceWritesOrders);
                assertThat(admin.describeUserScramCredentials(List.of("alice")).description("alice").get()
                    .credentialInfos()).extracting(ScramCredentialInfo::iterations).containsExactly(4096);
            }
            logLines = logs.lines();
        }
        assertThat(logLines).anyMatch(l -> l.contains("Bootstrap SCRAM-SHA-512 credential of user alice created"))
            .anyMatch(l -> l.contains("Bootstrap SCRAM-SHA-512 credential of user alice already in ZooKeeper"))
            .noneMatch(l -> l.contains(ADMIN_PASSWORD) || l.contains(ALICE_PASSWORD) || l.contains(ALICE_NEW_PASSWORD));
    }

    @Test
    void aMalformedBootstrapSettingFailsTheStartNamingTheSettingButNotThePassword() {
        Map<String, Object> badMechanism = new HashMap<>(saslOnly(dir.resolve("unused")));
        badMechanism.put("broker.bootstrap-scram-users", "SCRAM-SHA-1=[name=bob,password=bobs-hunter2-pw]");
        assertThatThrownBy(() -> TestBroker.start(dir.resolve("a"), badMechanism))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("broker.bootstrap-scram-users").hasMessageContaining("SCRAM-SHA-1")
            .hasMessageNotContaining("bobs-hunter2-pw");

        Map<String, Object> unclosed = new HashMap<>(saslOnly(dir.resolve("unused")));
        unclosed.put("broker.bootstrap-scram-users", "SCRAM-SHA-512=[name=bob,password=bobs-hunter2-pw");
        assertThatThrownBy(() -> TestBroker.start(dir.resolve("b"), unclosed))
            .hasMessageContaining("broker.bootstrap-scram-users").hasMessageContaining("no closing ]")
            .hasMessageNotContaining("bobs-hunter2-pw");

        Map<String, Object> missingFile = new HashMap<>(saslOnly(dir.resolve("no-such-file")));
        assertThatThrownBy(() -> TestBroker.start(dir.resolve("c"), missingFile))
            .hasMessageContaining("broker.bootstrap-scram-users").hasMessageContaining("user admin")
            .hasMessageContaining("no-such-file");

        Map<String, Object> badAcl = new HashMap<>(saslOnly(dir.resolve("unused")));
        badAcl.put("broker.bootstrap-scram-users", "SCRAM-SHA-512=[name=bob,password=bobs-hunter2-pw]");
        badAcl.put("broker.bootstrap-acls", "principal=User:bob,operation=Fly,resource-type=Topic,resource-name=t");
        assertThatThrownBy(() -> TestBroker.start(dir.resolve("d"), badAcl))
            .hasMessageContaining("broker.bootstrap-acls").hasMessageContaining("operation 'Fly'");
    }
}
