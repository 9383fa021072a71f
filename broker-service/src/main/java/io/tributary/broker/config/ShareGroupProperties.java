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
        @DefaultValue("2000") int groupShareMaxShareSessions) {

    public ShareGroupProperties {
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
