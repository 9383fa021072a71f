package io.tributary.broker.group;

/**
 * The broker's settings of share groups (KIP-932) that the group coordinator uses, under Kafka's
 * names; a group's own {@code share.session.timeout.ms} and {@code share.heartbeat.interval.ms}
 * (group configs, {@link GroupConfigLookup}) replace the first two for that group.
 *
 * @param sessionTimeoutMs    {@code group.share.session.timeout.ms}: a member without a heartbeat for
 *                            this long is removed, ms
 * @param heartbeatIntervalMs {@code group.share.heartbeat.interval.ms}: the interval members are told to
 *                            heartbeat at, ms
 * @param maxSize             {@code group.share.max.size}: most members of one share group; one more
 *                            gets GROUP_MAX_SIZE_REACHED
 */
public record ShareGroupSettings(int sessionTimeoutMs, int heartbeatIntervalMs, int maxSize) {

    /** Kafka 4.4's defaults: 45 s sessions, 5 s heartbeats, 200 members. */
    public static ShareGroupSettings defaults() {
        return new ShareGroupSettings(45_000, 5_000, 200);
    }

    /** The group's {@code share.session.timeout.ms} when set, else the broker's. */
    int sessionTimeoutMs(GroupConfigLookup groupConfigs, String groupId) {
        return groupConfigs.groupConfig(groupId)
            .flatMap(org.apache.kafka.coordinator.group.GroupConfig::shareSessionTimeoutMs).orElse(sessionTimeoutMs);
    }

    /** The group's {@code share.heartbeat.interval.ms} when set, else the broker's. */
    int heartbeatIntervalMs(GroupConfigLookup groupConfigs, String groupId) {
        return groupConfigs.groupConfig(groupId)
            .flatMap(org.apache.kafka.coordinator.group.GroupConfig::shareHeartbeatIntervalMs).orElse(heartbeatIntervalMs);
    }
}
