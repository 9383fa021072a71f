package io.tributary.broker.group;

import java.util.Optional;
import org.apache.kafka.coordinator.group.GroupConfig;

/**
 * The per-group configs of KIP-848 and KIP-932 groups (Kafka's {@link GroupConfig}:
 * {@code consumer.session.timeout.ms}, {@code share.record.lock.duration.ms}, ...), set with
 * IncrementalAlterConfigs on GROUP resources. Lookups come from memory and never block.
 */
@FunctionalInterface
public interface GroupConfigLookup {

    /** No group has configs of its own: every group follows the broker's {@code group.*} settings. */
    GroupConfigLookup NONE = groupId -> Optional.empty();

    /**
     * @return the group's config (its overrides over the broker's values), or empty when the group
     *         has no override
     */
    Optional<GroupConfig> groupConfig(String groupId);
}
