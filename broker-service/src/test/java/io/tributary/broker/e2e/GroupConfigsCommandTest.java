package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.KafkaTool;
import io.tributary.broker.testing.TestBroker;
import io.tributary.broker.testing.WireClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.message.ConsumerGroupHeartbeatRequestData;
import org.apache.kafka.common.requests.ConsumerGroupHeartbeatRequest;
import org.apache.kafka.common.requests.ConsumerGroupHeartbeatResponse;
import org.apache.kafka.common.requests.FindCoordinatorRequest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Group configs (KIP-848 group configs, and KIP-932's {@code share.*}) on GROUP resources, with
 * Kafka's own {@code kafka-configs --entity-type groups} and the admin client: set, described with
 * their sources, refused out of the broker's bounds with Kafka's messages, deleted, and followed by
 * the coordinator (a group's heartbeat interval reaches its members).
 */
class GroupConfigsCommandTest {

    private static final String TOOL = "org.apache.kafka.tools.ConfigCommand";

    @TempDir
    static Path dir;
    static TestBroker broker;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.start(dir);
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic("orders", 2, (short) 1))).all().get();
        }
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    private static KafkaTool.Result configs(String... args) throws Exception {
        return KafkaTool.runAgainst(broker.bootstrapServers(), TOOL, args);
    }

    @Test
    void kafkaConfigsSetsDescribesAndDeletesAGroupsConfigs() throws Exception {
        KafkaTool.Result altered = configs("--entity-type", "groups", "--entity-name", "billing", "--alter",
            "--add-config", "consumer.session.timeout.ms=50000,share.auto.offset.reset=earliest");
        assertThat(altered.exitCode()).as(altered.output()).isZero();
        assertThat(altered.output()).contains("Completed updating config for group billing.");

        KafkaTool.Result described = configs("--entity-type", "groups", "--entity-name", "billing", "--describe");
        assertThat(described.exitCode()).as(described.output()).isZero();
        assertThat(described.output()).contains("consumer.session.timeout.ms=50000", "share.auto.offset.reset=earliest");

        try (Admin admin = broker.admin()) {
            ConfigResource billing = new ConfigResource(ConfigResource.Type.GROUP, "billing");
            Config config = admin.describeConfigs(List.of(billing), new DescribeConfigsOptions().includeSynonyms(true))
                .all().get().get(billing);
            ConfigEntry session = config.get("consumer.session.timeout.ms");
            assertThat(session.value()).isEqualTo("50000");
            assertThat(session.source()).isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_GROUP_CONFIG);
            assertThat(session.synonyms()).extracting(ConfigEntry.ConfigSynonym::name)
                .containsExactly("consumer.session.timeout.ms", "group.consumer.session.timeout.ms");
            ConfigEntry heartbeat = config.get("consumer.heartbeat.interval.ms");
            assertThat(heartbeat.value()).isEqualTo("5000");
            assertThat(heartbeat.source()).isEqualTo(ConfigEntry.ConfigSource.DEFAULT_CONFIG);
            assertThat(config.get("share.record.lock.duration.ms").value()).isEqualTo("30000");
            assertThat(config.get("consumer.assignor.offload.enable")).as("internal keys are not described").isNull();
        }

        KafkaTool.Result deleted = configs("--entity-type", "groups", "--entity-name", "billing", "--alter",
            "--delete-config", "consumer.session.timeout.ms");
        assertThat(deleted.exitCode()).as(deleted.output()).isZero();
        assertThat(configs("--entity-type", "groups", "--entity-name", "billing", "--describe").output())
            .doesNotContain("consumer.session.timeout.ms").contains("share.auto.offset.reset=earliest");
    }

    @Test
    void valuesOutsideTheBrokersBoundsAndUnknownKeysAreRefusedWithKafkasMessages() throws Exception {
        try (Admin admin = broker.admin()) {
            ConfigResource group = new ConfigResource(ConfigResource.Type.GROUP, "refused");
            assertThatThrownBy(() -> admin.incrementalAlterConfigs(Map.of(group, List.of(new AlterConfigOp(
                new ConfigEntry("consumer.session.timeout.ms", "1000"), AlterConfigOp.OpType.SET)))).all().get())
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("consumer.session.timeout.ms must be in the range 45000 to 60000 inclusive.");
            assertThatThrownBy(() -> admin.incrementalAlterConfigs(Map.of(group, List.of(new AlterConfigOp(
                new ConfigEntry("consumer.no.such.key", "1"), AlterConfigOp.OpType.SET)))).all().get())
                .cause().isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("Unknown group config name: consumer.no.such.key");
            assertThatThrownBy(() -> admin.incrementalAlterConfigs(Map.of(group, List.of(new AlterConfigOp(
                new ConfigEntry("share.auto.offset.reset", "middle"), AlterConfigOp.OpType.SET)))).all().get())
                .cause().isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("share.auto.offset.reset");
            Config unchanged = admin.describeConfigs(List.of(group)).all().get().get(group);
            assertThat(unchanged.get("consumer.session.timeout.ms").source())
                .isEqualTo(ConfigEntry.ConfigSource.DEFAULT_CONFIG);
        }
    }

    @Test
    void theCoordinatorGivesAGroupsMembersItsOwnHeartbeatInterval() throws Exception {
        try (Admin admin = broker.admin()) {
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, "tuned"),
                List.of(new AlterConfigOp(new ConfigEntry("consumer.heartbeat.interval.ms", "7000"),
                    AlterConfigOp.OpType.SET)))).all().get();
        }
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            client.send(new FindCoordinatorRequest.Builder(new org.apache.kafka.common.message.FindCoordinatorRequestData()
                .setKey("tuned").setKeyType((byte) 0)).build());
            // The broker's watch applies the change; the first heartbeat after it carries the group's interval.
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                ConsumerGroupHeartbeatResponse response = client.send(new ConsumerGroupHeartbeatRequest.Builder(
                    new ConsumerGroupHeartbeatRequestData().setGroupId("tuned").setMemberId(Uuid.randomUuid().toString())
                        .setMemberEpoch(0).setRebalanceTimeoutMs(10_000).setSubscribedTopicNames(List.of("orders"))
                        .setTopicPartitions(List.of())).build());
                assertThat(response.data().errorCode()).isZero();
                assertThat(response.data().heartbeatIntervalMs()).isEqualTo(7000);
            });
        }
    }
}
