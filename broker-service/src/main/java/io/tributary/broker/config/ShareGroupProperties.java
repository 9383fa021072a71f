package io.tributary.broker.config;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * The broker's share-group settings (KIP-932), Kafka's {@code group.share.*} under {@code broker.}
 * in Spring's kebab case ({@code broker.group-share-record-lock-duration-ms} is Kafka's
 * {@code group.share.record.lock.duration.ms}); a {@code server.properties} file given to the broker
 * sets them under Kafka's names. Defaults are Kafka 4.4's. A share group's own configs
 * ({@code share.record.lock.duration.ms}, ...) override the ones with a group synonym, within
 * Kafka's bounds widened to include the value here ({@code io.tributary.broker.group.GroupConfigDefaults}).
 *
 * <p>Immutable.
 *
 * @param groupShareSessionTimeoutMs        how long a share-group member may go without a heartbeat before
 *                                          it is fenced, ms ({@code group.share.session.timeout.ms})
 * @param groupShareHeartbeatIntervalMs     the heartbeat interval given to members, ms
 *                                          ({@code group.share.heartbeat.interval.ms})
 * @param groupShareMaxSize                 most members of one share group ({@code group.share.max.size})
 * @param groupShareRecordLockDurationMs    how long a record acquired by a ShareFetch stays locked to that
 *                                          member before it is released for redelivery, ms
 *                                          ({@code group.share.record.lock.duration.ms})
 * @param groupShareDeliveryCountLimit      deliveries of a record after which it is archived instead of
 *                                          redelivered ({@code group.share.delivery.count.limit})
 * @param groupSharePartitionMaxRecordLocks most records in flight (acquired) in one share-partition
 *                                          ({@code group.share.partition.max.record.locks})
 * @param groupShareMaxShareSessions        most share sessions this broker caches
 *                                          ({@code group.share.max.share.sessions}); a ShareFetch opening
 *                                          another gets SHARE_SESSION_LIMIT_REACHED
 * @param shareCoordinatorStateTopicNumPartitions partitions of {@code __share_group_state}
 *                                          ({@code share.coordinator.state.topic.num.partitions}, 50)
 * @param shareCoordinatorStateTopicReplicationFactor replication factor of {@code __share_group_state}
 *                                          ({@code share.coordinator.state.topic.replication.factor}, 3; capped
 *                                          by the live brokers when the topic is created, with a warning)
 * @param shareCoordinatorStateTopicMinIsr  {@code min.insync.replicas} of {@code __share_group_state}
 *                                          ({@code share.coordinator.state.topic.min.isr}, 2; capped by its
 *                                          replication factor)
 * @param shareCoordinatorStateTopicSegmentBytes {@code segment.bytes} of {@code __share_group_state}
 *                                          ({@code share.coordinator.state.topic.segment.bytes}, 100 MiB)
 * @param shareCoordinatorSnapshotUpdateRecordsPerSnapshot update records the share coordinator writes for a
 *                                          share-partition before it writes a whole snapshot of it again
 *                                          ({@code share.coordinator.snapshot.update.records.per.snapshot}, 500)
 * @param shareCoordinatorWriteTimeoutMs    how long a write to {@code __share_group_state} waits for its ISR,
 *                                          ms ({@code share.coordinator.write.timeout.ms}, 5000)
 * @param errorsDeadletterqueueTopicNamePrefix the prefix every share group's dead-letter topic must have
 *                                          ({@code errors.deadletterqueue.topic.name.prefix}, {@code dlq.}; blank:
 *                                          any name). As in Kafka 4.4 (KIP-1191) it is checked when a record is
 *                                          written to the dead-letter topic, not when the group config is set
 * @param errorsDeadletterqueueAutoCreateTopicsEnable whether a share group's dead-letter topic is created, with
 *                                          the broker's defaults, when first written to
 *                                          ({@code errors.deadletterqueue.auto.create.topics.enable}, false)
 * @throws IllegalArgumentException a value out of range (named in the message)
 */
