package io.tributary.broker.share;

import io.tributary.broker.group.GroupConfigLookup;
import java.util.Optional;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.coordinator.group.GroupConfig;
import org.apache.kafka.coordinator.group.ShareGroupAutoOffsetResetStrategy;

/**
 * Resolves a share group's {@link SharePartitionConfig}: its {@code share.*} group configs
 * ({@link GroupConfigLookup}, set with IncrementalAlterConfigs on the GROUP resource) over the
 * broker's {@code group.share.*} settings. Lookups read memory and never block. Thread-safe.
 */
public final class ShareGroupSettings {

    private final int recordLockDurationMs;
    private final int deliveryCountLimit;
    private final int maxRecordLocks;
    private final GroupConfigLookup groupConfigs;

    /**
     * @param recordLockDurationMs {@code group.share.record.lock.duration.ms}
     * @param deliveryCountLimit   {@code group.share.delivery.count.limit}
     * @param maxRecordLocks       {@code group.share.partition.max.record.locks}
     */
    public ShareGroupSettings(int recordLockDurationMs, int deliveryCountLimit, int maxRecordLocks,
                              GroupConfigLookup groupConfigs) {
        this.recordLockDurationMs = recordLockDurationMs;
        this.deliveryCountLimit = deliveryCountLimit;
        this.maxRecordLocks = maxRecordLocks;
        this.groupConfigs = groupConfigs;
    }

    /** The settings of {@code groupId} now. */
    public SharePartitionConfig forGroup(String groupId) {
        Optional<GroupConfig> config = groupConfigs.groupConfig(groupId);
        return new SharePartitionConfig(
            config.flatMap(GroupConfig::shareRecordLockDurationMs).orElse(recordLockDurationMs),
            config.flatMap(GroupConfig::shareDeliveryCountLimit).orElse(deliveryCountLimit),
            config.flatMap(GroupConfig::sharePartitionMaxRecordLocks).orElse(maxRecordLocks),
            config.flatMap(GroupConfig::shareAutoOffsetReset).orElse(ShareGroupAutoOffsetResetStrategy.LATEST),
            config.flatMap(GroupConfig::shareIsolationLevel).orElse(IsolationLevel.READ_UNCOMMITTED));
    }
}
