package io.tributary.broker.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Validation of broker settings that would otherwise fail later, at a worse moment. */
class BrokerPropertiesTest {

    @Test
    void anOffsetsTopicSegmentSizeBelowTheTopicMinimumIsRefusedAtStartup() {
        assertThatThrownBy(() -> BrokerProperties.bind(Map.of("broker.offsets-topic-segment-bytes", "16384")))
            .rootCause().hasMessageContaining("broker.offsets-topic-segment-bytes must be at least 1048576");
        assertThat(BrokerProperties.bind(Map.of("broker.offsets-topic-segment-bytes", "1048576"))
            .offsetsTopicSegmentBytes()).isEqualTo(1048576);
    }
}
