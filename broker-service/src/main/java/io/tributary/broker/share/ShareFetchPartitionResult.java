package io.tributary.broker.share;

import java.util.List;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Records;

/**
 * What a ShareFetch answers for one share-partition.
 *
 * @param error    NONE or the partition's error
 * @param records  the batches holding the acquired records (they may hold other records too: the
 *                 consumer delivers only the acquired offsets)
 * @param acquired the offset ranges acquired, by offset
 */
public record ShareFetchPartitionResult(Errors error, Records records, List<AcquiredRange> acquired) {

    public ShareFetchPartitionResult {
        acquired = List.copyOf(acquired);
    }

    public static ShareFetchPartitionResult error(Errors error) {
        return new ShareFetchPartitionResult(error, MemoryRecords.EMPTY, List.of());
    }

    public static ShareFetchPartitionResult empty() {
        return error(Errors.NONE);
    }
}
