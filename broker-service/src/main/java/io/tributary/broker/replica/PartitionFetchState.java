package io.tributary.broker.replica;

import org.apache.kafka.common.Uuid;

/**
 * Where a follower fetches one partition from: the next offset to fetch (its log end offset),
 * the leader epoch it fetches in, and until when it backs off after an error.
 *
 * @param topicId      the topic's id (Fetch v13+ names topics by id)
 * @param fetchOffset  the next offset to fetch
 * @param leaderEpoch  the leader epoch the follower knows (sent as {@code CurrentLeaderEpoch})
 * @param delayUntilMs 0, or the time before which the partition is not fetched, ms
 */
record PartitionFetchState(Uuid topicId, long fetchOffset, int leaderEpoch, long delayUntilMs) {

    PartitionFetchState withFetchOffset(long offset) {
        return new PartitionFetchState(topicId, offset, leaderEpoch, 0);
    }

    PartitionFetchState delayedUntil(long timeMs) {
        return new PartitionFetchState(topicId, fetchOffset, leaderEpoch, timeMs);
    }

    boolean isReady(long nowMs) {
        return delayUntilMs <= nowMs;
    }
}
