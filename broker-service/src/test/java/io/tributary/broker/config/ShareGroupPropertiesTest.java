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
