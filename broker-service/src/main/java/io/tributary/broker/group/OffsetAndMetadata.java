package io.tributary.broker.group;

/**
 * A committed offset.
 *
 * @param offset          the next offset to consume
 * @param leaderEpoch     leader epoch of the record before {@code offset}, or -1
 * @param metadata        client metadata string, may be empty
 * @param commitTimestamp broker time of the commit, ms
 */
public record OffsetAndMetadata(long offset, int leaderEpoch, String metadata, long commitTimestamp) {

    public OffsetAndMetadata {
        metadata = metadata == null ? "" : metadata;
    }
}
