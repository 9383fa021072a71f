package io.tributary.broker.share;

/**
 * Told when delivered records of a share-partition are archived (REJECT, or released at
 * {@code share.delivery.count.limit}), once the ARCHIVED state is written to the persister: the
 * share-group dead-letter queue (KIP-1191, {@code io.tributary.broker.share.dlq}).
 *
 * <p>Implementations must return at once and never block: they may be called while the
 * share-partition's monitor is held, on a request-handler, scheduler or persister thread.
 */
@FunctionalInterface
public interface ShareArchiveListener {

    /** Ignores every archive (no dead-letter queue). */
    ShareArchiveListener NONE = range -> { };

    void onArchived(ArchivedRange range);
}
