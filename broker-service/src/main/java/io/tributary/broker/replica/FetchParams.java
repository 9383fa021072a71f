package io.tributary.broker.replica;

import org.apache.kafka.common.IsolationLevel;

/**
 * Request-level settings of a fetch.
 *
 * @param replicaId      the fetching follower's broker id, or -1 for a consumer
 * @param maxWaitMs      how long to wait for {@code minBytes}, ms
 * @param minBytes       bytes to accumulate before answering
 * @param maxBytes       response byte limit (soft: the first batch is returned whole, KIP-74)
 * @param isolationLevel read_uncommitted or read_committed
 */
public record FetchParams(int replicaId, long maxWaitMs, int minBytes, int maxBytes, IsolationLevel isolationLevel) {

    public boolean isFromFollower() {
        return replicaId >= 0;
    }
}
