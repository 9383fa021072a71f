package io.tributary.broker.producer;

/**
 * A transaction open on one partition, from its producer's first transactional batch here to its
 * marker: what the last stable offset waits for (KIP-98).
 *
 * @param producerId  the producer
 * @param firstOffset offset of its first batch in the transaction on this partition
 * @param lastOffset  offset of its marker, or -1 while no marker is written
 */
public record TxnMetadata(long producerId, long firstOffset, long lastOffset) {

    /** An open transaction. */
    static TxnMetadata started(long producerId, long firstOffset) {
        return new TxnMetadata(producerId, firstOffset, -1L);
    }

    /** The transaction with its marker at {@code markerOffset}. */
    TxnMetadata completedAt(long markerOffset) {
        return new TxnMetadata(producerId, firstOffset, markerOffset);
    }
}
