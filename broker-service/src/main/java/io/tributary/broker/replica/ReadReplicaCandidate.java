package io.tributary.broker.replica;

/**
 * A follower a consumer could read {@code fetchOffset} from (KIP-392).
 *
 * @param brokerId           the follower
 * @param logEndOffset       its log end offset as of its last fetch
 * @param timeSinceCaughtUpMs how long since it was last caught up, ms
 */
public record ReadReplicaCandidate(int brokerId, long logEndOffset, long timeSinceCaughtUpMs) {
}
