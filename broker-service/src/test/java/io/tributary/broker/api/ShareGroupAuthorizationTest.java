package io.tributary.broker.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.TestBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeShareGroupsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ShareGroupDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Share-group APIs against Kafka's StandardAuthorizer, as Kafka checks them: ShareGroupHeartbeat
 * needs READ on the group; ShareGroupDescribe needs DESCRIBE on the group, and a group using a topic
 * the client may not DESCRIBE is refused with TOPIC_AUTHORIZATION_FAILED; the authorized operations
 * are reported when asked.
 */
class ShareGroupAuthorizationTest {

    private static final String ADMIN_PASSWORD = "admin-pw-2b8e";
    private static final String ALICE_PASSWORD = "alice-pw-6c1d";
    private static final String ALICE = "User:alice";

    @TempDir
    static Path dir;
    static TestBroker broker;
    static Admin superUser;
    static Admin alice;

    private final List<AclBinding> added = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        Map<String, Object> settings = new HashMap<>();
        settings.put("broker.listeners", "SASL_PLAINTEXT://127.0.0.1:" + TestBroker.freePort());
        settings.put("broker.listener-security-protocol-map", "SASL_PLAINTEXT:SASL_PLAINTEXT");
        settings.put("broker.sasl-enabled-mechanisms", "PLAIN");
        settings.put("broker.sasl-mechanism-inter-broker-protocol", "PLAIN");
        settings.put("broker.sasl-jaas-config", "org.apache.kafka.common.security.plain.PlainLoginModule required"
            + " username=\"admin\" password=\"" + ADMIN_PASSWORD + "\" user_admin=\"" + ADMIN_PASSWORD
            + "\" user_alice=\"" + ALICE_PASSWORD + "\";");
        settings.put("broker.authorizer-class-name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
        settings.put("broker.super-users", "User:admin");
        settings.put("broker.group-share-session-timeout-ms", "60000");
        // Partitions are assigned at the heartbeat after their share state exists: 500 ms, not 5 s.
        settings.put("broker.group-share-heartbeat-interval-ms", "500");
        broker = TestBroker.start(dir.resolve("broker"), settings);
        superUser = Admin.create(clientConfigs("admin", ADMIN_PASSWORD));
        alice = Admin.create(clientConfigs("alice", ALICE_PASSWORD));
        superUser.createTopics(List.of(new NewTopic("secret", 2, (short) 1))).all().get();
    }

    @AfterAll
    static void stop() {
        Utils.closeQuietly(alice, "alice");
        Utils.closeQuietly(superUser, "admin");
        if (broker != null) {
            broker.close();
        }
    }

    @AfterEach
    void removeAcls() {
        broker.server().authorizer().aclsChanged(List.of(), added);
        added.clear();
    }

