package io.tributary.broker.coordinator;

import io.tributary.broker.producer.VerificationGuard;
import io.tributary.broker.replica.LocalRead;
import io.tributary.broker.replica.ProduceResult;
import io.tributary.broker.replica.ReplicaManager;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;

/**
 * What a coordinator needs of the internal topic partitions this broker leads
 * ({@code __consumer_offsets} for the group coordinator, {@code __transaction_state} for the
 * transaction coordinator): appends that complete once replicated (acks=all), and reads of the
 * whole log when a partition is loaded. {@link ReplicaManager} provides it; tests give an
 * in-memory one.
 */
public interface CoordinatorLog {

    /**
     * Appends records to a partition of the coordinator's topic.
     *
     * @param timeoutMs how long to wait for the ISR, ms ({@code offsets.commit.timeout.ms},
     *                  {@code transaction.state.log}'s request timeout)
     * @return completes with the append's result (error NONE, or the Kafka error of the failure)
     */
    default CompletableFuture<ProduceResult> append(TopicPartition tp, MemoryRecords records, long timeoutMs) {
        return append(tp, records, timeoutMs, VerificationGuard.NOT_REQUIRED);
    }

    /**
     * Appends records holding the guard of their transaction's verification (KIP-890 part 1): a
     * transactional batch that would open a transaction on {@code tp} without the partition's
     * current guard fails with INVALID_TXN_STATE.
     *
     * @param verificationGuard {@link VerificationGuard#NOT_REQUIRED} for records not checked
     */
    CompletableFuture<ProduceResult> append(TopicPartition tp, MemoryRecords records, long timeoutMs,
                                            VerificationGuard verificationGuard);

    /**
     * Reads records from {@code startOffset} up to the log end offset (see
     * {@link ReplicaManager#readToLogEnd}), at most about {@code maxBytes} (at least one batch).
     */
    LocalRead read(TopicPartition tp, long startOffset, int maxBytes);

    /** How much a load reads at a time, bytes (at least one batch). */
    int LOAD_CHUNK_BYTES = 5 * 1024 * 1024;

    /** Receives the batches of a load, in offset order. */
    @FunctionalInterface
    interface BatchVisitor {

        /**
         * @param fromOffset the first offset of the batch not seen before: a chunk may start inside
         *                   a batch whose earlier records the previous chunk had
         */
        void visit(RecordBatch batch, long fromOffset);
    }

    /**
     * Reads {@code tp} from its log start offset to its log end offset chunk by chunk, as a
     * coordinator loading a partition does (Kafka's loaders read to the log end too: a new
     * leader's high watermark can lag records already committed), and gives each batch to
     * {@code visitor}.
     */
    default void readBatchesToLogEnd(TopicPartition tp, BatchVisitor visitor) {
        LocalRead read = read(tp, 0, 1);
        long position = read.logStartOffset();
        while (position < read.endOffset()) {
            LocalRead chunk = read(tp, position, LOAD_CHUNK_BYTES);
            long next = position;
            for (RecordBatch batch : chunk.records().batches()) {
                if (batch.lastOffset() < position) {
                    continue;
                }
                visitor.visit(batch, position);
                next = batch.nextOffset();
            }
            if (next == position) {
                break;
            }
            position = next;
        }
    }

    /** The replica manager as the coordinator's log. */
    static CoordinatorLog of(ReplicaManager replicaManager) {
        return new CoordinatorLog() {
            @Override
            public CompletableFuture<ProduceResult> append(TopicPartition tp, MemoryRecords records, long timeoutMs,
                                                           VerificationGuard verificationGuard) {
                return replicaManager.appendToInternalTopic(tp, records, timeoutMs, verificationGuard);
            }

            @Override
            public LocalRead read(TopicPartition tp, long startOffset, int maxBytes) {
                return replicaManager.readToLogEnd(tp, startOffset, maxBytes);
            }
        };
    }
}
