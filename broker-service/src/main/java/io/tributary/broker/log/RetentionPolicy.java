package io.tributary.broker.log;

/**
 * Which old segments retention deletes, as Kafka decides it: segments wholly below the log
 * start offset (after DeleteRecords), the oldest segments while the log exceeds
 * {@code retention.bytes}, and segments whose largest record timestamp is older than
 * {@code retention.ms}. Stateless apart from the size predicate's running excess.
 */
final class RetentionPolicy {

    private RetentionPolicy() {
    }

    /** Segments whose successor starts at or below the log start offset. */
    static LogSegments.DeletionPredicate belowLogStartOffset(long logStartOffset) {
        return (segment, next) -> next != null && next.baseOffset() <= logStartOffset;
    }

    /**
     * The oldest segments while the log stays at or above {@code retentionBytes} without them.
     *
     * @param logSize current size of the log, bytes
     */
    static LogSegments.DeletionPredicate bySize(long logSize, long retentionBytes) {
        long[] excess = {logSize - retentionBytes};
        return (segment, next) -> {
            if (excess[0] - segment.size() >= 0) {
                excess[0] -= segment.size();
                return true;
            }
            return false;
        };
    }

    /** Segments whose newest record is older than {@code retentionMs} at {@code nowMs}. */
    static LogSegments.DeletionPredicate byTime(long nowMs, long retentionMs) {
        return (segment, next) -> nowMs - segment.largestTimestamp() > retentionMs;
    }
}
