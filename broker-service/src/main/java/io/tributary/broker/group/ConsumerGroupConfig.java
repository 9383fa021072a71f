package io.tributary.broker.group;

import java.util.List;
import org.apache.kafka.coordinator.group.ConsumerGroupMigrationPolicy;

/**
 * The settings of KIP-848 consumer groups (Kafka's {@code group.consumer.*}).
 *
 * @param sessionTimeoutMs    {@code group.consumer.session.timeout.ms}
 * @param heartbeatIntervalMs {@code group.consumer.heartbeat.interval.ms}
 * @param maxSize             {@code group.consumer.max.size}
 * @param assignors           {@code group.consumer.assignors}: {@code uniform}, {@code range}, or Kafka's class
 *                            names of them; the first is the default
 * @param migrationPolicy     {@code group.consumer.migration.policy}: online migration between the classic and the
 *                            consumer protocol ({@code bidirectional}, {@code upgrade}, {@code downgrade}, {@code disabled})
 * @throws IllegalArgumentException an assignor this broker does not have
 */
public record ConsumerGroupConfig(int sessionTimeoutMs, int heartbeatIntervalMs, int maxSize, List<String> assignors,
                                  ConsumerGroupMigrationPolicy migrationPolicy) {

    /** The settings with Kafka's default migration policy, {@code bidirectional}. */
    public ConsumerGroupConfig(int sessionTimeoutMs, int heartbeatIntervalMs, int maxSize, List<String> assignors) {
        this(sessionTimeoutMs, heartbeatIntervalMs, maxSize, assignors, ConsumerGroupMigrationPolicy.BIDIRECTIONAL);
    }

    ConsumerGroupHeartbeats.Config toConfig(GroupConfigLookup groupConfigs) {
        java.util.LinkedHashMap<String, org.apache.kafka.coordinator.group.api.assignor.ConsumerGroupPartitionAssignor>
            chosen = new java.util.LinkedHashMap<>();
        for (String name : assignors.stream().flatMap(a -> java.util.Arrays.stream(a.split(",")))
                .map(String::trim).filter(a -> !a.isEmpty()).toList()) {
            var assignor = switch (name) {
                case "uniform", "org.apache.kafka.coordinator.group.assignor.UniformAssignor" ->
                    new org.apache.kafka.coordinator.group.assignor.UniformAssignor();
                case "range", "org.apache.kafka.coordinator.group.assignor.RangeAssignor" ->
                    new org.apache.kafka.coordinator.group.assignor.RangeAssignor();
                default -> throw new IllegalArgumentException("Unknown group.consumer.assignors entry " + name
                    + ": uniform and range are served");
            };
            chosen.put(assignor.name(), assignor);
        }
        return new ConsumerGroupHeartbeats.Config(sessionTimeoutMs, heartbeatIntervalMs, maxSize, chosen, groupConfigs,
            migrationPolicy);
    }

    /** These settings under Kafka's names, for {@link GroupConfigDefaults}. */
    public java.util.Map<String, Object> kafkaSettings() {
        return java.util.Map.of(
            "group.consumer.session.timeout.ms", sessionTimeoutMs,
            "group.consumer.heartbeat.interval.ms", heartbeatIntervalMs,
            "group.consumer.max.size", maxSize);
    }
}
