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
 * Creates a share-partition on its leader: from its persisted state when the persister has one,
 * else from the group's {@code share.auto.offset.reset} (KIP-932): {@code latest} (the default)
 * starts at the high watermark, {@code earliest} at the log start offset, {@code by_duration:<d>}
 * at the first record at most that old (the high watermark when there is none), and that start is
 * initialized in the persister. Thread-safe.
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
            if (stored.isPresent()) {
                return CompletableFuture.completedFuture(create(key, leaderEpoch, stored.get(), config));
            }
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
