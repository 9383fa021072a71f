package io.tributary.broker.log;

import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Records;

/**
 * The result of a log read: a slice of a segment file (sent with zero copy) or empty records.
 *
 * @param fetchOffsetMetadata   where the read started
 * @param records               the batches read; a {@code FileRecords} slice when read from disk
 * @param firstEntryIncomplete  whether the first batch did not fit in the byte limit and was cut
 */
public record FetchDataInfo(LogOffsetMetadata fetchOffsetMetadata, Records records, boolean firstEntryIncomplete) {

    /** An empty read at {@code metadata}. */
    public static FetchDataInfo empty(LogOffsetMetadata metadata) {
        return new FetchDataInfo(metadata, MemoryRecords.EMPTY, false);
    }
}
