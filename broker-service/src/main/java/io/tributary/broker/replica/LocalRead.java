package io.tributary.broker.replica;

import org.apache.kafka.common.record.internal.Records;

/**
 * A read of a partition this broker leads, up to the high watermark, for the broker's own
 * use (loading groups from {@code __consumer_offsets}).
 *
 * @param records        batches read, empty at the high watermark
 * @param highWatermark  the partition's high watermark
 * @param logStartOffset its log start offset
 */
public record LocalRead(Records records, long highWatermark, long logStartOffset) {
}
