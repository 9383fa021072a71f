package io.tributary.broker.replica;

/**
 * One partition of a fetch request.
 *
 * @param fetchOffset        offset to read from
 * @param currentLeaderEpoch the leader epoch the client knows, or -1 (KIP-320)
 * @param maxBytes           byte limit for this partition
 * @param lastFetchedEpoch   epoch of the last batch the follower holds, or -1 (KIP-595)
 */
public record FetchPartition(long fetchOffset, int currentLeaderEpoch, int maxBytes, int lastFetchedEpoch) {
}
