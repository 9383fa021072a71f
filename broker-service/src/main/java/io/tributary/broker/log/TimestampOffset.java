package io.tributary.broker.log;

/**
 * A time index entry: {@code timestamp} is the largest timestamp in the segment up to and
 * including the batch that ends at {@code offset}.
 *
 * @param timestamp ms since the epoch, or -1 (no timestamp)
 * @param offset    absolute offset
 */
public record TimestampOffset(long timestamp, long offset) {
}
