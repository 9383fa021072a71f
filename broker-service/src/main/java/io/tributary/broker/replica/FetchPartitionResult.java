package io.tributary.broker.replica;

import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Records;

/**
 * What a fetch returns for one partition.
 *
 * @param error            NONE or the partition's error code
 * @param highWatermark    the partition's high watermark, or -1
 * @param lastStableOffset the last stable offset, or -1 (equal to the high watermark without transactions)
 * @param logStartOffset   the log start offset, or -1
 * @param records          batches read, a file slice sent with zero copy
 * @param divergingEpoch   for a follower whose log diverges: the leader's epoch to truncate to, else -1 (KIP-595)
 * @param divergingEndOffset where that epoch ends on the leader, else -1
 * @param preferredReadReplica a replica the consumer should fetch from instead (KIP-392), else -1
 */
public record FetchPartitionResult(Errors error, long highWatermark, long lastStableOffset, long logStartOffset,
                                   Records records, int divergingEpoch, long divergingEndOffset, int preferredReadReplica) {

    /** A result without divergence or preferred read replica. */
    public FetchPartitionResult(Errors error, long highWatermark, long lastStableOffset, long logStartOffset,
                                Records records) {
        this(error, highWatermark, lastStableOffset, logStartOffset, records, -1, -1, -1);
    }

    /** A follower's result telling it where its log diverges. */
    public FetchPartitionResult(Errors error, long highWatermark, long lastStableOffset, long logStartOffset,
                                Records records, int divergingEpoch, long divergingEndOffset) {
        this(error, highWatermark, lastStableOffset, logStartOffset, records, divergingEpoch, divergingEndOffset, -1);
    }

    public static FetchPartitionResult error(Errors error) {
        return new FetchPartitionResult(error, -1, -1, -1, MemoryRecords.EMPTY);
    }

    /** Whether the follower must truncate before fetching on. */
    public boolean isDiverging() {
        return divergingEpoch >= 0 || divergingEndOffset >= 0;
    }
}
