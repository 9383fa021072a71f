package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.KafkaTool;
import io.tributary.broker.testing.TestCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.UserScramCredentialDeletion;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.admin.UserScramCredentialsDescription;
import org.apache.kafka.common.errors.DuplicateResourceException;
import org.apache.kafka.common.errors.ResourceNotFoundException;
import org.apache.kafka.common.errors.UnacceptableCredentialException;
import org.apache.kafka.common.security.scram.ScramCredential;
import org.apache.kafka.common.security.scram.internals.ScramFormatter;
import org.apache.kafka.common.security.scram.internals.ScramMechanism;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka's Admin client manages SCRAM credentials (AlterUserScramCredentials and
 * DescribeUserScramCredentials, KIP-554) on a two-broker cluster; a credential added through
 * one broker reaches the other broker's authenticator view. Each test uses its own user names.
 */
class UserScramCredentialsTest {

    private static final org.apache.kafka.clients.admin.ScramMechanism SHA_256 =
        org.apache.kafka.clients.admin.ScramMechanism.SCRAM_SHA_256;
    private static final org.apache.kafka.clients.admin.ScramMechanism SHA_512 =
        org.apache.kafka.clients.admin.ScramMechanism.SCRAM_SHA_512;

    @TempDir
    static Path dir;
    static TestCluster cluster;
    static Admin admin;

    @BeforeAll
    static void start() throws Exception {
        cluster = TestCluster.start(dir, 2, Map.of());
        admin = cluster.admin();
    }

    @AfterAll
    static void stop() {
        admin.close();
        cluster.close();
    }

