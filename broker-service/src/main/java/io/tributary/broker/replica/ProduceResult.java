package io.tributary.broker.replica;

import java.util.List;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.requests.ProduceResponse.RecordError;

/**
 * The outcome of a produce to one partition.
 *
 * @param error          NONE or the partition's error code
 * @param errorMessage   detail for the client, or null
 * @param baseOffset     offset of the first record written (of the original write for a retried duplicate), or -1
 * @param logAppendTime  broker time set on LogAppendTime topics, else -1
 * @param logStartOffset the partition's log start offset, or -1
 * @param recordErrors   the records at fault (KIP-467)
 * @param lastOffset     offset of the last record written, or -1 (used to wait for acks=all)
 */
public record ProduceResult(Errors error, String errorMessage, long baseOffset, long logAppendTime,
                            long logStartOffset, List<RecordError> recordErrors, long lastOffset) {

    /** A failed produce. */
    public static ProduceResult error(Errors error, String message) {
        return new ProduceResult(error, message, -1, RecordBatch.NO_TIMESTAMP, -1, List.of(), -1);
    }

    /** The same result with another error (e.g. a timeout while waiting for replicas). */
    public ProduceResult withError(Errors newError, String message) {
        return new ProduceResult(newError, message, baseOffset, logAppendTime, logStartOffset, recordErrors, lastOffset);
    }

    /**
     * Whether a failed append counts in {@code FailedProduceRequestsPerSec}: as in Kafka's
     * ReplicaManager, every failure but the known outcomes a client or a leadership change causes
     * and storage errors (counted by the log directory's own metrics).
     */
    static boolean countsAsFailedProduce(RuntimeException e) {
        if (e instanceof io.tributary.broker.log.RecordValidationException rve) {
            return rve.error() != Errors.MESSAGE_TOO_LARGE && rve.error() != Errors.RECORD_LIST_TOO_LARGE
                && rve.error() != Errors.CORRUPT_MESSAGE;
        }
        return !(e instanceof org.apache.kafka.common.errors.UnknownTopicOrPartitionException
            || e instanceof org.apache.kafka.common.errors.NotLeaderOrFollowerException
            || e instanceof org.apache.kafka.common.errors.RecordTooLargeException
            || e instanceof org.apache.kafka.common.errors.RecordBatchTooLargeException
            || e instanceof org.apache.kafka.common.errors.CorruptRecordException
            || e instanceof org.apache.kafka.common.errors.KafkaStorageException);
    }
}
