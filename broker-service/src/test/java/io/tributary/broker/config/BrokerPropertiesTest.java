package io.tributary.broker.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.apache.kafka.common.security.auth.SecurityProtocol;
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

    @Test
    void listenerNamesTakeTheirProtocolFromTheSecurityProtocolMap() {
        BrokerProperties properties = BrokerProperties.bind(Map.of(
            "broker.listeners", "INTERNAL://:9092,EXTERNAL://:9094",
            "broker.advertised-listeners", "INTERNAL://broker-0.headless:9092,EXTERNAL://203.0.113.7:31000",
            "broker.listener-security-protocol-map", "internal:PLAINTEXT, EXTERNAL:plaintext",
            "broker.inter-broker-listener-name", "INTERNAL"));
        assertThat(properties.listenerEndPoints()).extracting(EndPoint::listenerName, EndPoint::securityProtocol)
            .containsExactly(org.assertj.core.groups.Tuple.tuple("INTERNAL", SecurityProtocol.PLAINTEXT),
                org.assertj.core.groups.Tuple.tuple("EXTERNAL", SecurityProtocol.PLAINTEXT));
        assertThat(properties.advertisedEndPoints()).extracting(EndPoint::host).containsExactly("broker-0.headless",
            "203.0.113.7");
        assertThat(properties.interBrokerListener()).isEqualTo("INTERNAL");
    }

    @Test
    void listenerSettingsThatCannotBeServedAreRefusedAtStartup() {
        assertThatThrownBy(() -> BrokerProperties.bind(Map.of("broker.listeners", "EXTERNAL://:9094")))
            .rootCause().hasMessageContaining("listener.security.protocol.map does not map it");
        assertThatThrownBy(() -> BrokerProperties.bind(Map.of("broker.listeners", "EXTERNAL://:9094",
            "broker.listener-security-protocol-map", "EXTERNAL:TLS")))
            .rootCause().hasMessageContaining("unknown security protocol TLS");
        assertThatThrownBy(() -> BrokerProperties.bind(Map.of("broker.listeners", "EXTERNAL://:9094",
            "broker.listener-security-protocol-map", "EXTERNAL")))
            .rootCause().hasMessageContaining("is not of the form NAME:PROTOCOL");
        // SSL and SASL listeners bind; their key material and JAAS entries are checked when the
        // listener starts (BrokerSecurityPropertiesTest).
        assertThat(BrokerProperties.bind(Map.of("broker.listeners", "SSL://:9093")).listenerEndPoints().get(0)
            .securityProtocol()).isEqualTo(org.apache.kafka.common.security.auth.SecurityProtocol.SSL);
        assertThatThrownBy(() -> BrokerProperties.bind(Map.of("broker.listeners", "PLAINTEXT://:9092",
            "broker.advertised-listeners", "EXTERNAL://example.com:9094",
            "broker.listener-security-protocol-map", "EXTERNAL:PLAINTEXT")))
            .rootCause().hasMessageContaining("is not one of broker.listeners");
    }

    @Test
    void aBlankRackIsNoRack() {
        assertThat(BrokerProperties.bind(Map.of("broker.rack", "")).rack()).isNull();
        assertThat(BrokerProperties.bind(Map.of("broker.rack", "  ")).rack()).isNull();
        assertThat(BrokerProperties.bind(Map.of("broker.rack", " eu-west-1a ")).rack()).isEqualTo("eu-west-1a");
    }

    @Test
    void theConsumerGroupMigrationPolicyHasKafkasNameAndDefault() {
        BrokerProperties defaults = BrokerProperties.bind(Map.of());
        assertThat(defaults.groupConsumerMigrationPolicy()).isEqualTo("bidirectional");
        assertThat(BrokerConfigNames.describe(defaults)).containsEntry("group.consumer.migration.policy", "bidirectional");
        assertThat(BrokerConfigNames.propertyFor("group.consumer.migration.policy"))
            .hasValue("broker.group-consumer-migration-policy");
        assertThat(BrokerProperties.bind(Map.of("broker.group-consumer-migration-policy", "Disabled"))
            .groupConsumerMigrationPolicy()).isEqualTo("Disabled");
        assertThatThrownBy(() -> BrokerProperties.bind(Map.of("broker.group-consumer-migration-policy", "sideways")))
            .rootCause().hasMessageContaining("broker.group-consumer-migration-policy must be one of");
    }

    @Test
    void connectionLimitsHaveKafkasNamesAndDefaults() {
        BrokerProperties defaults = BrokerProperties.bind(Map.of());
        assertThat(defaults.maxConnections()).isEqualTo(Integer.MAX_VALUE);
        assertThat(defaults.maxConnectionsPerIp()).isEqualTo(Integer.MAX_VALUE);
        assertThat(defaults.maxConnectionsPerIpOverridesMap()).isEmpty();
        assertThat(defaults.maxConnectionCreationRate()).isEqualTo(Integer.MAX_VALUE);
        assertThat(BrokerConfigNames.describe(defaults)).containsEntry("max.connections", "2147483647")
            .containsEntry("max.connections.per.ip", "2147483647").containsEntry("max.connections.per.ip.overrides", "")
            .containsEntry("max.connection.creation.rate", "2147483647");
        assertThat(BrokerConfigNames.propertyFor("max.connections.per.ip.overrides"))
            .hasValue("broker.max-connections-per-ip-overrides");

        BrokerProperties set = BrokerProperties.bind(Map.of("broker.max-connections", "100",
            "broker.max-connections-per-ip-overrides", "broker-1.internal:20, 10.0.0.7:5,::1:3"));
        assertThat(set.maxConnections()).isEqualTo(100);
        assertThat(set.maxConnectionsPerIpOverridesMap()).containsExactly(Map.entry("broker-1.internal", 20),
            Map.entry("10.0.0.7", 5), Map.entry("::1", 3));
    }

    @Test
    void malformedConnectionLimitsAreRefusedAtStartup() {
        assertThatThrownBy(() -> BrokerProperties.bind(Map.of("broker.max-connections-per-ip-overrides", "10.0.0.7")))
            .rootCause().hasMessageContaining("not of the form host:count");
        assertThatThrownBy(() -> BrokerProperties.bind(Map.of("broker.max-connections-per-ip-overrides", "host:many")))
            .rootCause().hasMessageContaining("not of the form host:count");
        assertThatThrownBy(() -> BrokerProperties.bind(Map.of("broker.max-connections-per-ip", "0")))
            .rootCause().hasMessageContaining("broker.max-connections-per-ip can be 0 only if");
        assertThatThrownBy(() -> BrokerProperties.bind(Map.of("broker.max-connections", "-1")))
            .rootCause().hasMessageContaining("must not be negative");
    }
}
