package io.tributary.broker.log;

import org.apache.kafka.common.record.internal.RecordBatch;

/**
 * The outcome of an append.
 *
 * @param firstOffset    offset of the first record written (or of the original write, for a duplicate)
 * @param lastOffset     offset of the last record
 * @param maxTimestamp   largest record timestamp, ms
 * @param logAppendTime  the broker time set on a LogAppendTime topic, else -1
 * @param logStartOffset the log start offset after the append
 * @param recordCount    records appended
 * @param validBytes     bytes appended
 * @param duplicate      whether the batch retried one already written; nothing was written
 */
public record LogAppendInfo(long firstOffset, long lastOffset, long maxTimestamp, long logAppendTime,
                            long logStartOffset, int recordCount, int validBytes, boolean duplicate) {

    /** An append of nothing at {@code nextOffset}. */
    static LogAppendInfo empty(long nextOffset, long logStartOffset) {
        return new LogAppendInfo(nextOffset, nextOffset - 1, RecordBatch.NO_TIMESTAMP, RecordBatch.NO_TIMESTAMP,
            logStartOffset, 0, 0, false);
    }
}
