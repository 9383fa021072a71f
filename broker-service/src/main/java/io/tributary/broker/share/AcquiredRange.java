package io.tributary.broker.share;

/**
 * Offsets acquired by one ShareFetch, as the response's {@code AcquiredRecords} carries them.
 *
 * @param firstOffset   first offset acquired, inclusive
 * @param lastOffset    last offset acquired, inclusive
 * @param deliveryCount how many times these records have now been delivered (1 on the first delivery)
 */
public record AcquiredRange(long firstOffset, long lastOffset, int deliveryCount) {
}
