package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.KafkaTool;
import io.tributary.broker.testing.TestBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dynamic broker configs (KIP-226, ZooKeeper mode) with Kafka's own kafka-configs
 * ({@code org.apache.kafka.tools.ConfigCommand}): set cluster-wide ({@code --entity-default}) and per
 * broker, applied at once without a restart (a lowered {@code message.max.bytes} refuses a larger
 * record), shown with their sources, kept across a restart, deleted; a static setting is refused
 * with Kafka's message.
 */
class DynamicBrokerConfigsTest {

    private static final String TOOL = "org.apache.kafka.tools.ConfigCommand";
    private static final String TOPIC = "inherits";

    @TempDir
    static Path dir;
    static TestBroker broker;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.start(dir);
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get();
        }
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    private static KafkaTool.Result configs(String... args) throws Exception {
        return KafkaTool.runAgainst(broker.bootstrapServers(), TOOL, args);
    }

    /**
     * A broker is described with every key Kafka 3.9 in ZooKeeper mode lists, as UIs read them:
     * the version keys they guess the version from, Tributary's own values where it has the setting,
     * Kafka's defaults otherwise, passwords hidden; and kafka-configs --all prints them.
     */
    @Test
    void aBrokerIsDescribedWithEveryKeyKafka39ListsInZooKeeperMode() throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.BROKER, "0");
        Config config;
        try (Admin admin = broker.admin()) {
            config = admin.describeConfigs(List.of(resource)).all().get().get(resource);
        }
        java.util.Set<String> names = new java.util.HashSet<>();
        config.entries().forEach(e -> names.add(e.name()));
        assertThat(names).containsAll(io.tributary.broker.config.KafkaBrokerConfigs.all().keySet());
        assertThat(names).hasSizeGreaterThanOrEqualTo(314);

        assertThat(config.get("inter.broker.protocol.version").value()).isEqualTo("3.9-IV0");
        assertThat(config.get("log.message.format.version").value()).isEqualTo("3.0-IV1");
        assertThat(config.get("min.insync.replicas").value())
            .isEqualTo(String.valueOf(broker.server().properties().minInsyncReplicas()));
        assertThat(config.get("default.replication.factor").value())
            .isEqualTo(String.valueOf(broker.server().properties().defaultReplicationFactor()));
        assertThat(config.get("zookeeper.connect").value()).isEqualTo(broker.server().properties().zookeeperConnect());
        assertThat(config.get("sasl.enabled.mechanisms").value()).as("Tributary's, not Kafka's GSSAPI")
            .isEqualTo("SCRAM-SHA-256,SCRAM-SHA-512");
        // A Kafka setting Tributary does not take: Kafka's default, read-only.
        assertThat(config.get("alter.log.dirs.replication.quota.window.num").value()).isEqualTo("11");
        assertThat(config.get("alter.log.dirs.replication.quota.window.num").isReadOnly()).isTrue();
        assertThat(config.get("alter.log.dirs.replication.quota.window.num").source())
            .isEqualTo(ConfigEntry.ConfigSource.DEFAULT_CONFIG);
        assertThat(config.get("ssl.keystore.password").isSensitive()).isTrue();
        assertThat(config.get("ssl.keystore.password").value()).isNull();
        assertThat(config.get("log.segment.bytes").type()).isEqualTo(ConfigEntry.ConfigType.INT);

        KafkaTool.Result described = configs("--entity-type", "brokers", "--entity-name", "0", "--describe", "--all");
        assertThat(described.exitCode()).as(described.output()).isZero();
        assertThat(described.output()).contains("inter.broker.protocol.version=3.9-IV0")
            .contains("log.message.format.version=3.0-IV1").contains("ssl.keystore.password=null");
    }

    private static Config topicConfig() throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, TOPIC);
        try (Admin admin = broker.admin()) {
            return admin.describeConfigs(List.of(resource)).all().get().get(resource);
        }
    }

    /** Whether a record of {@code size} bytes is refused as too large (RecordTooLargeException). */
    private static boolean refused(int size) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = broker.producer(Map.of(ProducerConfig.RETRIES_CONFIG, 0,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000, ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 20_000))) {
            producer.send(new ProducerRecord<>(TOPIC, new byte[size])).get();
            return false;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RecordTooLargeException) {
                return true;
            }
            throw e;
        }
    }

    @Test
    void setDescribedAppliedAtOnceKeptAcrossARestartAndDeleted() throws Exception {
        assertThat(refused(2_000)).isFalse();

        KafkaTool.Result clusterWide = configs("--entity-type", "brokers", "--entity-default", "--alter",
            "--add-config", "message.max.bytes=1000");
        assertThat(clusterWide.exitCode()).as(clusterWide.output()).isZero();
        assertThat(clusterWide.output()).contains("Completed updating default config for brokers in the cluster.");
        await().atMost(Duration.ofSeconds(30)).until(() -> refused(2_000));

        KafkaTool.Result own = configs("--entity-type", "brokers", "--entity-name", "0", "--alter",
            "--add-config", "log.retention.ms=3600000,log.cleanup.policy=compact");
        assertThat(own.exitCode()).as(own.output()).isZero();
        await().atMost(Duration.ofSeconds(30)).until(() -> "3600000".equals(topicConfig().get("retention.ms").value()));
        Config inherited = topicConfig();
        assertThat(inherited.get("retention.ms").source()).isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_BROKER_CONFIG);
        assertThat(inherited.get("cleanup.policy").value()).isEqualTo("compact");
        assertThat(inherited.get("max.message.bytes").value()).isEqualTo("1000");
        assertThat(inherited.get("max.message.bytes").source())
            .isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG);
        // Compacted now: records need keys; set it back before producing again.
        assertThat(configs("--entity-type", "brokers", "--entity-name", "0", "--alter", "--delete-config",
            "log.cleanup.policy").exitCode()).isZero();

        KafkaTool.Result describedBroker = configs("--entity-type", "brokers", "--entity-name", "0", "--describe");
        assertThat(describedBroker.exitCode()).as(describedBroker.output()).isZero();
        assertThat(describedBroker.output()).contains("Dynamic configs for broker 0 are:")
            .contains("log.retention.ms=3600000 sensitive=false synonyms={DYNAMIC_BROKER_CONFIG:log.retention.ms=3600000")
            .as("the tool lists a broker's own dynamic configs only").doesNotContain("message.max.bytes");
        KafkaTool.Result describedDefault = configs("--entity-type", "brokers", "--entity-default", "--describe");
        assertThat(describedDefault.output()).contains("Default configs for brokers in the cluster are:")
            .contains("message.max.bytes=1000 sensitive=false synonyms={DYNAMIC_DEFAULT_BROKER_CONFIG:message.max.bytes=1000}")
            .doesNotContain("log.retention.ms");

        // This broker's own value wins over the cluster-wide one.
        assertThat(configs("--entity-type", "brokers", "--entity-name", "0", "--alter", "--add-config",
            "message.max.bytes=5000").exitCode()).isZero();
        await().atMost(Duration.ofSeconds(30)).until(() -> !refused(2_000));

        broker.restart();
        assertThat(topicConfig().get("retention.ms").value()).as("kept across a restart").isEqualTo("3600000");
        assertThat(refused(8_000)).isTrue();
        assertThat(refused(2_000)).isFalse();

        assertThat(configs("--entity-type", "brokers", "--entity-name", "0", "--alter", "--delete-config",
            "message.max.bytes,log.retention.ms").exitCode()).isZero();
        assertThat(configs("--entity-type", "brokers", "--entity-default", "--alter", "--delete-config",
            "message.max.bytes").exitCode()).isZero();
        await().atMost(Duration.ofSeconds(30)).until(() -> topicConfig().get("retention.ms").source()
            == ConfigEntry.ConfigSource.DEFAULT_CONFIG);
        assertThat(topicConfig().get("max.message.bytes").source()).isEqualTo(ConfigEntry.ConfigSource.DEFAULT_CONFIG);
        assertThat(refused(8_000)).isFalse();
    }

    /** Kafka's broker-wide {@code compression.type} and levels are dynamic log defaults, as in its ZooKeeper mode. */
    @Test
    void theClusterWideCompressionTypeIsEveryTopicsDefault() throws Exception {
        KafkaTool.Result set = configs("--entity-type", "brokers", "--entity-default", "--alter",
            "--add-config", "compression.type=zstd,compression.zstd.level=7");
        assertThat(set.exitCode()).as(set.output()).isZero();
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> "zstd".equals(topicConfig().get("compression.type").value()));
            Config inherited = topicConfig();
            assertThat(inherited.get("compression.type").source())
                .isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG);
            assertThat(inherited.get("compression.zstd.level").value()).isEqualTo("7");
            KafkaTool.Result bad = configs("--entity-type", "brokers", "--entity-default", "--alter",
                "--add-config", "compression.type=brotli");
            assertThat(bad.exitCode()).isNotZero();
        } finally {
            assertThat(configs("--entity-type", "brokers", "--entity-default", "--alter", "--delete-config",
                "compression.type,compression.zstd.level").exitCode()).isZero();
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> "producer".equals(topicConfig().get("compression.type").value()));
    }

    @Test
    void aListValuedSettingTakesAppendAndSubtract() throws Exception {
        ConfigResource clusterWide = new ConfigResource(ConfigResource.Type.BROKER, "");
        java.util.function.Function<org.apache.kafka.clients.admin.AlterConfigOp.OpType, org.apache.kafka.clients.admin.AlterConfigOp>
            policy = op -> new org.apache.kafka.clients.admin.AlterConfigOp(new ConfigEntry("log.cleanup.policy",
                op == org.apache.kafka.clients.admin.AlterConfigOp.OpType.SET ? "delete" : "compact"), op);
        try (Admin admin = broker.admin()) {
            for (var op : List.of(org.apache.kafka.clients.admin.AlterConfigOp.OpType.SET,
                    org.apache.kafka.clients.admin.AlterConfigOp.OpType.APPEND)) {
                admin.incrementalAlterConfigs(Map.of(clusterWide, List.of(policy.apply(op)))).all().get();
            }
            // Each broker applies a stored change from its ZooKeeper watch, a moment after the write.
            await().atMost(Duration.ofSeconds(30)).until(() -> "delete,compact".equals(admin.describeConfigs(
                List.of(clusterWide)).all().get().get(clusterWide).get("log.cleanup.policy").value()));
            admin.incrementalAlterConfigs(Map.of(clusterWide, List.of(policy.apply(
                org.apache.kafka.clients.admin.AlterConfigOp.OpType.SUBTRACT)))).all().get();
            await().atMost(Duration.ofSeconds(30)).until(() -> "delete".equals(admin.describeConfigs(
                List.of(clusterWide)).all().get().get(clusterWide).get("log.cleanup.policy").value()));
            assertThatThrownBy(() -> admin.incrementalAlterConfigs(Map.of(clusterWide, List.of(
                new org.apache.kafka.clients.admin.AlterConfigOp(new ConfigEntry("message.max.bytes", "1"),
                    org.apache.kafka.clients.admin.AlterConfigOp.OpType.APPEND)))).all().get())
                .hasCauseInstanceOf(org.apache.kafka.common.errors.InvalidConfigurationException.class);
            admin.incrementalAlterConfigs(Map.of(clusterWide, List.of(new org.apache.kafka.clients.admin.AlterConfigOp(
                new ConfigEntry("log.cleanup.policy", null), org.apache.kafka.clients.admin.AlterConfigOp.OpType.DELETE))))
                .all().get();
        }
    }

    private static long requestHandlerThreads() {
        return Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.isAlive() && t.getName().startsWith("broker-0-request-handler-")).count();
    }

    /**
     * Thread pools and the log cleaner change size while the broker runs, within Kafka's bounds (at
     * most double, at least half), and go back to the static size when the dynamic value is deleted.
     */
    @Test
    void threadPoolsAndTheLogCleanerAreResizedWhileTheBrokerRuns() throws Exception {
        int ioThreads = broker.server().properties().numIoThreads();
        io.tributary.broker.log.LogCleaner cleaner = broker.server().logManager().cleaner().orElseThrow();
        assertThat(requestHandlerThreads()).isEqualTo(ioThreads);
        KafkaTool.Result grown = configs("--entity-type", "brokers", "--entity-name", "0", "--alter", "--add-config",
            "num.io.threads=" + 2 * ioThreads + ",log.cleaner.threads=2,background.threads=12,"
                + "log.cleaner.io.max.bytes.per.second=1048576");
        assertThat(grown.exitCode()).as(grown.output()).isZero();
        await().atMost(Duration.ofSeconds(30)).until(() -> requestHandlerThreads() == 2L * ioThreads
            && cleaner.threadCount() == 2);
        assertThat(cleaner.config().maxIoBytesPerSecond()).isEqualTo(1_048_576.0);
        ConfigResource own = new ConfigResource(ConfigResource.Type.BROKER, "0");
        try (Admin admin = broker.admin()) {
            ConfigEntry entry = admin.describeConfigs(List.of(own)).all().get().get(own).get("num.io.threads");
            assertThat(entry.value()).isEqualTo(Integer.toString(2 * ioThreads));
            assertThat(entry.source()).isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_BROKER_CONFIG);
            assertThat(entry.isReadOnly()).isFalse();
        }

        KafkaTool.Result tooMany = configs("--entity-type", "brokers", "--entity-name", "0", "--alter", "--add-config",
            "num.io.threads=" + (4 * ioThreads + 1));
        assertThat(tooMany.exitCode()).isNotZero();
        assertThat(tooMany.output()).contains("value should not be greater than double the current value " + 2 * ioThreads);
        KafkaTool.Result cleanerTooMany = configs("--entity-type", "brokers", "--entity-name", "0", "--alter",
            "--add-config", "log.cleaner.threads=5");
        assertThat(cleanerTooMany.output())
            .contains("Log cleaner threads cannot be increased to more than double the current value 2");
        KafkaTool.Result hidden = configs("--entity-type", "brokers", "--entity-default", "--alter",
            "--add-config", "log.cleaner.threads=3");
        assertThat(hidden.exitCode()).as("the cluster-wide value is hidden by this broker's own: nothing changes here")
            .isZero();

        assertThat(configs("--entity-type", "brokers", "--entity-name", "0", "--alter", "--delete-config",
            "num.io.threads,log.cleaner.threads,background.threads,log.cleaner.io.max.bytes.per.second").exitCode())
            .isZero();
        await().atMost(Duration.ofSeconds(30)).until(() -> requestHandlerThreads() == ioThreads
            && cleaner.threadCount() == 3);
        assertThat(configs("--entity-type", "brokers", "--entity-default", "--alter", "--delete-config",
            "log.cleaner.threads").exitCode()).isZero();
        await().atMost(Duration.ofSeconds(30)).until(() -> cleaner.threadCount() == 1);
        assertThat(cleaner.config().maxIoBytesPerSecond()).isEqualTo(Double.MAX_VALUE);
        assertThat(refused(100)).as("requests are still served").isFalse();
    }

    /**
     * Connection limits (KIP-402) change while the broker runs: an address given one connection by
     * {@code max.connections.per.ip.overrides} has its second closed at once, other addresses are
     * unaffected, and deleting the setting lifts the limit; limits Kafka refuses are refused.
     */
    @Test
    void connectionLimitsChangeWhileTheBrokerRuns() throws Exception {
        java.net.InetAddress other = java.net.InetAddress.getByName("127.0.0.2");
        String host = broker.bootstrapServers().substring(0, broker.bootstrapServers().lastIndexOf(':'));
        int port = Integer.parseInt(broker.bootstrapServers().substring(broker.bootstrapServers().lastIndexOf(':') + 1));
        KafkaTool.Result set = configs("--entity-type", "brokers", "--entity-name", "0", "--alter", "--add-config",
            "max.connections.per.ip.overrides=[127.0.0.2:1,127.0.0.1:1000]");
        assertThat(set.exitCode()).as(set.output()).isZero();
        await().atMost(Duration.ofSeconds(30)).until(() -> broker.server().connectionQuotas().limits()
            .maxConnectionsPerIpOverrides().containsValue(1));
        try (io.tributary.broker.testing.WireClient first = new io.tributary.broker.testing.WireClient(host, port, other);
             io.tributary.broker.testing.WireClient second = new io.tributary.broker.testing.WireClient(host, port, other)) {
            org.apache.kafka.common.requests.ApiVersionsResponse answer = first.send(
                new org.apache.kafka.common.requests.ApiVersionsRequest.Builder().build((short) 3));
            assertThat(answer.data().errorCode()).isZero();
            second.setReadTimeoutMs(10_000);
            assertThat(second.isClosedByBroker()).as("over its address's limit").isTrue();
        }
        assertThat(refused(100)).as("127.0.0.1 may have 1000").isFalse();

        // Only the addresses given overrides may connect at all.
        KafkaTool.Result zero = configs("--entity-type", "brokers", "--entity-name", "0", "--alter", "--add-config",
            "max.connections.per.ip=0");
        assertThat(zero.exitCode()).as("per-IP 0 needs overrides, which this set keeps").isZero();
        KafkaTool.Result bad = configs("--entity-type", "brokers", "--entity-name", "0", "--alter", "--delete-config",
            "max.connections.per.ip.overrides");
        assertThat(bad.exitCode()).isNotZero();
        assertThat(bad.output()).contains("max.connections.per.ip can be 0 only if max.connections.per.ip.overrides");

        assertThat(configs("--entity-type", "brokers", "--entity-name", "0", "--alter", "--delete-config",
            "max.connections.per.ip,max.connections.per.ip.overrides").exitCode()).isZero();
        await().atMost(Duration.ofSeconds(30)).until(() -> broker.server().connectionQuotas().limits()
            .maxConnectionsPerIpOverrides().isEmpty());
        try (io.tributary.broker.testing.WireClient first = new io.tributary.broker.testing.WireClient(host, port, other);
             io.tributary.broker.testing.WireClient second = new io.tributary.broker.testing.WireClient(host, port, other)) {
            for (io.tributary.broker.testing.WireClient client : List.of(first, second)) {
                org.apache.kafka.common.requests.ApiVersionsResponse answer = client.send(
                    new org.apache.kafka.common.requests.ApiVersionsRequest.Builder().build((short) 3));
                assertThat(answer.data().errorCode()).isZero();
            }
        }
    }

    @Test
    void aStaticSettingOrABadValueIsRefusedWithKafkasMessage() throws Exception {
        KafkaTool.Result staticKey = configs("--entity-type", "brokers", "--entity-name", "0", "--alter",
            "--add-config", "broker.id=5");
        assertThat(staticKey.exitCode()).isNotZero();
        assertThat(staticKey.output()).contains("Invalid config value for resource ConfigResource(type=BROKER, name='0'):"
            + " Cannot update these configs dynamically: Set(broker.id)");

        KafkaTool.Result badValue = configs("--entity-type", "brokers", "--entity-default", "--alter",
            "--add-config", "log.retention.ms=soon");
        assertThat(badValue.exitCode()).isNotZero();
        assertThat(badValue.output()).contains("log.retention.ms");

        ConfigResource own = new ConfigResource(ConfigResource.Type.BROKER, "0");
        ConfigResource clusterWide = new ConfigResource(ConfigResource.Type.BROKER, "");
        try (Admin admin = broker.admin()) {
            Map<ConfigResource, Config> described = admin.describeConfigs(List.of(own, clusterWide)).all().get();
            assertThat(described.get(own).get("broker.id").value()).as("nothing was stored").isEqualTo("0");
            assertThat(described.get(own).get("broker.id").isReadOnly()).isTrue();
            assertThat(described.get(clusterWide).get("log.retention.ms")).as("nothing was stored").isNull();
        }
    }
}
