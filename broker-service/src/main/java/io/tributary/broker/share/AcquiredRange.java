package io.tributary.broker.share;

/**
 * Offsets acquired by one ShareFetch, as the response's {@code AcquiredRecords} carries them.
 *
 * @param firstOffset   first offset acquired, inclusive
 * @param lastOffset    last offset acquired, inclusive
 * @param deliveryCount how many times these records have now been delivered (1 on the first delivery)
 */
public record AcquiredRange(long firstOffset, long lastOffset, int deliveryCount) {

    /** {@code ranges} (by offset) with adjacent ranges of one delivery count joined, as a response lists them. */
    static java.util.List<AcquiredRange> merge(java.util.List<AcquiredRange> ranges) {
        java.util.List<AcquiredRange> merged = new java.util.ArrayList<>(ranges.size());
        for (AcquiredRange range : ranges) {
            AcquiredRange last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            if (last != null && last.lastOffset() + 1 == range.firstOffset() && last.deliveryCount() == range.deliveryCount()) {
                merged.set(merged.size() - 1, new AcquiredRange(last.firstOffset(), range.lastOffset(), last.deliveryCount()));
            } else {
                merged.add(range);
            }
        }
        return merged;
    }
}
