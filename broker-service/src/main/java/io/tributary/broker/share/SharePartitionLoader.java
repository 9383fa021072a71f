package io.tributary.broker.share;

import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.apache.kafka.common.requests.ListOffsetsRequest;
import org.apache.kafka.coordinator.group.ShareGroupAutoOffsetResetStrategy;

/**
 * Creates a share-partition on its leader from its persisted state (KIP-932). State the group
 * coordinator initialized with start offset -1 (a topic new to the group) starts where the group's
 * {@code share.auto.offset.reset} says: {@code latest} (the default) at the high watermark,
 * {@code earliest} at the log start offset, {@code by_duration:<d>} at the first record at most that
 * old (the high watermark when there is none); that start is written at once. When the persister has
 * no state at all, that start is initialized in the persister here (Kafka 4.4's leader would fail the
 * read instead: see {@link #load}).
 * Thread-safe.
 */
final class SharePartitionLoader {

    private final ShareLog log;
    private final ShareStatePersister persister;
    private final AcquisitionLockTimer timer;
    private final Consumer<SharePartitionKey> onRecordsAvailable;
    private final ShareArchiveListener archiveListener;
    private final SharePartitionMetrics metrics;

    /**
     * @param onRecordsAvailable told when a share-partition's records may be acquirable again
     * @param archiveListener    told of delivered records archived (the dead-letter queue)
     * @param metrics            reports each share-partition created, until it is fenced
     */
    SharePartitionLoader(ShareLog log, ShareStatePersister persister, AcquisitionLockTimer timer,
                         Consumer<SharePartitionKey> onRecordsAvailable, ShareArchiveListener archiveListener,
                         SharePartitionMetrics metrics) {
        this.log = log;
        this.metrics = metrics;
        this.archiveListener = archiveListener;
        this.persister = persister;
        this.timer = timer;
        this.onRecordsAvailable = onRecordsAvailable;
    }

    /**
     * @param leaderEpoch this broker's leader epoch of the partition
     * @return the share-partition; fails with the persister's error, or NOT_LEADER_OR_FOLLOWER when
     *         the log has no offsets for it here
     */
    CompletableFuture<SharePartition> load(SharePartitionKey key, int leaderEpoch, SharePartitionConfig config) {
        return persister.readState(key, leaderEpoch).thenCompose(stored -> {
            if (stored.isPresent() && stored.get().startOffset() < 0) {
                // Initialized by the group coordinator without a start offset: share.auto.offset.reset gives it, as
                // Kafka 4.4's leader computes it. Unlike Kafka's, it is written at once, so the start stays put when
                // the share-partition is loaded again (leader moved, group empty here) and the offsets describe it.
                ShareGroupState s = stored.get();
                long start = initialOffset(key.partition().topicPartition(), config);
                // Nothing at or after a start just resolved is complete yet: the delivery complete count (KIP-1226) is 0.
                ShareGroupState resolved = new ShareGroupState(s.stateEpoch(), leaderEpoch, start, s.stateBatches(), 0);
                return persister.writeState(key, resolved).thenApply(v -> create(key, leaderEpoch, resolved, config));
            }
            if (stored.isPresent()) {
                return CompletableFuture.completedFuture(create(key, leaderEpoch, stored.get(), config));
            }
            // No state: the group coordinator initializes it before assigning the partition (Kafka 4.4 refuses a
            // read of uninitialized state); kept for ShareFetches of members no coordinator assigned and for
            // groups whose partitions were assigned before coordinators initialized state.
            long start = initialOffset(key.partition().topicPartition(), config);
            ShareGroupState initial = new ShareGroupState(0, leaderEpoch, start, List.of());
            return persister.initializeState(key, initial)
                .thenCompose(v -> persister.readState(key))
                .thenApply(state -> create(key, leaderEpoch, state.orElse(initial), config));
        });
    }

    private SharePartition create(SharePartitionKey key, int leaderEpoch, ShareGroupState state, SharePartitionConfig config) {
        SharePartition sp = new SharePartition(key, leaderEpoch, state, config, persister, timer,
            () -> onRecordsAvailable.accept(key), archiveListener, metrics::unregister);
        metrics.register(sp);
        return sp;
    }

    private long initialOffset(TopicPartition tp, SharePartitionConfig config) {
        ShareGroupAutoOffsetResetStrategy reset = config.autoOffsetReset();
        OptionalLong offset = switch (reset.type()) {
            case EARLIEST -> log.offsetForTimestamp(tp, ListOffsetsRequest.EARLIEST_TIMESTAMP, config.isolationLevel());
            case LATEST -> log.offsetForTimestamp(tp, ListOffsetsRequest.LATEST_TIMESTAMP, config.isolationLevel());
            case BY_DURATION -> {
                OptionalLong found = log.offsetForTimestamp(tp, reset.timestamp(), config.isolationLevel());
                yield found.isPresent() ? found
                    : log.offsetForTimestamp(tp, ListOffsetsRequest.LATEST_TIMESTAMP, config.isolationLevel());
            }
        };
        return offset.orElseThrow(() -> new NotLeaderOrFollowerException("No offsets of " + tp + " on this broker"));
    }
}
