package io.tributary.broker.replica;

import org.apache.kafka.common.Uuid;

/**
 * Where a follower fetches one partition from: the next offset to fetch (its log end offset),
 * the leader epoch it fetches in, how far behind the leader's high watermark the last fetch left it,
 * and until when it backs off after an error.
 *
 * @param topicId      the topic's id (Fetch v13+ names topics by id)
 * @param fetchOffset  the next offset to fetch
 * @param leaderEpoch  the leader epoch the follower knows (sent as {@code CurrentLeaderEpoch})
 * @param lag          offsets between the leader's high watermark, as its last answer gave it, and
 *                     {@code fetchOffset} (0 when caught up); {@link #UNKNOWN_LAG} before a first answer
 * @param delayUntilMs 0, or the time before which the partition is not fetched, ms
 */
record PartitionFetchState(Uuid topicId, long fetchOffset, int leaderEpoch, long lag, long delayUntilMs) {

    /** The lag of a partition not fetched yet: not in sync. */
    static final long UNKNOWN_LAG = -1;

    /** A partition to fetch from {@code fetchOffset} on, its lag unknown until the leader answers. */
    static PartitionFetchState initial(Uuid topicId, long fetchOffset, int leaderEpoch) {
        return new PartitionFetchState(topicId, fetchOffset, leaderEpoch, UNKNOWN_LAG, 0);
    }

    /** The next offset to fetch, the lag unchanged. */
    PartitionFetchState withFetchOffset(long offset) {
        return new PartitionFetchState(topicId, offset, leaderEpoch, lag, 0);
    }

    /** After records were fetched: the next offset and the lag behind {@code leaderHighWatermark}. */
    PartitionFetchState fetched(long nextOffset, long leaderHighWatermark) {
        return new PartitionFetchState(topicId, nextOffset, leaderEpoch, Math.max(0, leaderHighWatermark - nextOffset), 0);
    }

    PartitionFetchState delayedUntil(long timeMs) {
        return new PartitionFetchState(topicId, fetchOffset, leaderEpoch, lag, timeMs);
    }

    boolean isReady(long nowMs) {
        return delayUntilMs <= nowMs;
    }

    /**
     * Whether the last answer left this follower at the leader's high watermark, as Kafka's fetcher
     * judges it ({@code PartitionFetchState.isReplicaInSync}): such a replica is never held back by the
     * follower's replication throttle (KIP-73). Not before a first answer.
     */
    boolean isReplicaInSync() {
        return lag == 0;
    }
}
