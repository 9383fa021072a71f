package io.tributary.broker.group;

/**
 * A committed offset.
 *
 * @param offset          the next offset to consume
 * @param leaderEpoch     leader epoch of the record before {@code offset}, or -1
 * @param metadata        client metadata string, may be empty
 * @param commitTimestamp broker time of the commit, ms
 * @param expireTimestamp broker time at which the offset expires, ms, when the commit asked for its own
 *                        retention ({@code retention_time_ms} of OffsetCommit v2-4); -1 for the broker's
 *                        {@code offsets.retention.minutes} rules
 */
public record OffsetAndMetadata(long offset, int leaderEpoch, String metadata, long commitTimestamp,
                                long expireTimestamp) {

    /** No expire timestamp of its own. */
    public static final long NO_EXPIRE_TIMESTAMP = -1L;

    public OffsetAndMetadata {
        metadata = metadata == null ? "" : metadata;
    }

    /** An offset under the broker's retention rules. */
    public OffsetAndMetadata(long offset, int leaderEpoch, String metadata, long commitTimestamp) {
        this(offset, leaderEpoch, metadata, commitTimestamp, NO_EXPIRE_TIMESTAMP);
    }

    public boolean hasExpireTimestamp() {
        return expireTimestamp != NO_EXPIRE_TIMESTAMP;
    }
}
