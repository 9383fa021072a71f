package io.tributary.broker.producer;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.record.internal.DefaultRecordBatch;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Validates the batches of one producer in one append against that producer's state and
 * collects the updated state, which is committed only after the write succeeds.
 *
 * <p>Rules (Kafka's, KIP-98 and KIP-360): an epoch below the current one is fenced
 * ({@code INVALID_PRODUCER_EPOCH}); a new epoch must start at sequence 0; within an epoch each
 * batch's first sequence follows the last one written ({@code OUT_OF_ORDER_SEQUENCE_NUMBER}
 * otherwise); a producer with no state on this partition (new, or expired) may start anywhere.
 *
 * <p>Not thread-safe: used under the log's lock.
 */
public final class ProducerAppendInfo {

    private static final Logger log = LoggerFactory.getLogger(ProducerAppendInfo.class);

    private final TopicPartition topicPartition;
    private final long producerId;
    private final ProducerStateEntry currentEntry;
    private final ProducerStateEntry updatedEntry;
    private final AppendOrigin origin;

    ProducerAppendInfo(TopicPartition topicPartition, long producerId, ProducerStateEntry currentEntry, AppendOrigin origin) {
        this.topicPartition = topicPartition;
        this.producerId = producerId;
        this.currentEntry = currentEntry;
        this.origin = origin;
        this.updatedEntry = new ProducerStateEntry(producerId, currentEntry.producerEpoch(), currentEntry.lastTimestamp());
    }

    public long producerId() {
        return producerId;
    }

    ProducerStateEntry updatedEntry() {
        return updatedEntry;
    }

    /**
     * Validates a batch (already carrying its final offsets) and records it.
     *
     * @param appendTimeMs broker time of the append, ms (drives producer expiry)
     * @throws InvalidProducerEpochException  when the epoch is older than the producer's current one
     * @throws OutOfOrderSequenceException    when the sequence does not follow the last one written
     */
    public void append(RecordBatch batch, long appendTimeMs) {
        short epoch = batch.producerEpoch();
        int firstSeq = batch.baseSequence();
        checkProducerEpoch(epoch, batch.baseOffset());
        if (origin == AppendOrigin.CLIENT) {
            checkSequence(epoch, firstSeq, batch.baseOffset());
        }
        updatedEntry.addBatch(epoch, batch.lastSequence(), batch.lastOffset(),
            (int) (batch.lastOffset() - batch.baseOffset()), batch.maxTimestamp());
        updatedEntry.setLastTimestamp(appendTimeMs);
    }

    private void checkProducerEpoch(short epoch, long offset) {
        if (epoch < updatedEntry.producerEpoch()) {
            String message = "Epoch of producer " + producerId + " at offset " + offset + " in " + topicPartition
                + " is " + epoch + ", which is smaller than the last seen epoch " + updatedEntry.producerEpoch();
            if (origin == AppendOrigin.REPLICATION) {
                log.warn(message);
            } else {
                throw new InvalidProducerEpochException(message);
            }
        }
    }

    private void checkSequence(short epoch, int appendFirstSeq, long offset) {
        if (epoch != updatedEntry.producerEpoch()) {
            if (appendFirstSeq != 0 && updatedEntry.producerEpoch() != RecordBatch.NO_PRODUCER_EPOCH) {
                throw new OutOfOrderSequenceException("Invalid sequence number for new epoch " + epoch + " of producer "
                    + producerId + " at offset " + offset + " in " + topicPartition + ": " + appendFirstSeq
                    + " (request epoch), 0 expected");
            }
            return;
        }
        int currentLastSeq;
        if (!updatedEntry.isEmpty()) {
            currentLastSeq = updatedEntry.lastSeq();
        } else if (epoch == currentEntry.producerEpoch()) {
            currentLastSeq = currentEntry.lastSeq();
        } else {
            currentLastSeq = RecordBatch.NO_SEQUENCE;
        }
        // With no state for this producer (new, expired, or removed by retention) the first batch may
        // start at any sequence; later batches of the same append follow it like any others.
        boolean hasState = currentEntry.producerEpoch() != RecordBatch.NO_PRODUCER_EPOCH || !updatedEntry.isEmpty();
        if (hasState && !inSequence(currentLastSeq, appendFirstSeq)) {
            throw new OutOfOrderSequenceException("Out of order sequence number for producer " + producerId
                + " at offset " + offset + " in " + topicPartition + ": " + appendFirstSeq + " (incoming seq. number), "
                + currentLastSeq + " (current end sequence number)");
        }
    }

    /** Whether {@code nextSeq} directly follows {@code lastSeq}; sequences wrap from Integer.MAX_VALUE to 0. */
    private static boolean inSequence(int lastSeq, int nextSeq) {
        return nextSeq == DefaultRecordBatch.incrementSequence(lastSeq, 1);
    }
}
