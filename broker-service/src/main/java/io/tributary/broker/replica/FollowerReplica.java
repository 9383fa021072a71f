package io.tributary.broker.replica;

import io.tributary.broker.log.LogOffsetMetadata;

/**
 * What a leader knows of one follower of its partition: the follower's log end offset (the
 * offset of its latest fetch) and when it was last caught up, which decides ISR membership
 * ({@code replica.lag.time.max.ms}).
 *
 * <p>"Caught up" follows Kafka: a fetch at the leader's log end offset makes the follower caught
 * up at the fetch time; a fetch at or past the leader's log end offset as of the follower's
 * previous fetch makes it caught up as of that previous fetch. So a follower that keeps up with
 * a steady stream stays in sync although it is always a batch behind.
 *
 * <p>Thread-safe (synchronized; updated by fetch handling, read by ISR checks).
 */
final class FollowerReplica {

    private final int brokerId;
    private LogOffsetMetadata logEndOffset = LogOffsetMetadata.unknownPosition(-1);
    private long logStartOffset = -1;
    private long lastCaughtUpTimeMs;
    private long lastFetchLeaderLogEndOffset = -1;
    private long lastFetchTimeMs;

    FollowerReplica(int brokerId) {
        this.brokerId = brokerId;
    }

    int brokerId() {
        return brokerId;
    }

    /** The follower's log end offset as of its last fetch, or offset -1 when unknown (new leader). */
    synchronized LogOffsetMetadata logEndOffset() {
        return logEndOffset;
    }

    synchronized long lastCaughtUpTimeMs() {
        return lastCaughtUpTimeMs;
    }

    /**
     * Records a fetch.
     *
     * @param fetchOffset           where the follower fetched from: its log end offset
     * @param followerStartOffset   the follower's log start offset
     * @param fetchTimeMs           when the fetch was read, ms
     * @param leaderLogEndOffset    the leader's log end offset at that time
     */
    synchronized void updateFetchState(LogOffsetMetadata fetchOffset, long followerStartOffset, long fetchTimeMs,
                                       long leaderLogEndOffset) {
        if (fetchOffset.messageOffset() >= leaderLogEndOffset) {
            lastCaughtUpTimeMs = Math.max(lastCaughtUpTimeMs, fetchTimeMs);
        } else if (fetchOffset.messageOffset() >= lastFetchLeaderLogEndOffset) {
            lastCaughtUpTimeMs = Math.max(lastCaughtUpTimeMs, lastFetchTimeMs);
        }
        logEndOffset = fetchOffset;
        logStartOffset = followerStartOffset;
        lastFetchLeaderLogEndOffset = leaderLogEndOffset;
        lastFetchTimeMs = fetchTimeMs;
    }

    /**
     * Forgets the follower's offsets when this broker becomes leader in a new epoch: they are
     * learnt again from its next fetch.
     *
     * @param inSync whether it is in the ISR; an in-sync follower counts as caught up now
     */
    synchronized void reset(long nowMs, boolean inSync) {
        logEndOffset = LogOffsetMetadata.unknownPosition(-1);
        logStartOffset = -1;
        lastCaughtUpTimeMs = inSync ? nowMs : 0;
        lastFetchLeaderLogEndOffset = -1;
        lastFetchTimeMs = 0;
    }

    @Override
    public synchronized String toString() {
        return "FollowerReplica(" + brokerId + ", logEndOffset=" + logEndOffset.messageOffset() + ", lastCaughtUpTimeMs="
            + lastCaughtUpTimeMs + ")";
    }
}
