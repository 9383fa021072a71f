package io.tributary.broker.cluster;

/**
 * Carries out topic deletions, as Kafka's controller does for a ZooKeeper cluster: a topic is
 * queued for deletion while {@code /admin/delete_topics/<topic>} exists; the controller then
 * deletes the topic's nodes and the request together ({@link ControllerWrites#deleteTopic}).
 *
 * <p>Invariant: the controller's reconciliation skips a topic queued for deletion (no new
 * leaders, ISR changes or reassignment steps) and does not count its partitions as offline; the
 * deletion is all or nothing, one fenced transaction.
 *
 * <p>Thread safety: {@link #resumeDeletions()} is called on the controller's event thread only;
 * {@link #isTopicQueuedUpForDeletion} may be called from any thread.
 *
 * <p>Errors: those of {@link ControllerWrites}; a deletion that meets a changed node is left
 * queued and tried again at the next reconciliation.
 */
final class TopicDeletionManager {

    private final MetadataCache metadataCache;
    private final ControllerWrites writes;

    TopicDeletionManager(MetadataCache metadataCache, ControllerWrites writes) {
        this.metadataCache = metadataCache;
        this.writes = writes;
    }

    boolean isTopicQueuedUpForDeletion(String topic) {
        return metadataCache.isPendingDeletion(topic);
    }

    /** Deletes every topic queued for deletion. */
    void resumeDeletions() {
        for (String topic : metadataCache.pendingDeletions()) {
            writes.deleteTopic(topic);
        }
    }
}
