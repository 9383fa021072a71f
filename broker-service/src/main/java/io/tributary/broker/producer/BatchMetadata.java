package io.tributary.broker.producer;

/**
 * What the broker remembers of one batch written by an idempotent producer, to recognise a
 * retry of it (same producer, epoch and sequence range) and answer with its original offsets.
 *
 * @param lastSeq     sequence number of the batch's last record
 * @param lastOffset  offset of the batch's last record
 * @param offsetDelta records in the batch minus one
 * @param timestamp   the batch's max timestamp, ms
 */
public record BatchMetadata(int lastSeq, long lastOffset, int offsetDelta, long timestamp) {

    /** Sequence number of the batch's first record. */
    public int firstSeq() {
        return org.apache.kafka.common.record.internal.DefaultRecordBatch.decrementSequence(lastSeq, offsetDelta);
    }

    /** Offset of the batch's first record. */
    public long firstOffset() {
        return lastOffset - offsetDelta;
    }
}