    private static Map<String, Object> clientConfigs(String user, String password) {
        Map<String, Object> configs = new HashMap<>();
        configs.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        configs.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        configs.put(SaslConfigs.SASL_MECHANISM, "PLAIN");
        configs.put(SaslConfigs.SASL_JAAS_CONFIG, "org.apache.kafka.common.security.plain.PlainLoginModule required"
            + " username=\"" + user + "\" password=\"" + password + "\";");
        configs.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 20_000);
        configs.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        return configs;
    }

    private void allow(AclOperation operation, ResourceType type, String name) {
        AclBinding binding = new AclBinding(new ResourcePattern(type, name, PatternType.LITERAL),
            new AccessControlEntry(ALICE, "*", operation, AclPermissionType.ALLOW));
        broker.server().authorizer().aclsChanged(List.of(binding), List.of());
        added.add(binding);
    }

    private static KafkaShareConsumer<byte[], byte[]> shareConsumer(String user, String password, String group) {
        Map<String, Object> configs = clientConfigs(user, password);
        configs.remove(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG);
        configs.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        return new KafkaShareConsumer<>(configs, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    @Test
    void aHeartbeatNeedsReadOnTheGroup() {
        try (KafkaShareConsumer<byte[], byte[]> consumer = shareConsumer("alice", ALICE_PASSWORD, "alice-group")) {
            consumer.subscribe(List.of("secret"));
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThatThrownBy(
                () -> consumer.poll(Duration.ofMillis(200))).isInstanceOf(GroupAuthorizationException.class));
        }
    }

    @Test
    void describeNeedsDescribeOnTheGroupAndOnItsTopics() throws Exception {
        try (KafkaShareConsumer<byte[], byte[]> member = shareConsumer("admin", ADMIN_PASSWORD, "audited")) {
            member.subscribe(List.of("secret"));
            // One poll is enough to join (its later fetches are not served here yet).
            await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
                member.poll(Duration.ofMillis(100));
                return superUser.describeShareGroups(List.of("audited")).all().get().get("audited").members().size() == 1;
            });

            assertThatThrownBy(() -> alice.describeShareGroups(List.of("audited")).all().get())
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(GroupAuthorizationException.class);
            allow(AclOperation.DESCRIBE, ResourceType.GROUP, "audited");
            assertThatThrownBy(() -> alice.describeShareGroups(List.of("audited")).all().get())
                .as("a member uses a topic alice may not describe")
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(TopicAuthorizationException.class);
            allow(AclOperation.DESCRIBE, ResourceType.TOPIC, "secret");
            ShareGroupDescription group = alice.describeShareGroups(List.of("audited"),
                new DescribeShareGroupsOptions().includeAuthorizedOperations(true)).all().get().get("audited");
            assertThat(group.members()).hasSize(1);
            assertThat(group.authorizedOperations()).containsExactly(AclOperation.DESCRIBE);
        }
    }

    @Test
    void shareGroupOffsetsNeedTheGroupAndTopicAcls() throws Exception {
        try (KafkaShareConsumer<byte[], byte[]> member = shareConsumer("admin", ADMIN_PASSWORD, "reset-audited")) {
            member.subscribe(List.of("secret"));
            await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
                member.poll(Duration.ofMillis(100));
                return superUser.describeShareGroups(List.of("reset-audited")).all().get().get("reset-audited")
                    .members().size() == 1;
            });
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> superUser.describeShareGroups(List.of("reset-audited")).all()
            .get().get("reset-audited").members().isEmpty());
        Map<String, org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec> all =
            Map.of("reset-audited", new org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec());
        org.apache.kafka.common.TopicPartition secret0 = new org.apache.kafka.common.TopicPartition("secret", 0);

        assertThatThrownBy(() -> alice.listShareGroupOffsets(all).all().get())
            .isInstanceOf(ExecutionException.class).cause().isInstanceOf(GroupAuthorizationException.class);
        assertThatThrownBy(() -> alice.alterShareGroupOffsets("reset-audited", Map.of(secret0, 0L)).all().get())
            .isInstanceOf(ExecutionException.class).cause().isInstanceOf(GroupAuthorizationException.class);
        assertThatThrownBy(() -> alice.deleteShareGroupOffsets("reset-audited", java.util.Set.of("secret")).all().get())
            .isInstanceOf(ExecutionException.class).cause().isInstanceOf(GroupAuthorizationException.class);

        allow(AclOperation.DESCRIBE, ResourceType.GROUP, "reset-audited");
        assertThat(alice.listShareGroupOffsets(all).partitionsToOffsetInfo("reset-audited").get())
            .as("a topic alice may not describe is left out").isEmpty();
        allow(AclOperation.READ, ResourceType.GROUP, "reset-audited");
        assertThatThrownBy(() -> alice.alterShareGroupOffsets("reset-audited", Map.of(secret0, 0L)).all().get())
            .isInstanceOf(ExecutionException.class).cause().isInstanceOf(TopicAuthorizationException.class);
        allow(AclOperation.READ, ResourceType.TOPIC, "secret");
        alice.alterShareGroupOffsets("reset-audited", Map.of(secret0, 0L)).all().get();
        assertThat(superUser.listShareGroupOffsets(all).partitionsToOffsetInfo("reset-audited").get().get(secret0)
            .startOffset()).isZero();
    }
}
