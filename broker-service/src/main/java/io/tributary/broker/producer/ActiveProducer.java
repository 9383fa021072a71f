package io.tributary.broker.producer;

/**
 * One producer's state on one partition as DescribeProducers reports it (KIP-664; {@code
 * kafka-transactions describe-producers} and {@code find-hanging}).
 *
 * @param producerId            the producer id
 * @param producerEpoch         its latest epoch here
 * @param lastSequence          sequence of its last record written here, or -1 when none is retained
 * @param lastTimestamp         broker time of its last append here, ms since the epoch
 * @param coordinatorEpoch      epoch of the transaction coordinator that wrote its last marker
 *                              here, or -1 before any marker
 * @param currentTxnStartOffset first offset of its open transaction here, or -1 when none is open
 */
public record ActiveProducer(long producerId, short producerEpoch, int lastSequence, long lastTimestamp,
                             int coordinatorEpoch, long currentTxnStartOffset) {

    static ActiveProducer of(ProducerStateEntry entry) {
        return new ActiveProducer(entry.producerId(), entry.producerEpoch(), entry.lastSeq(), entry.lastTimestamp(),
            entry.coordinatorEpoch(), entry.currentTxnFirstOffset());
    }
}