    @Test
    void upsertDescribeAndDeleteACredential() throws Exception {
        admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion("alice",
            new ScramCredentialInfo(SHA_512, 8192), "secret"))).all().get();

        Map<String, UserScramCredentialsDescription> all = admin.describeUserScramCredentials().all().get();
        assertThat(all).containsKey("alice");
        assertThat(all.get("alice").credentialInfos()).singleElement().satisfies(info -> {
            assertThat(info.mechanism()).isEqualTo(SHA_512);
            assertThat(info.iterations()).isEqualTo(8192);
        });
        assertThat(admin.describeUserScramCredentials(List.of("alice")).description("alice").get().credentialInfos())
            .extracting(ScramCredentialInfo::mechanism).containsExactly(SHA_512);

        // Both brokers can check alice's password: the keys derive from it.
        for (int id : cluster.brokerIds()) {
            await().atMost(Duration.ofSeconds(30)).until(() -> cluster.broker(id).scramCredentialStore()
                .credential(ScramMechanism.SCRAM_SHA_512, "alice").isPresent());
            ScramCredential credential = cluster.broker(id).credentialCache().cache("SCRAM-SHA-512", ScramCredential.class)
                .get("alice");
            assertThat(verifies(credential, "secret")).as("broker %d checks the password", id).isTrue();
            assertThat(verifies(credential, "not-the-secret")).isFalse();
        }

        admin.alterUserScramCredentials(List.of(new UserScramCredentialDeletion("alice", SHA_512))).all().get();
        assertThatThrownBy(() -> admin.describeUserScramCredentials(List.of("alice")).description("alice").get())
            .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(ResourceNotFoundException.class);
        for (int id : cluster.brokerIds()) {
            await().atMost(Duration.ofSeconds(30)).until(() -> cluster.broker(id).scramCredentialStore()
                .credential(ScramMechanism.SCRAM_SHA_512, "alice").isEmpty());
        }
    }

    @Test
    void errorsReachTheAdminClientPerUser() throws Exception {
        admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion("bob",
            new ScramCredentialInfo(SHA_256, 4096), "bob-secret"))).all().get();

        var result = admin.alterUserScramCredentials(List.of(
            new UserScramCredentialUpsertion("weak", new ScramCredentialInfo(SHA_512, 1024), "pw"),
            new UserScramCredentialUpsertion("bob", new ScramCredentialInfo(SHA_256, 8192), "pw"),
            new UserScramCredentialDeletion("bob", SHA_256),
            new UserScramCredentialDeletion("nobody", SHA_512),
            new UserScramCredentialUpsertion("carol", new ScramCredentialInfo(SHA_512, 4096), "carol-secret")));

        assertThat(cause(result.values().get("weak"))).isInstanceOf(UnacceptableCredentialException.class);
        assertThat(cause(result.values().get("bob"))).isInstanceOf(DuplicateResourceException.class);
        assertThat(cause(result.values().get("nobody"))).isInstanceOf(ResourceNotFoundException.class);
        result.values().get("carol").get();

        assertThatThrownBy(() -> admin.describeUserScramCredentials(List.of("nobody")).description("nobody").get())
            .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(ResourceNotFoundException.class)
            .hasMessageContaining("nobody");
        assertThat(admin.describeUserScramCredentials(List.of("bob")).description("bob").get().credentialInfos())
            .singleElement().satisfies(info -> assertThat(info.iterations()).isEqualTo(4096));
    }

    /**
     * Kafka's kafka-configs ({@code org.apache.kafka.tools.ConfigCommand}). It needs Kafka's broker
     * jars (its options list the broker's dynamic configs: kafka-server, kafka-raft, kafka-metadata,
     * the group, share and transaction coordinators, commons-validator), which stay out of this
     * build: it runs on the classpath the {@code kafka-tools-runtime} module resolves, in its own JVM.
     */
    @Test
    void kafkaConfigsToolAddsAndDescribesACredential() throws Exception {
        String bootstrap = cluster.bootstrapServers();
        KafkaTool.Result alter = KafkaTool.runWithKafkaToolsClasspath("org.apache.kafka.tools.ConfigCommand",
            "--bootstrap-server", bootstrap,
            "--alter", "--add-config", "SCRAM-SHA-512=[iterations=8192,password=dora-secret]", "--entity-type", "users",
            "--entity-name", "dora");
        assertThat(alter.exitCode()).as(alter.output()).isZero();
        assertThat(alter.output()).contains("Completed updating config for user dora.");

        String stored = cluster.anyRunning().zkClient().getString("/config/users/dora").orElseThrow();
        assertThat(stored).contains("\"SCRAM-SHA-512\":\"salt=").contains("iterations=8192").doesNotContain("dora-secret");
        await().atMost(Duration.ofSeconds(30)).until(() -> cluster.brokerIds().stream().allMatch(id ->
            cluster.broker(id).scramCredentialStore().credential(ScramMechanism.SCRAM_SHA_512, "dora").isPresent()));
        assertThat(verifies(cluster.anyRunning().scramCredentialStore().credential(ScramMechanism.SCRAM_SHA_512, "dora")
            .orElseThrow(), "dora-secret")).isTrue();

        KafkaTool.Result describe = KafkaTool.runWithKafkaToolsClasspath("org.apache.kafka.tools.ConfigCommand",
            "--bootstrap-server", bootstrap, "--describe", "--entity-type", "users", "--entity-name", "dora");
        assertThat(describe.exitCode()).as(describe.output()).isZero();
        assertThat(describe.output()).contains("SCRAM credential configs for user-principal 'dora' are SCRAM-SHA-512=iterations=8192");
    }

    @Test
    void clientQuotasAreDescribedAsNoneAndFiltersValidatedAsKafkaDoes() throws Exception {
        assertThat(admin.describeClientQuotas(org.apache.kafka.common.quota.ClientQuotaFilter.all()).entities().get()).isEmpty();
        assertThat(admin.describeClientQuotas(org.apache.kafka.common.quota.ClientQuotaFilter.contains(List.of(
            org.apache.kafka.common.quota.ClientQuotaFilterComponent.ofEntity("user", "alice")))).entities().get()).isEmpty();

        var ipWithUser = org.apache.kafka.common.quota.ClientQuotaFilter.contains(List.of(
            org.apache.kafka.common.quota.ClientQuotaFilterComponent.ofEntity("user", "alice"),
            org.apache.kafka.common.quota.ClientQuotaFilterComponent.ofEntity("ip", "127.0.0.1")));
        assertThatThrownBy(() -> admin.describeClientQuotas(ipWithUser).entities().get())
            .hasCauseInstanceOf(org.apache.kafka.common.errors.InvalidRequestException.class);
    }

    private static Throwable cause(org.apache.kafka.common.KafkaFuture<Void> future) {
        try {
            future.get();
            return null;
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }

    /** What the SCRAM server checks: the stored key is H(HMAC(salted password, "Client Key")). */
    static boolean verifies(ScramCredential credential, String password) throws Exception {
        ScramFormatter formatter = new ScramFormatter(ScramMechanism.SCRAM_SHA_512);
        byte[] salted = formatter.saltedPassword(password, credential.salt(), credential.iterations());
        return java.util.Arrays.equals(formatter.storedKey(formatter.clientKey(salted)), credential.storedKey());
    }

    /** A broker's {@code log.retention.ms} as DescribeConfigs with synonyms answers it. */
    private static org.apache.kafka.clients.admin.ConfigEntry retentionOf(int brokerId) throws Exception {
        org.apache.kafka.common.config.ConfigResource resource = new org.apache.kafka.common.config.ConfigResource(
            org.apache.kafka.common.config.ConfigResource.Type.BROKER, Integer.toString(brokerId));
        return admin.describeConfigs(List.of(resource),
                new org.apache.kafka.clients.admin.DescribeConfigsOptions().includeSynonyms(true))
            .all().get().get(resource).get("log.retention.ms");
    }

    private static List<String> synonyms(org.apache.kafka.clients.admin.ConfigEntry entry) {
        return entry.synonyms().stream().map(s -> s.source() + ":" + s.name() + "=" + s.value()).toList();
    }

    /**
     * Dynamic broker configs on two brokers, as in Kafka's ZooKeeper mode: a cluster-wide
     * ({@code <default>}) {@code log.retention.ms} set through IncrementalAlterConfigs reaches every broker's
     * logs, a per-broker one overrides it on that broker only; each is stored under
     * {@code /config/brokers/<default>} or {@code /config/brokers/1} with a {@code config_change_*}
     * notification, and DescribeConfigs lists the synonyms in Kafka's order (per-broker, cluster-wide,
     * static, default).
     */
    @Test
    void aClusterWideBrokerConfigReachesEveryBrokerAndAPerBrokerOneOverridesIt() throws Exception {
        org.apache.kafka.common.TopicPartition tp = new org.apache.kafka.common.TopicPartition("retained", 0);
        admin.createTopics(List.of(new org.apache.kafka.clients.admin.NewTopic(tp.topic(), Map.of(0, List.of(0, 1)))))
            .all().get();
        cluster.awaitIsr(tp, List.of(0, 1));
        java.util.function.IntFunction<org.apache.kafka.common.config.ConfigResource> broker = id ->
            new org.apache.kafka.common.config.ConfigResource(org.apache.kafka.common.config.ConfigResource.Type.BROKER,
                id < 0 ? "" : Integer.toString(id));
        java.util.function.BiFunction<String, String, List<org.apache.kafka.clients.admin.AlterConfigOp>> set = (k, v) ->
            List.of(new org.apache.kafka.clients.admin.AlterConfigOp(new org.apache.kafka.clients.admin.ConfigEntry(k, v),
                v == null ? org.apache.kafka.clients.admin.AlterConfigOp.OpType.DELETE
                    : org.apache.kafka.clients.admin.AlterConfigOp.OpType.SET));
        io.tributary.broker.cluster.KafkaZkClient zk = cluster.broker(0).zkClient();
        List<String> changesBefore = zk.getChildren("/config/changes");

        admin.incrementalAlterConfigs(Map.of(broker.apply(-1), set.apply("log.retention.ms", "7200000"))).all().get();
        for (int id : List.of(0, 1)) {
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(
                cluster.replica(id, tp).orElseThrow().log().orElseThrow().config().retentionMs())
                .as("broker %d's log", id).isEqualTo(7_200_000L));
        }
        admin.incrementalAlterConfigs(Map.of(broker.apply(1), set.apply("log.retention.ms", "3600000"))).all().get();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(
            cluster.replica(1, tp).orElseThrow().log().orElseThrow().config().retentionMs()).isEqualTo(3_600_000L));
        assertThat(cluster.replica(0, tp).orElseThrow().log().orElseThrow().config().retentionMs())
            .as("broker 0 keeps the cluster-wide value").isEqualTo(7_200_000L);

        assertThat(zk.getString("/config/brokers/<default>")).hasValueSatisfying(json ->
            assertThat(json).contains("\"log.retention.ms\":\"7200000\""));
        assertThat(zk.getString("/config/brokers/1")).hasValueSatisfying(json ->
            assertThat(json).contains("\"log.retention.ms\":\"3600000\""));
        List<String> notifications = zk.getChildren("/config/changes").stream()
            .filter(n -> !changesBefore.contains(n)).sorted()
            .map(n -> zk.getString("/config/changes/" + n).orElse("")).toList();
        assertThat(notifications).hasSize(2);
        assertThat(notifications.get(0)).contains("\"entity_path\":\"brokers/<default>\"").contains("\"version\":2");
        assertThat(notifications.get(1)).contains("\"entity_path\":\"brokers/1\"");

        org.apache.kafka.clients.admin.ConfigEntry own = retentionOf(1);
        assertThat(own.value()).isEqualTo("3600000");
        assertThat(own.source()).isEqualTo(org.apache.kafka.clients.admin.ConfigEntry.ConfigSource.DYNAMIC_BROKER_CONFIG);
        // Kafka's chain ends with DEFAULT_CONFIG:log.retention.hours=168 (its synonyms' defaults, the null ones left
        // out); Tributary's ends with DEFAULT_CONFIG:log.retention.ms=604800000, not asserted here.
        assertThat(synonyms(own)).startsWith("DYNAMIC_BROKER_CONFIG:log.retention.ms=3600000",
            "DYNAMIC_DEFAULT_BROKER_CONFIG:log.retention.ms=7200000");
        List<org.apache.kafka.clients.admin.ConfigEntry.ConfigSource> kafkasOrder = List.of(
            org.apache.kafka.clients.admin.ConfigEntry.ConfigSource.DYNAMIC_BROKER_CONFIG,
            org.apache.kafka.clients.admin.ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG,
            org.apache.kafka.clients.admin.ConfigEntry.ConfigSource.STATIC_BROKER_CONFIG,
            org.apache.kafka.clients.admin.ConfigEntry.ConfigSource.DEFAULT_CONFIG);
        assertThat(own.synonyms().stream().map(s -> kafkasOrder.indexOf(s.source())).toList()).isSorted();
        org.apache.kafka.clients.admin.ConfigEntry inherited = retentionOf(0);
        assertThat(inherited.value()).isEqualTo("7200000");
        assertThat(inherited.source())
            .isEqualTo(org.apache.kafka.clients.admin.ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG);
        assertThat(synonyms(inherited)).startsWith("DYNAMIC_DEFAULT_BROKER_CONFIG:log.retention.ms=7200000");
        assertThat(inherited.synonyms().stream().map(s -> kafkasOrder.indexOf(s.source())).toList()).isSorted();

        admin.incrementalAlterConfigs(Map.of(broker.apply(1), set.apply("log.retention.ms", null),
            broker.apply(-1), set.apply("log.retention.ms", null))).all().get();
        for (int id : List.of(0, 1)) {
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(
                cluster.replica(id, tp).orElseThrow().log().orElseThrow().config().retentionMs())
                .isEqualTo(168 * 3_600_000L));
        }
    }
}
