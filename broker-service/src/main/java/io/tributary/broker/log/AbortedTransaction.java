package io.tributary.broker.log;

/**
 * An aborted transaction that a read_committed fetch tells the consumer about (the Fetch response's
 * {@code AbortedTransactions}, KIP-98): the consumer skips the records of {@code producerId} from
 * {@code firstOffset} until that producer's ABORT marker.
 *
 * @param producerId  the producer
 * @param firstOffset offset of the transaction's first batch on the partition
 */
public record AbortedTransaction(long producerId, long firstOffset) {
}
