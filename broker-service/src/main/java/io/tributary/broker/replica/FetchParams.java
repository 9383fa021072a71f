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
 * @param clientMetadata a consumer's rack and address (Fetch v11+, KIP-392), or null: with it, a
 *                       follower serves the consumer and a leader may name a closer replica
 */
public record FetchParams(int replicaId, long maxWaitMs, int minBytes, int maxBytes, IsolationLevel isolationLevel,
                          org.apache.kafka.common.replica.ClientMetadata clientMetadata) {

    /** A fetch without client metadata (followers, and consumers before Fetch v11). */
    public FetchParams(int replicaId, long maxWaitMs, int minBytes, int maxBytes, IsolationLevel isolationLevel) {
        this(replicaId, maxWaitMs, minBytes, maxBytes, isolationLevel, null);
    }

    /** Whether a follower may serve this fetch (a consumer sending its metadata, KIP-392). */
    public boolean mayReadFromFollower() {
        return replicaId < 0 && clientMetadata != null;
    }

    public boolean isFromFollower() {
        return replicaId >= 0;
    }
}
