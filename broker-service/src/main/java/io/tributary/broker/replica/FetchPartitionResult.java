package io.tributary.broker.replica;

import java.util.List;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Records;

/**
 * What a fetch returns for one partition.
 *
 * @param error            NONE or the partition's error code
 * @param highWatermark    the partition's high watermark, or -1
 * @param lastStableOffset the last stable offset (KIP-98), or -1
 * @param logStartOffset   the log start offset, or -1
 * @param records          batches read, a file slice sent with zero copy
 * @param divergingEpoch   for a follower whose log diverges: the leader's epoch to truncate to, else -1 (KIP-595)
 * @param divergingEndOffset where that epoch ends on the leader, else -1
 * @param preferredReadReplica a replica the consumer should fetch from instead (KIP-392), else -1
 * @param abortedTransactions for a read_committed consumer, the aborted transactions the records
 *                            overlap (KIP-98), oldest marker first, as the Fetch response carries
 *                            them; empty otherwise
 */
public record FetchPartitionResult(Errors error, long highWatermark, long lastStableOffset, long logStartOffset,
                                   Records records, int divergingEpoch, long divergingEndOffset, int preferredReadReplica,
                                   List<FetchResponseData.AbortedTransaction> abortedTransactions) {

    /** A result without aborted transactions. */
    public FetchPartitionResult(Errors error, long highWatermark, long lastStableOffset, long logStartOffset,
                                Records records, int divergingEpoch, long divergingEndOffset, int preferredReadReplica) {
        this(error, highWatermark, lastStableOffset, logStartOffset, records, divergingEpoch, divergingEndOffset,
            preferredReadReplica, List.of());
    }

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