@ConfigurationProperties("broker")
public record ShareGroupProperties(
        @DefaultValue("45000") int groupShareSessionTimeoutMs,
        @DefaultValue("5000") int groupShareHeartbeatIntervalMs,
        @DefaultValue("200") int groupShareMaxSize,
        @DefaultValue("30000") int groupShareRecordLockDurationMs,
        @DefaultValue("5") int groupShareDeliveryCountLimit,
        @DefaultValue("2000") int groupSharePartitionMaxRecordLocks,
        @DefaultValue("2000") int groupShareMaxShareSessions,
        @DefaultValue("50") int shareCoordinatorStateTopicNumPartitions,
        @DefaultValue("3") short shareCoordinatorStateTopicReplicationFactor,
        @DefaultValue("2") int shareCoordinatorStateTopicMinIsr,
        @DefaultValue("104857600") int shareCoordinatorStateTopicSegmentBytes,
        @DefaultValue("500") int shareCoordinatorSnapshotUpdateRecordsPerSnapshot,
        @DefaultValue("5000") int shareCoordinatorWriteTimeoutMs,
        @DefaultValue("dlq.") String errorsDeadletterqueueTopicNamePrefix,
        @DefaultValue("false") boolean errorsDeadletterqueueAutoCreateTopicsEnable) {

    public ShareGroupProperties {
        errorsDeadletterqueueTopicNamePrefix = errorsDeadletterqueueTopicNamePrefix == null ? ""
            : errorsDeadletterqueueTopicNamePrefix.trim();
        if (groupShareSessionTimeoutMs <= 0 || groupShareHeartbeatIntervalMs <= 0
                || groupShareHeartbeatIntervalMs >= groupShareSessionTimeoutMs) {
            throw new IllegalArgumentException("broker.group-share-heartbeat-interval-ms must be positive and below "
                + "broker.group-share-session-timeout-ms");
        }
        if (groupShareMaxSize < 1 || groupShareRecordLockDurationMs < 1 || groupShareDeliveryCountLimit < 1
                || groupSharePartitionMaxRecordLocks < 1 || groupShareMaxShareSessions < 1) {
            throw new IllegalArgumentException("broker.group-share-max-size, -record-lock-duration-ms, "
                + "-delivery-count-limit, -partition-max-record-locks and -max-share-sessions must be positive");
        }
        if (shareCoordinatorStateTopicNumPartitions < 1 || shareCoordinatorStateTopicReplicationFactor < 1
                || shareCoordinatorStateTopicMinIsr < 1 || shareCoordinatorSnapshotUpdateRecordsPerSnapshot < 0
                || shareCoordinatorWriteTimeoutMs < 1) {
            throw new IllegalArgumentException("broker.share-coordinator-state-topic-num-partitions, "
                + "-state-topic-replication-factor, -state-topic-min-isr and -write-timeout-ms must be positive, "
                + "-snapshot-update-records-per-snapshot not negative");
        }
        if (shareCoordinatorStateTopicSegmentBytes < LogConfig.MIN_TOPIC_SEGMENT_BYTES) {
            throw new IllegalArgumentException("broker.share-coordinator-state-topic-segment-bytes must be at least "
                + LogConfig.MIN_TOPIC_SEGMENT_BYTES + ", was " + shareCoordinatorStateTopicSegmentBytes);
        }
    }

    /** Kafka's defaults. */
    public static ShareGroupProperties defaults() {
        return bind(Map.of());
    }

    /**
     * Binds {@code broker.*} keys from a map, with the same rules and defaults as the Spring environment.
     *
     * @throws org.springframework.boot.context.properties.bind.BindException on a bad value
     */
    public static ShareGroupProperties bind(Map<String, ?> properties) {
        Binder binder = new Binder(new MapConfigurationPropertySource(properties));
        return binder.bindOrCreate("broker", Bindable.of(ShareGroupProperties.class));
    }

    /** These settings under Kafka's names ({@code group.share.*}), for {@code GroupConfigDefaults}. */
    public Map<String, Object> kafkaSettings() {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("group.share.session.timeout.ms", groupShareSessionTimeoutMs);
        settings.put("group.share.heartbeat.interval.ms", groupShareHeartbeatIntervalMs);
        settings.put("group.share.max.size", groupShareMaxSize);
        settings.put("group.share.record.lock.duration.ms", groupShareRecordLockDurationMs);
        settings.put("group.share.delivery.count.limit", groupShareDeliveryCountLimit);
        settings.put("group.share.partition.max.record.locks", groupSharePartitionMaxRecordLocks);
        settings.put("group.share.max.share.sessions", groupShareMaxShareSessions);
        return settings;
    }
}
