package io.tributary.broker.quota;

import org.apache.kafka.common.utils.Time;

/**
 * The broker's two replication throttles (KIP-73): the leader side, applied when it answers a
 * follower's fetch, and the follower side, applied when its fetchers build a fetch.
 */
public record ReplicationQuotas(ReplicationQuotaManager leader, ReplicationQuotaManager follower) {

    public static ReplicationQuotas create(Time time) {
        return new ReplicationQuotas(new ReplicationQuotaManager(ReplicationQuotaManager.Type.LEADER, time),
            new ReplicationQuotaManager(ReplicationQuotaManager.Type.FOLLOWER, time));
    }

    /** No throttling (tests and tools). */
    public static ReplicationQuotas unlimited() {
        return create(Time.SYSTEM);
    }
}
