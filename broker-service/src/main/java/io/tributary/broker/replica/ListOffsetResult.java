package io.tributary.broker.replica;

import org.apache.kafka.common.protocol.Errors;

/**
 * An answer of ListOffsets for one partition.
 *
 * @param error       NONE or the error code
 * @param timestamp   timestamp of the record found, or -1
 * @param offset      offset found, or -1 when no record is that recent
 * @param leaderEpoch leader epoch of that offset, or -1
 */
public record ListOffsetResult(Errors error, long timestamp, long offset, int leaderEpoch) {
}
