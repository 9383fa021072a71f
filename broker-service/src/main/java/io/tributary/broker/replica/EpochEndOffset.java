package io.tributary.broker.replica;

import org.apache.kafka.common.protocol.Errors;

/**
 * OffsetForLeaderEpoch for one partition.
 *
 * @param error        NONE or the error code
 * @param leaderEpoch  the largest epoch at most the requested one, or -1
 * @param endOffset    where it ends, or -1
 */
public record EpochEndOffset(Errors error, int leaderEpoch, long endOffset) {
}
