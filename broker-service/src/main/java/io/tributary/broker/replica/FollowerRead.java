package io.tributary.broker.replica;

import io.tributary.broker.log.EpochEntry;
import io.tributary.broker.log.FetchDataInfo;

/**
 * A follower's read: where its log diverges from its leader's, or the batches from its fetch
 * offset to the log end.
 *
 * @param divergingEpoch null, or the leader's (epoch, end offset) for the follower's last
 *                       fetched epoch when the follower's log diverges there (KIP-595)
 * @param data           the read, or null when diverging
 * @param leaderLogEndOffset the leader's log end offset at the read
 */
public record FollowerRead(EpochEntry divergingEpoch, FetchDataInfo data, long leaderLogEndOffset) {
}
