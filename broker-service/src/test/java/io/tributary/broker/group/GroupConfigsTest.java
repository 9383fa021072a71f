package io.tributary.broker.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.broker.coordinator.InMemoryCoordinatorLog;
import io.tributary.broker.testing.MockTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.message.ConsumerGroupHeartbeatRequestData;
import org.apache.kafka.common.message.ConsumerGroupHeartbeatResponseData;
import org.apache.kafka.coordinator.group.GroupConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Per-group configs of KIP-848 groups: a group's {@code consumer.session.timeout.ms} and
 * {@code consumer.heartbeat.interval.ms} replace the broker's for that group only, and overrides
 * are checked against the broker's bounds as Kafka checks them.
 */
class GroupConfigsTest {

    private static final int PARTITIONS = 2;

    private final MockTime time = new MockTime();
    private GroupCoordinator coordinator;

    private void start(GroupConfigLookup groupConfigs) {
        ConsumerGroupHeartbeats.Config defaults = ConsumerGroupHeartbeats.Config.defaults();
        coordinator = new GroupCoordinator(new InMemoryCoordinatorLog(), new GroupCoordinator.Config(PARTITIONS, 1000,
            300_000, 0, 100, 5000, 4096, 60_000, 600_000), time, new MockTimer(time),
            GroupTopics.of(Map.of("orders", new GroupTopic(Uuid.randomUuid(), 4))),
            new ConsumerGroupHeartbeats.Config(defaults.sessionTimeoutMs(), defaults.heartbeatIntervalMs(),
                defaults.maxSize(), defaults.assignors(), groupConfigs));
        GroupTestSupport.loadAll(coordinator, PARTITIONS);
    }

    @AfterEach
    void stop() {
        if (coordinator != null) {
            coordinator.shutdown();
        }
    }

    private ConsumerGroupHeartbeatResponseData join(String groupId) {
        return coordinator.modernGroups().consumerGroupHeartbeat(new ConsumerGroupHeartbeatRequestData().setGroupId(groupId)
            .setMemberId(Uuid.randomUuid().toString()).setMemberEpoch(0).setRebalanceTimeoutMs(10_000)
            .setSubscribedTopicNames(List.of("orders")).setTopicPartitions(List.of()), (short) 1, "client",
            "127.0.0.1").join();
    }

    @Test
    void aGroupsOwnSessionTimeoutAndHeartbeatIntervalReplaceTheBrokersForThatGroupOnly() {
        GroupConfig slow = GroupConfigDefaults.kafkaDefaults().groupConfig(Map.of(
            GroupConfig.CONSUMER_SESSION_TIMEOUT_MS_CONFIG, "60000",
            GroupConfig.CONSUMER_HEARTBEAT_INTERVAL_MS_CONFIG, "7000"));
        start(groupId -> groupId.equals("slow") ? Optional.of(slow) : Optional.empty());

        assertThat(join("slow").heartbeatIntervalMs()).isEqualTo(7000);
        assertThat(join("plain").heartbeatIntervalMs()).as("the broker's 5 s").isEqualTo(5000);

        // Neither member heartbeats again: the broker's 45 s end one session, the group's 60 s the other.
        time.advance(45_000);
        assertThat(coordinator.modernGroups().describeConsumerGroup("plain").members()).isEmpty();
        assertThat(coordinator.modernGroups().describeConsumerGroup("slow").members()).hasSize(1);
        time.advance(15_000);
        assertThat(coordinator.modernGroups().describeConsumerGroup("slow").members()).isEmpty();
    }

    @Test
    void overridesAreCheckedAgainstTheBrokersBoundsWithKafkasMessages() {
        GroupConfigDefaults defaults = GroupConfigDefaults.kafkaDefaults();
        defaults.validate(Map.of(GroupConfig.CONSUMER_SESSION_TIMEOUT_MS_CONFIG, "50000"));
        assertThatThrownBy(() -> defaults.validate(Map.of(GroupConfig.CONSUMER_SESSION_TIMEOUT_MS_CONFIG, "10000")))
            .isInstanceOf(InvalidConfigurationException.class)
            .hasMessage("consumer.session.timeout.ms must be in the range 45000 to 60000 inclusive.");
        assertThatThrownBy(() -> defaults.validate(Map.of("consumer.no.such.key", "1")))
            .isInstanceOf(InvalidConfigurationException.class).hasMessage("Unknown group config name: consumer.no.such.key");
    }

    @Test
    void aBrokerSetOutsideKafkasDefaultBoundsAcceptsItsOwnValueForAGroup() {
        GroupConfigDefaults defaults = new GroupConfigDefaults(Map.of("group.consumer.session.timeout.ms", 10_000,
            "group.consumer.heartbeat.interval.ms", 1_000));
        defaults.validate(Map.of(GroupConfig.CONSUMER_SESSION_TIMEOUT_MS_CONFIG, "10000",
            GroupConfig.CONSUMER_HEARTBEAT_INTERVAL_MS_CONFIG, "1000"));
        assertThatThrownBy(() -> defaults.validate(Map.of(GroupConfig.CONSUMER_SESSION_TIMEOUT_MS_CONFIG, "9999")))
            .isInstanceOf(InvalidConfigurationException.class);
        assertThat(defaults.brokerSynonym(GroupConfig.CONSUMER_SESSION_TIMEOUT_MS_CONFIG))
            .contains(Map.entry("group.consumer.session.timeout.ms", "10000"));
        assertThat(defaults.isSet("group.consumer.session.timeout.ms")).isTrue();
        assertThat(defaults.brokerSynonym(GroupConfig.SHARE_AUTO_OFFSET_RESET_CONFIG)).isEmpty();
        assertThat(defaults.groupConfig(Map.of()).consumerSessionTimeoutMs()).contains(10_000);
    }
}
