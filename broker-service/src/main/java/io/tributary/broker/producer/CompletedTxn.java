package io.tributary.broker.producer;

/**
 * A transaction that a marker (a COMMIT or ABORT control batch, KIP-98) just ended on one
 * partition. An aborted one goes to the segment's transaction index, so read_committed fetches
 * can tell consumers what to skip.
 *
 * @param producerId  the producer
 * @param firstOffset offset of the transaction's first batch on this partition (the marker's own
 *                    offset when the transaction wrote nothing here)
 * @param lastOffset  offset of the marker
 * @param isAborted   whether the marker is an ABORT
 */
public record CompletedTxn(long producerId, long firstOffset, long lastOffset, boolean isAborted) {
}
