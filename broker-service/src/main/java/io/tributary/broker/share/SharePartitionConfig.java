package io.tributary.broker.share;

import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.coordinator.group.ShareGroupAutoOffsetResetStrategy;

/**
 * The settings one share-partition runs with: the broker's {@code group.share.*} values, replaced
 * by its group's {@code share.*} configs where set (KIP-932, Kafka's {@code GroupConfig}).
 *
 * @param recordLockDurationMs how long an acquisition lock lasts, ms ({@code share.record.lock.duration.ms})
 * @param deliveryCountLimit   deliveries after which a released record is archived ({@code share.delivery.count.limit})
 * @param maxRecordLocks       most offsets in the in-flight window ({@code share.partition.max.record.locks})
 * @param autoOffsetReset      where a share-partition without state starts ({@code share.auto.offset.reset})
 * @param isolationLevel       read_uncommitted, or read_committed to deliver only committed records
 *                             ({@code share.isolation.level})
 */
public record SharePartitionConfig(int recordLockDurationMs, int deliveryCountLimit, int maxRecordLocks,
                                   ShareGroupAutoOffsetResetStrategy autoOffsetReset, IsolationLevel isolationLevel) {
}
