package io.tributary.broker.replica;

import org.apache.kafka.common.record.internal.Records;

/**
 * A read of a partition this broker leads, for the broker's own use (a coordinator loading
 * {@code __consumer_offsets} or {@code __transaction_state}).
 *
 * @param records        batches read, empty at {@code endOffset}
 * @param endOffset      where the read stops: the partition's log end offset
 * @param logStartOffset its log start offset
 */
public record LocalRead(Records records, long endOffset, long logStartOffset) {
}
