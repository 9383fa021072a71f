package io.tributary.broker.share;

/**
 * Delivered records of a share-partition that were archived together (KIP-932), as a dead-letter
 * queue (KIP-1191) receives them. Control batches, aborted transactions and GAP acknowledgements are
 * archived too but never reported: they hold no record a member could not process.
 *
 * @param key           the share-partition
 * @param firstOffset   first offset archived, inclusive
 * @param lastOffset    last offset archived, inclusive ({@code >= firstOffset})
 * @param deliveryCount deliveries of these records when they were archived
 * @param reason        REJECT, or the delivery count limit
 */
public record ArchivedRange(SharePartitionKey key, long firstOffset, long lastOffset, int deliveryCount,
                            ArchiveReason reason) {

    public ArchivedRange {
        if (lastOffset < firstOffset) {
            throw new IllegalArgumentException("Archived range " + firstOffset + "-" + lastOffset + " is empty");
        }
    }
}
