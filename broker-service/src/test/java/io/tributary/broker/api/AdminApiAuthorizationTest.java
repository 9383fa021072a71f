package io.tributary.broker.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.tributary.broker.testing.TestBroker;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.FeatureUpdate;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UpdateFeaturesOptions;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.TopicCollection;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.NoReassignmentInProgressException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.quota.ClientQuotaFilter;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.function.ThrowingSupplier;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The Admin API against Kafka's StandardAuthorizer over a SASL_PLAINTEXT listener: for each admin
 * request, alice without the ACL gets Kafka's authorization exception and with it succeeds;
 * prefixed ACLs, DENY over ALLOW, the super user, and the authorized operations DescribeCluster
 * reports. ACLs are fed to the authorizer directly and removed after each test.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AdminApiAuthorizationTest {

    private static final String ADMIN_PASSWORD = "admin-pw-7f3a";
    private static final String ALICE_PASSWORD = "alice-pw-91c2";
    private static final String BOB_PASSWORD = "bob-pw-5d0e";
    private static final String ALICE = "User:alice";

    @TempDir
    static Path dir;
    static TestBroker broker;
    static Admin superUser;
    static Admin alice;
    static ListAppender<ILoggingEvent> logs;

    private final List<AclBinding> added = new ArrayList<>();

    @BeforeAll
    static void start() {
        logs = new ListAppender<>();
        logs.start();
        ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).addAppender(logs);
        Map<String, Object> settings = new HashMap<>();
        settings.put("broker.listeners", "SASL_PLAINTEXT://127.0.0.1:" + TestBroker.freePort());
        settings.put("broker.listener-security-protocol-map", "SASL_PLAINTEXT:SASL_PLAINTEXT");
        settings.put("broker.sasl-enabled-mechanisms", "PLAIN");
        settings.put("broker.sasl-mechanism-inter-broker-protocol", "PLAIN");
        settings.put("broker.sasl-jaas-config", "org.apache.kafka.common.security.plain.PlainLoginModule required"
            + " username=\"admin\" password=\"" + ADMIN_PASSWORD + "\" user_admin=\"" + ADMIN_PASSWORD
            + "\" user_alice=\"" + ALICE_PASSWORD + "\" user_bob=\"" + BOB_PASSWORD + "\";");
        settings.put("broker.authorizer-class-name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
        settings.put("broker.super-users", "User:admin");
        settings.put("broker.refused-request-log-interval-ms", "0");
        broker = TestBroker.start(dir.resolve("broker"), settings);
        superUser = admin("admin", ADMIN_PASSWORD);
        alice = admin("alice", ALICE_PASSWORD);
    }

    @AfterAll
    static void stop() {
        Utils.closeQuietly(alice, "alice");
        Utils.closeQuietly(superUser, "admin");
        if (broker != null) {
            broker.close();
        }
        ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).detachAppender(logs);
    }

    @AfterEach
    void removeAcls() {
        broker.server().authorizer().aclsChanged(List.of(), added);
        added.clear();
    }

    private static Admin admin(String user, String password) {
        Map<String, Object> configs = new HashMap<>();
        configs.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        configs.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        configs.put(SaslConfigs.SASL_MECHANISM, "PLAIN");
        configs.put(SaslConfigs.SASL_JAAS_CONFIG, "org.apache.kafka.common.security.plain.PlainLoginModule required"
            + " username=\"" + user + "\" password=\"" + password + "\";");
        configs.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 20_000);
        configs.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        return Admin.create(configs);
    }

    private void acl(AclPermissionType permission, AclOperation operation, ResourceType type, String name,
                     PatternType pattern) {
        AclBinding binding = new AclBinding(new ResourcePattern(type, name, pattern),
            new AccessControlEntry(ALICE, "*", operation, permission));
        broker.server().authorizer().aclsChanged(List.of(binding), List.of());
        added.add(binding);
    }

    private void allow(AclOperation operation, ResourceType type, String name) {
        acl(AclPermissionType.ALLOW, operation, type, name, PatternType.LITERAL);
    }

    private void allowCluster(AclOperation operation) {
        allow(operation, ResourceType.CLUSTER, "kafka-cluster");
    }

    private static void createTopic(String name, int partitions) throws Exception {
        superUser.createTopics(List.of(new NewTopic(name, partitions, (short) 1))).all().get();
    }

    private static void assertFailsWith(Class<? extends Throwable> type, ThrowingSupplier<?> call) {
        assertThatThrownBy(call::get).isInstanceOf(ExecutionException.class).cause().isInstanceOf(type);
    }

    @Test
    @Order(1)
    void createTopicsNeedsCreateOnTheTopicOrTheCluster() throws Throwable {
        NewTopic topic = new NewTopic("created-by-alice", 2, (short) 1);
        assertFailsWith(TopicAuthorizationException.class, () -> alice.createTopics(List.of(topic),
            new CreateTopicsOptions().validateOnly(true)).all().get());
        assertFailsWith(TopicAuthorizationException.class, () -> alice.createTopics(List.of(topic)).all().get());

        allow(AclOperation.CREATE, ResourceType.TOPIC, "created-by-alice");
        CreateTopicsResult created = alice.createTopics(List.of(topic));
        created.all().get();
        // Without DESCRIBE_CONFIGS the topic is created but its sizes and configs are withheld.
        assertFailsWith(TopicAuthorizationException.class, () -> created.numPartitions("created-by-alice").get());
        assertFailsWith(TopicAuthorizationException.class, () -> created.config("created-by-alice").get());

        allow(AclOperation.CREATE, ResourceType.TOPIC, "described-by-alice");
        allow(AclOperation.DESCRIBE_CONFIGS, ResourceType.TOPIC, "described-by-alice");
        CreateTopicsResult described = alice.createTopics(List.of(new NewTopic("described-by-alice", 3, (short) 1)));
        assertThat(described.numPartitions("described-by-alice").get()).isEqualTo(3);
        assertThat(described.config("described-by-alice").get().get("cleanup.policy").value()).isEqualTo("delete");

        allowCluster(AclOperation.CREATE);
        alice.createTopics(List.of(new NewTopic("any-name-with-cluster-create", 1, (short) 1))).all().get();
    }

    @Test
    @Order(2)
    void prefixedAclsAllowAndDenyOverridesAllow() throws Throwable {
        acl(AclPermissionType.ALLOW, AclOperation.CREATE, ResourceType.TOPIC, "alice-", PatternType.PREFIXED);
        acl(AclPermissionType.DENY, AclOperation.CREATE, ResourceType.TOPIC, "alice-forbidden", PatternType.LITERAL);
        alice.createTopics(List.of(new NewTopic("alice-one", 1, (short) 1))).all().get();
        assertFailsWith(TopicAuthorizationException.class,
            () -> alice.createTopics(List.of(new NewTopic("bob-one", 1, (short) 1))).all().get());
        assertFailsWith(TopicAuthorizationException.class,
            () -> alice.createTopics(List.of(new NewTopic("alice-forbidden", 1, (short) 1))).all().get());

        acl(AclPermissionType.DENY, AclOperation.ALL, ResourceType.CLUSTER, "kafka-cluster", PatternType.LITERAL);
        allowCluster(AclOperation.DESCRIBE);
        assertFailsWith(ClusterAuthorizationException.class, () -> alice.describeLogDirs(List.of(0)).allDescriptions().get());
    }

    @Test
    @Order(3)
    void deleteTopicsNeedsDeleteAndHidesTopicsAliceMayNotDescribe() throws Throwable {
        createTopic("to-delete", 1);
        Uuid id = superUser.describeTopics(List.of("to-delete")).allTopicNames().get().get("to-delete").topicId();
        assertFailsWith(TopicAuthorizationException.class,
            () -> alice.deleteTopics(List.of("to-delete")).all().get());
        assertFailsWith(TopicAuthorizationException.class,
            () -> alice.deleteTopics(TopicCollection.ofTopicIds(List.of(id))).all().get());
        // A topic that does not exist: an authorization error unless alice may describe it.
        assertFailsWith(TopicAuthorizationException.class, () -> alice.deleteTopics(List.of("never-was")).all().get());
        allow(AclOperation.DESCRIBE, ResourceType.TOPIC, "never-was");
        assertFailsWith(UnknownTopicOrPartitionException.class,
            () -> alice.deleteTopics(List.of("never-was")).all().get());

        allow(AclOperation.DELETE, ResourceType.TOPIC, "to-delete");
        alice.deleteTopics(List.of("to-delete")).all().get();

        createTopic("to-delete-by-id", 1);
        Uuid second = superUser.describeTopics(List.of("to-delete-by-id")).allTopicNames().get()
            .get("to-delete-by-id").topicId();
        allowCluster(AclOperation.DELETE);
        alice.deleteTopics(TopicCollection.ofTopicIds(List.of(second))).all().get();
    }

    @Test
    @Order(4)
    void createPartitionsNeedsAlterAndDeleteRecordsNeedsDelete() throws Throwable {
        createTopic("grown", 1);
        assertFailsWith(TopicAuthorizationException.class,
            () -> alice.createPartitions(Map.of("grown", NewPartitions.increaseTo(2))).all().get());
        assertFailsWith(TopicAuthorizationException.class,
            () -> alice.createPartitions(Map.of("not-there", NewPartitions.increaseTo(2))).all().get());
        allow(AclOperation.ALTER, ResourceType.TOPIC, "grown");
        alice.createPartitions(Map.of("grown", NewPartitions.increaseTo(2))).all().get();

        TopicPartition partition = new TopicPartition("grown", 0);
        assertFailsWith(TopicAuthorizationException.class, () -> alice.deleteRecords(
            Map.of(partition, RecordsToDelete.beforeOffset(0))).all().get());
        allow(AclOperation.DELETE, ResourceType.TOPIC, "grown");
        assertThat(alice.deleteRecords(Map.of(partition, RecordsToDelete.beforeOffset(0))).lowWatermarks()
            .get(partition).get().lowWatermark()).isZero();
    }

    @Test
    @Order(4)
    void describeProducersNeedsReadAndAbortingATransactionNeedsClusterAction() throws Throwable {
        createTopic("produced", 1);
        TopicPartition partition = new TopicPartition("produced", 0);
        allow(AclOperation.DESCRIBE, ResourceType.TOPIC, "produced");
        assertFailsWith(TopicAuthorizationException.class,
            () -> alice.describeProducers(List.of(partition)).partitionResult(partition).get());
        allow(AclOperation.READ, ResourceType.TOPIC, "produced");
        assertThat(alice.describeProducers(List.of(partition)).partitionResult(partition).get().activeProducers())
            .isEmpty();

        assertFailsWith(ClusterAuthorizationException.class, () -> alice.abortTransaction(
            new org.apache.kafka.clients.admin.AbortTransactionSpec(partition, 4711L, (short) 0, 0)).all().get());
    }

    @Test
    @Order(5)
    void configsNeedDescribeConfigsAndAlterConfigsOnTheirResource() throws Throwable {
        createTopic("configured", 1);
        ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, "configured");
        ConfigResource brokerResource = new ConfigResource(ConfigResource.Type.BROKER, "0");
        assertFailsWith(TopicAuthorizationException.class, () -> alice.describeConfigs(List.of(topic)).all().get());
        assertFailsWith(ClusterAuthorizationException.class,
            () -> alice.describeConfigs(List.of(brokerResource)).all().get());
        AlterConfigOp retention = new AlterConfigOp(new ConfigEntry("retention.ms", "3600000"), AlterConfigOp.OpType.SET);
        assertFailsWith(TopicAuthorizationException.class,
            () -> alice.incrementalAlterConfigs(Map.of(topic, List.of(retention))).all().get());
        assertFailsWith(ClusterAuthorizationException.class, () -> alice.incrementalAlterConfigs(
            Map.of(brokerResource, List.of(new AlterConfigOp(new ConfigEntry("log.retention.ms", "1"),
                AlterConfigOp.OpType.SET)))).all().get());

        allow(AclOperation.ALTER_CONFIGS, ResourceType.TOPIC, "configured");
        alice.incrementalAlterConfigs(Map.of(topic, List.of(retention))).all().get();
        // ALTER_CONFIGS implies DESCRIBE_CONFIGS.
        assertThat(alice.describeConfigs(List.of(topic)).all().get().get(topic).get("retention.ms").value())
            .isEqualTo("3600000");

        allowCluster(AclOperation.DESCRIBE_CONFIGS);
        assertThat(alice.describeConfigs(List.of(brokerResource)).all().get().get(brokerResource).entries()).isNotEmpty();
        allowCluster(AclOperation.ALTER_CONFIGS);
        // Allowed now, and refused for what it is: broker.id is a static setting.
        assertFailsWith(org.apache.kafka.common.errors.InvalidConfigurationException.class,
            () -> alice.incrementalAlterConfigs(Map.of(brokerResource, List.of(new AlterConfigOp(
                new ConfigEntry("broker.id", "1"), AlterConfigOp.OpType.SET)))).all().get());
    }

    @Test
    @Order(6)
    void logDirsAndReassignmentsNeedClusterPermissions() throws Throwable {
        createTopic("placed", 1);
        TopicPartition partition = new TopicPartition("placed", 0);
        assertFailsWith(ClusterAuthorizationException.class, () -> alice.describeLogDirs(List.of(0)).allDescriptions().get());
        assertFailsWith(ClusterAuthorizationException.class, () -> alice.listPartitionReassignments().reassignments().get());
        assertFailsWith(ClusterAuthorizationException.class, () -> alice.alterPartitionReassignments(
            Map.of(partition, Optional.empty())).all().get());
        assertFailsWith(ClusterAuthorizationException.class, () -> alice.electLeaders(ElectionType.PREFERRED,
            Set.of(partition)).partitions().get());
        Map<String, FeatureUpdate> sameLevel = Map.of("transaction.version",
            new FeatureUpdate((short) 1, FeatureUpdate.UpgradeType.UPGRADE));
        assertFailsWith(ClusterAuthorizationException.class, () -> alice.updateFeatures(sameLevel,
            new UpdateFeaturesOptions().validateOnly(true)).all().get());

        allowCluster(AclOperation.DESCRIBE);
        assertThat(alice.describeLogDirs(List.of(0)).allDescriptions().get().get(0)).isNotEmpty();
        assertThat(alice.listPartitionReassignments().reassignments().get()).isEmpty();
        assertFailsWith(ClusterAuthorizationException.class, () -> alice.alterPartitionReassignments(
            Map.of(partition, Optional.empty())).all().get());

        allowCluster(AclOperation.ALTER);
        assertFailsWith(NoReassignmentInProgressException.class, () -> alice.alterPartitionReassignments(
            Map.of(partition, Optional.empty())).all().get());
        alice.alterPartitionReassignments(Map.of(partition, Optional.of(new NewPartitionReassignment(List.of(0)))))
            .all().get();
        assertThat(alice.electLeaders(ElectionType.PREFERRED, Set.of(partition)).partitions().get()).containsKey(partition);
        alice.updateFeatures(sameLevel, new UpdateFeaturesOptions().validateOnly(true)).all().get();
    }

    @Test
    @Order(7)
    void scramCredentialsAndQuotasNeedClusterPermissions() throws Throwable {
        UserScramCredentialUpsertion carol = new UserScramCredentialUpsertion("carol",
            new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 4096), "carol-secret");
        assertFailsWith(ClusterAuthorizationException.class, () -> alice.alterUserScramCredentials(List.of(carol)).all().get());
        assertFailsWith(ClusterAuthorizationException.class, () -> alice.describeUserScramCredentials().all().get());
        assertFailsWith(ClusterAuthorizationException.class,
            () -> alice.describeClientQuotas(ClientQuotaFilter.all()).entities().get());

        allowCluster(AclOperation.ALTER);
        alice.alterUserScramCredentials(List.of(carol)).all().get();
        allowCluster(AclOperation.DESCRIBE);
        assertThat(alice.describeUserScramCredentials(List.of("carol")).all().get()).containsKey("carol");
        allowCluster(AclOperation.DESCRIBE_CONFIGS);
        assertThat(alice.describeClientQuotas(ClientQuotaFilter.all()).entities().get()).isEmpty();
    }

    @Test
    @Order(8)
    void describeClusterReportsTheOperationsAliceMayDo() throws Throwable {
        DescribeClusterOptions withOperations = new DescribeClusterOptions().includeAuthorizedOperations(true);
        assertThat(alice.describeCluster().clusterId().get()).isNotBlank();
        assertThat(alice.describeCluster(new DescribeClusterOptions()).authorizedOperations().get()).isNull();
        assertThat(alice.describeCluster(withOperations).authorizedOperations().get()).isEmpty();
        allowCluster(AclOperation.ALTER_CONFIGS);
        // Nothing without DESCRIBE on the cluster, as Kafka.
        assertThat(alice.describeCluster(withOperations).authorizedOperations().get()).isEmpty();
        allowCluster(AclOperation.DESCRIBE);
        allowCluster(AclOperation.CREATE);
        assertThat(alice.describeCluster(withOperations).authorizedOperations().get()).containsExactlyInAnyOrder(
            AclOperation.DESCRIBE, AclOperation.CREATE, AclOperation.ALTER_CONFIGS, AclOperation.DESCRIBE_CONFIGS);
        assertThat(superUser.describeCluster(withOperations).authorizedOperations().get()).containsExactlyInAnyOrder(
            AclOperation.CREATE, AclOperation.CLUSTER_ACTION, AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS,
            AclOperation.IDEMPOTENT_WRITE, AclOperation.ALTER, AclOperation.DESCRIBE);
    }

    @Test
    @Order(9)
    void theSuperUserNeedsNoAcls() throws Throwable {
        assertThat(broker.server().authorizer().aclCount()).isZero();
        createTopic("super-topic", 1);
        ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, "super-topic");
        superUser.incrementalAlterConfigs(Map.of(topic, List.of(new AlterConfigOp(new ConfigEntry("retention.ms",
            "7200000"), AlterConfigOp.OpType.SET)))).all().get();
        assertThat(superUser.describeConfigs(List.of(topic)).all().get().get(topic).get("retention.ms").value())
            .isEqualTo("7200000");
        assertThat(superUser.describeLogDirs(List.of(0)).allDescriptions().get().get(0)).isNotEmpty();
        superUser.createPartitions(Map.of("super-topic", NewPartitions.increaseTo(2))).all().get();
        superUser.deleteTopics(List.of("super-topic")).all().get();
        assertThat(superUser.listPartitionReassignments().reassignments().get()).isEmpty();
    }

    @Test
    @Order(99)
    void aDenialIsLoggedWithTheApiTheClientThePrincipalAndTheOperation() throws Throwable {
        assertFailsWith(ClusterAuthorizationException.class, () -> alice.describeLogDirs(List.of(0)).allDescriptions().get());
        assertThat(List.copyOf(logs.list)).map(ILoggingEvent::getFormattedMessage).anySatisfy(line -> assertThat(line)
            .startsWith("Refused DESCRIBE_LOG_DIRS v").contains("(User:alice at 127.0.0.1)")
            .endsWith("denied DESCRIBE on CLUSTER 'kafka-cluster'"));
    }

    @Test
    @Order(100)
    void passwordsNeverReachTheLog() {
        try (Admin wrong = admin("bob", "not-" + BOB_PASSWORD)) {
            assertFailsWith(SaslAuthenticationException.class, () -> wrong.describeCluster().clusterId().get());
        }
        assertThat(logs.list).isNotEmpty();
        for (ILoggingEvent event : List.copyOf(logs.list)) {
            String line = event.getFormattedMessage() + (event.getThrowableProxy() == null ? ""
                : " " + event.getThrowableProxy().getMessage());
            assertThat(line).doesNotContain(ADMIN_PASSWORD, ALICE_PASSWORD, BOB_PASSWORD, "carol-secret");
        }
    }
}
