package io.tributary.broker.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ShareGroupPropertiesTest {

    @Test
    void defaultsAreKafkas() {
        ShareGroupProperties defaults = ShareGroupProperties.defaults();
        assertThat(defaults.kafkaSettings()).containsEntry("group.share.session.timeout.ms", 45000)
            .containsEntry("group.share.heartbeat.interval.ms", 5000)
            .containsEntry("group.share.max.size", 200)
            .containsEntry("group.share.record.lock.duration.ms", 30000)
            .containsEntry("group.share.delivery.count.limit", 5)
            .containsEntry("group.share.partition.max.record.locks", 2000)
            .containsEntry("group.share.max.share.sessions", 2000);
    }

    @Test
    void kafkaNamesMapToBrokerProperties() {
        assertThat(BrokerConfigNames.propertyFor("group.share.record.lock.duration.ms"))
            .contains("broker.group-share-record-lock-duration-ms");
        Map<String, Object> mapped = ServerPropertiesEnvironmentPostProcessor.map(props(
            "group.share.delivery.count.limit", "3"), unknown -> { throw new AssertionError(unknown); });
        assertThat(ShareGroupProperties.bind(mapped).groupShareDeliveryCountLimit()).isEqualTo(3);
    }

    @Test
    void shareCoordinatorDefaultsAreKafkas() {
        ShareGroupProperties defaults = ShareGroupProperties.defaults();
        assertThat(defaults.shareCoordinatorStateTopicNumPartitions()).isEqualTo(50);
        assertThat(defaults.shareCoordinatorStateTopicReplicationFactor()).isEqualTo((short) 3);
        assertThat(defaults.shareCoordinatorStateTopicMinIsr()).isEqualTo(2);
        assertThat(defaults.shareCoordinatorStateTopicSegmentBytes()).isEqualTo(100 * 1024 * 1024);
        assertThat(defaults.shareCoordinatorSnapshotUpdateRecordsPerSnapshot()).isEqualTo(500);
        assertThat(defaults.shareCoordinatorWriteTimeoutMs()).isEqualTo(5000);
    }

    @Test
    void shareCoordinatorKafkaNamesMapToBrokerProperties() {
        assertThat(BrokerConfigNames.propertyFor("share.coordinator.state.topic.num.partitions"))
            .contains("broker.share-coordinator-state-topic-num-partitions");
        java.util.Properties props = props("share.coordinator.state.topic.num.partitions", "3");
        props.setProperty("share.coordinator.state.topic.replication.factor", "1");
        props.setProperty("share.coordinator.state.topic.min.isr", "1");
        props.setProperty("share.coordinator.state.topic.segment.bytes", "2097152");
        props.setProperty("share.coordinator.snapshot.update.records.per.snapshot", "4");
        ShareGroupProperties bound = ShareGroupProperties.bind(ServerPropertiesEnvironmentPostProcessor.map(props,
            unknown -> { throw new AssertionError(unknown); }));
        assertThat(bound.shareCoordinatorStateTopicNumPartitions()).isEqualTo(3);
        assertThat(bound.shareCoordinatorStateTopicReplicationFactor()).isEqualTo((short) 1);
        assertThat(bound.shareCoordinatorStateTopicMinIsr()).isEqualTo(1);
        assertThat(bound.shareCoordinatorStateTopicSegmentBytes()).isEqualTo(2097152);
        assertThat(bound.shareCoordinatorSnapshotUpdateRecordsPerSnapshot()).isEqualTo(4);
    }

    @Test
    void deadLetterSettingsDefaultToKafkasAndMapFromKafkasNames() {
        ShareGroupProperties defaults = ShareGroupProperties.defaults();
        assertThat(defaults.errorsDeadletterqueueTopicNamePrefix()).isEqualTo("dlq.");
        assertThat(defaults.errorsDeadletterqueueAutoCreateTopicsEnable()).isFalse();
        java.util.Properties props = props("errors.deadletterqueue.topic.name.prefix", "dead.");
        props.setProperty("errors.deadletterqueue.auto.create.topics.enable", "true");
        ShareGroupProperties bound = ShareGroupProperties.bind(ServerPropertiesEnvironmentPostProcessor.map(props,
            unknown -> { throw new AssertionError(unknown); }));
        assertThat(bound.errorsDeadletterqueueTopicNamePrefix()).isEqualTo("dead.");
        assertThat(bound.errorsDeadletterqueueAutoCreateTopicsEnable()).isTrue();
        assertThat(ShareGroupProperties.bind(Map.of("broker.errors-deadletterqueue-topic-name-prefix", ""))
            .errorsDeadletterqueueTopicNamePrefix()).as("blank: any name").isEmpty();
    }

    @Test
    void refusesAStateTopicSegmentBelowTheMinimum() {
        assertThatThrownBy(() -> ShareGroupProperties.bind(Map.of("broker.share-coordinator-state-topic-segment-bytes",
            "1000"))).hasStackTraceContaining("broker.share-coordinator-state-topic-segment-bytes must be at least");
    }

    @Test
    void refusesAHeartbeatIntervalNotBelowTheSessionTimeout() {
        assertThatThrownBy(() -> ShareGroupProperties.bind(Map.of("broker.group-share-session-timeout-ms", "5000")))
            .hasStackTraceContaining("broker.group-share-heartbeat-interval-ms must be positive and below");
    }

    private static java.util.Properties props(String key, String value) {
        java.util.Properties props = new java.util.Properties();
        props.setProperty(key, value);
        return props;
    }
}
