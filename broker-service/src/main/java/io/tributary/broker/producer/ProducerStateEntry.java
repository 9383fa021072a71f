package io.tributary.broker.producer;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.record.internal.RecordBatch;

/**
 * The state of one producer id on one partition: its epoch and its last few batches (as many
 * as a producer may have in flight, {@value #NUM_BATCHES_TO_RETAIN}), so that any retried
 * batch among them is recognised as a duplicate; for a transactional producer, the first offset
 * of its ongoing transaction here and the epoch of the transaction coordinator that last wrote
 * a marker for it (KIP-98).
 *
 * <p>Not thread-safe: owned by a {@link ProducerStateManager} and used under the log's lock.
 */
public final class ProducerStateEntry {

    /** The Java producer allows at most 5 in-flight requests with idempotence (KIP-98). */
    public static final int NUM_BATCHES_TO_RETAIN = 5;
    /** {@link #currentTxnFirstOffset()} when no transaction of the producer is open here. */
    public static final long NO_TRANSACTION = -1L;
    /** {@link #coordinatorEpoch()} before any marker. */
    public static final int NO_COORDINATOR_EPOCH = -1;

    private final long producerId;
    private final Deque<BatchMetadata> batchMetadata = new ArrayDeque<>(NUM_BATCHES_TO_RETAIN);
    private short producerEpoch;
    private long lastTimestamp;
    private int coordinatorEpoch = NO_COORDINATOR_EPOCH;
    private long currentTxnFirstOffset = NO_TRANSACTION;

    ProducerStateEntry(long producerId, short producerEpoch, long lastTimestamp) {
        this.producerId = producerId;
        this.producerEpoch = producerEpoch;
        this.lastTimestamp = lastTimestamp;
    }

    /**
     * Offset of the first batch of this producer's open transaction on this partition, or
     * {@link #NO_TRANSACTION}.
     */
    public long currentTxnFirstOffset() {
        return currentTxnFirstOffset;
    }

    void currentTxnFirstOffset(long offset) {
        this.currentTxnFirstOffset = offset;
    }

    /** Epoch of the transaction coordinator that wrote this producer's last marker here, or {@link #NO_COORDINATOR_EPOCH}. */
    public int coordinatorEpoch() {
        return coordinatorEpoch;
    }

    void coordinatorEpoch(int epoch) {
        this.coordinatorEpoch = epoch;
    }

    /** An entry for a producer not seen before on this partition. */
    static ProducerStateEntry empty(long producerId) {
        return new ProducerStateEntry(producerId, RecordBatch.NO_PRODUCER_EPOCH, RecordBatch.NO_TIMESTAMP);
    }

    public long producerId() {
        return producerId;
    }

    public short producerEpoch() {
        return producerEpoch;
    }

    /**
     * Broker time of this producer's last append, ms; producers idle past
     * {@code producer.id.expiration.ms} are dropped. Broker time, not the records' timestamps,
     * which may be absent or arbitrarily old.
     */
    public long lastTimestamp() {
        return lastTimestamp;
    }

    void setLastTimestamp(long appendTimeMs) {
        this.lastTimestamp = appendTimeMs;
    }

    public boolean isEmpty() {
        return batchMetadata.isEmpty();
    }

    /** Sequence of the last record written, or -1 when none. */
    public int lastSeq() {
        return batchMetadata.isEmpty() ? RecordBatch.NO_SEQUENCE : batchMetadata.getLast().lastSeq();
    }

    /** Offset of the last record written, or -1 when none. */
    public long lastDataOffset() {
        return batchMetadata.isEmpty() ? -1L : batchMetadata.getLast().lastOffset();
    }

    /** The retained batches, oldest first. */
    public List<BatchMetadata> batches() {
        return List.copyOf(batchMetadata);
    }

    void addBatch(short epoch, int lastSeq, long lastOffset, int offsetDelta, long timestamp) {
        maybeUpdateEpoch(epoch);
        if (batchMetadata.size() == NUM_BATCHES_TO_RETAIN) {
            batchMetadata.removeFirst();
        }
        batchMetadata.addLast(new BatchMetadata(lastSeq, lastOffset, offsetDelta, timestamp));
    }

    /** A new epoch starts a new sequence: the batches of the old epoch no longer count. */
    void maybeUpdateEpoch(short epoch) {
        if (producerEpoch != epoch) {
            batchMetadata.clear();
            producerEpoch = epoch;
        }
    }

    void update(ProducerStateEntry next) {
        maybeUpdateEpoch(next.producerEpoch);
        for (BatchMetadata b : next.batchMetadata) {
            if (batchMetadata.size() == NUM_BATCHES_TO_RETAIN) {
                batchMetadata.removeFirst();
            }
            batchMetadata.addLast(b);
        }
        this.lastTimestamp = next.lastTimestamp;
        this.coordinatorEpoch = next.coordinatorEpoch;
        this.currentTxnFirstOffset = next.currentTxnFirstOffset;
    }

    /** The retained batch with the same epoch and sequence range as {@code batch}, if any. */
    public Optional<BatchMetadata> findDuplicateBatch(RecordBatch batch) {
        if (batch.producerEpoch() != producerEpoch) {
            return Optional.empty();
        }
        int firstSeq = batch.baseSequence();
        int lastSeq = batch.lastSequence();
        for (BatchMetadata metadata : batchMetadata) {
            if (metadata.firstSeq() == firstSeq && metadata.lastSeq() == lastSeq) {
                return Optional.of(metadata);
            }
        }
        return Optional.empty();
    }

    ProducerStateEntry copy() {
        ProducerStateEntry copy = new ProducerStateEntry(producerId, producerEpoch, lastTimestamp);
        copy.batchMetadata.addAll(batchMetadata);
        copy.coordinatorEpoch = coordinatorEpoch;
        copy.currentTxnFirstOffset = currentTxnFirstOffset;
        return copy;
    }

    @Override
    public String toString() {
        return "ProducerStateEntry(producerId=" + producerId + ", epoch=" + producerEpoch
            + ", lastSeq=" + lastSeq() + ", lastOffset=" + lastDataOffset() + ", coordinatorEpoch=" + coordinatorEpoch
            + ", currentTxnFirstOffset=" + currentTxnFirstOffset + ")";
    }
}
