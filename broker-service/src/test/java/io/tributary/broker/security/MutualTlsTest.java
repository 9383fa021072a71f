package io.tributary.broker.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.broker.testing.LogCapture;
import io.tributary.broker.testing.TestBroker;
import io.tributary.broker.testing.TestCertificates;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An SSL listener that requires client certificates (mTLS): the certificate's DN becomes the
 * principal through {@code ssl.principal.mapping.rules}, and ACLs apply to it. Certificates come
 * from a throwaway CA made with keytool in the test.
 */
class MutualTlsTest {

    @TempDir
    static Path dir;
    static TestCertificates certificates;
    static TestBroker broker;
    static LogCapture logs;
    static Path brokerStore;

    @BeforeAll
    static void start() throws Exception {
        logs = LogCapture.open();
        certificates = TestCertificates.create(dir.resolve("certs"));
        brokerStore = certificates.keyStore("broker", "CN=localhost,OU=brokers");
        Map<String, Object> settings = new HashMap<>();
        settings.put("broker.listeners", "SSL://127.0.0.1:" + TestBroker.freePort());
        settings.put("broker.listener-security-protocol-map", "SSL:SSL");
        settings.put("broker.ssl-keystore-type", "PKCS12");
        settings.put("broker.ssl-keystore-location", brokerStore.toString());
        settings.put("broker.ssl-keystore-password", TestCertificates.PASSWORD);
        settings.put("broker.ssl-truststore-type", "PEM");
        settings.put("broker.ssl-truststore-location", certificates.caPem().toString());
        settings.put("broker.ssl-client-auth", "required");
        // "CN=alice,OU=apps" is User:alice; any other DN stays whole.
        settings.put("broker.ssl-principal-mapping-rules", "RULE:^CN=([^,]+),OU=apps$/$1/L,DEFAULT");
        settings.put("broker.authorizer-class-name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
        settings.put("broker.super-users", "User:CN=localhost,OU=brokers");
        broker = TestBroker.start(dir.resolve("broker"), settings);
        try (Admin admin = Admin.create(client(brokerStore))) {
            admin.createTopics(List.of(new NewTopic("tls-topic", 1, (short) 1))).all().get();
        }
        broker.server().authorizer().aclsChanged(List.of(new AclBinding(
            new ResourcePattern(ResourceType.TOPIC, "tls-topic", PatternType.LITERAL),
            new AccessControlEntry("User:alice", "*", AclOperation.DESCRIBE, AclPermissionType.ALLOW))), List.of());
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
        try (LogCapture captured = logs) {
            captured.assertNoLineContains(TestCertificates.PASSWORD);
        }
    }

    private static Map<String, Object> client(Path keyStore) {
        Map<String, Object> configs = new HashMap<>();
        configs.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        configs.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SSL");
        configs.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PEM");
        configs.put(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, certificates.caPem().toString());
        if (keyStore != null) {
            configs.put(SslConfigs.SSL_KEYSTORE_TYPE_CONFIG, "PKCS12");
            configs.put(SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG, keyStore.toString());
            configs.put(SslConfigs.SSL_KEYSTORE_PASSWORD_CONFIG, TestCertificates.PASSWORD);
        }
        return configs;
    }

    @Test
    void theMappedCertificateNameIsThePrincipalTheAclsName() throws Exception {
        Path alice = certificates.keyStore("alice", "CN=alice,OU=apps");
        try (Admin admin = Admin.create(client(alice))) {
            assertThat(admin.describeTopics(List.of("tls-topic")).allTopicNames().get()).containsKey("tls-topic");
        }
        Path mallory = certificates.keyStore("mallory", "CN=alice,OU=elsewhere");
        try (Admin admin = Admin.create(client(mallory))) {
            assertThatThrownBy(() -> admin.describeTopics(List.of("tls-topic")).allTopicNames().get())
                .as("CN=alice,OU=elsewhere is not User:alice").cause().isInstanceOf(TopicAuthorizationException.class);
        }
    }

    @Test
    void aClientWithoutACertificateIsRefused() {
        double failedBefore = failedAuthentications();
        try (Admin admin = Admin.create(client(null))) {
            assertThatThrownBy(() -> admin.describeCluster().clusterId().get())
                .cause().isInstanceOf(SslAuthenticationException.class);
        }
        assertThat(failedAuthentications()).isGreaterThan(failedBefore);
    }

    private static double failedAuthentications() {
        return broker.server().meterRegistry().find("kafka.server.socket.server.metrics.failed.authentication")
            .tag("listener", "SSL").counter().count();
    }
}
