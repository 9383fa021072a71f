package io.tributary.broker.replica;

import org.apache.kafka.common.protocol.Errors;

/**
 * DeleteRecords for one partition.
 *
 * @param error        NONE or the error code
 * @param lowWatermark the new log start offset, or -1
 */
public record DeleteRecordsResult(Errors error, long lowWatermark) {
}
