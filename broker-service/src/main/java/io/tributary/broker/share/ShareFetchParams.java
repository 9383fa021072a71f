package io.tributary.broker.share;

/**
 * Request-level settings of a ShareFetch (KIP-932).
 *
 * @param groupId           the share group
 * @param memberId          the fetching member (not checked against the group's membership, as in Kafka)
 * @param maxWaitMs         how long to wait for {@code minBytes}, ms
 * @param minBytes          bytes to accumulate before answering
 * @param maxBytes          response byte limit (soft for the first batch, KIP-74)
 * @param maxRecords        most records to acquire over all partitions ({@code max.poll.records})
 * @param strictRecordLimit whether {@code maxRecords} is exact (share acquire mode record_limit, KIP-1206)
 *                          or only stops between batches (batch_optimized)
 */
public record ShareFetchParams(String groupId, String memberId, long maxWaitMs, int minBytes, int maxBytes,
                               int maxRecords, boolean strictRecordLimit) {

    /** These settings with another max wait. */
    public ShareFetchParams withMaxWaitMs(long waitMs) {
        return new ShareFetchParams(groupId, memberId, waitMs, minBytes, maxBytes, maxRecords, strictRecordLimit);
    }
}
