package io.tributary.broker.share.coordinator;

import io.tributary.broker.coordinator.CoordinatorLog;
import io.tributary.broker.replica.PartitionLeadershipListener;
import io.tributary.broker.replica.ProduceResult;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.coordinator.common.runtime.CoordinatorRecord;
import org.apache.kafka.coordinator.share.ShareGroupOffset;
import org.apache.kafka.server.share.persister.PersisterStateBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The share coordinator of one broker (KIP-932): keeps the state of the share-partitions whose
 * {@code __share_group_state} partition ({@link ShareStateKey#partitionFor}) this broker leads, one
 * {@link ShareCoordinatorShard} per partition. Becoming leader loads the partition by replaying it
 * (operations on it get COORDINATOR_LOAD_IN_PROGRESS meanwhile), in that leader epoch; resigning
 * unloads it (NOT_COORDINATOR). A change is appended through the {@link CoordinatorLog} with
 * acks=all and applied only once committed; a failed append leaves the state as it was.
 *
 * <p>Errors (as values, per Kafka's share coordinator): NONE, NOT_COORDINATOR,
 * COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE (the ISR could not take the record),
 * FENCED_LEADER_EPOCH, FENCED_STATE_EPOCH, UNKNOWN_SERVER_ERROR.
 *
 * <p>Thread-safety: thread-safe. Shards are confined to one event thread; operations of one
 * share-partition run one after another (the next plans from the state the previous one committed);
 * loads run on a loader thread. Futures complete on the event thread, which never blocks on I/O
 * other than handing records to the local log.
 */
public final class ShareCoordinator implements PartitionLeadershipListener, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ShareCoordinator.class);
    private static final CompletableFuture<Errors> DONE = CompletableFuture.completedFuture(Errors.NONE);

    /**
     * @param numPartitions              {@code share.coordinator.state.topic.num.partitions}
     * @param snapshotUpdatesPerSnapshot {@code share.coordinator.snapshot.update.records.per.snapshot}
     * @param writeTimeoutMs             how long an append waits for the ISR, ms ({@code share.coordinator.write.timeout.ms})
     */
    public record Settings(int numPartitions, int snapshotUpdatesPerSnapshot, long writeTimeoutMs) {
    }

    /**
     * A read's outcome.
     *
     * @param error NONE, or why there is no state
     * @param state the stored state; empty when none was initialized (or on error)
     */
    public record ReadResult(Errors error, Optional<ShareGroupOffset> state) {
    }

    /** One partition's ownership in one leader epoch; a later election is another instance. */
    private static final class Load {
        private final int leaderEpoch;
        /** Set on the event thread once loaded. */
        private ShareCoordinatorShard shard;
        /** The last operation of each key, event thread only. */
        private final Map<ShareStateKey, CompletableFuture<Errors>> tails = new HashMap<>();

        private Load(int leaderEpoch) {
            this.leaderEpoch = leaderEpoch;
        }
    }

    private final Settings settings;
    private final CoordinatorLog coordinatorLog;
    private final Time time;
    private final Map<Integer, Load> owned = new ConcurrentHashMap<>();
    private final ExecutorService events;
    private final ExecutorService loader;

    /** @param threadSuffix names the coordinator's threads (the broker id) */
    public ShareCoordinator(Settings settings, CoordinatorLog coordinatorLog, Time time, String threadSuffix) {
        this.settings = settings;
        this.coordinatorLog = coordinatorLog;
        this.time = time;
        this.events = Executors.newSingleThreadExecutor(daemon("share-coordinator-" + threadSuffix));
        this.loader = Executors.newSingleThreadExecutor(daemon("share-coordinator-loader-" + threadSuffix));
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    /** The {@code __share_group_state} partition of a share-partition. */
    public int partitionFor(ShareStateKey key) {
        return key.partitionFor(settings.numPartitions());
    }

    /** How many partitions {@code __share_group_state} has (or is created with). */
    public int numPartitions() {
        return settings.numPartitions();
    }

    @Override
    public void onBecomeLeader(TopicPartition tp, int leaderEpoch) {
        if (!Topic.SHARE_GROUP_STATE_TOPIC_NAME.equals(tp.topic())) {
            return;
        }
        Load current = owned.get(tp.partition());
        if (current != null && current.leaderEpoch == leaderEpoch) {
            return;
        }
        Load load = new Load(leaderEpoch);
        owned.put(tp.partition(), load);
        try {
            loader.execute(() -> load(tp, load));
        } catch (RejectedExecutionException e) {
            owned.remove(tp.partition(), load); // closed
        }
    }

    @Override
    public void onResign(TopicPartition tp) {
        if (Topic.SHARE_GROUP_STATE_TOPIC_NAME.equals(tp.topic())) {
            owned.remove(tp.partition());
        }
    }

    private void load(TopicPartition tp, Load load) {
        try {
            long startMs = time.milliseconds();
            ShareCoordinatorShard shard = new ShareCoordinatorShard(settings.snapshotUpdatesPerSnapshot());
            coordinatorLog.readBatchesToLogEnd(tp, (batch, fromOffset) -> {
                if (batch.isControlBatch()) {
                    return;
                }
                for (Record record : batch) {
                    if (record.offset() >= fromOffset && record.hasKey()) {
                        replaySafely(shard, record);
                    }
                }
            });
            events.execute(() -> {
                if (owned.get(tp.partition()) == load) {
                    load.shard = shard;
                    log.info("Loaded {} share-partition state(s) from {} in leader epoch {} in {} ms", shard.size(), tp,
                        load.leaderEpoch, time.milliseconds() - startMs);
                }
            });
        } catch (RuntimeException e) {
            log.error("Could not load {}; its share-partitions stay unavailable until the next leader change", tp, e);
        }
    }

    private static void replaySafely(ShareCoordinatorShard shard, Record record) {
        try {
            if (!shard.replay(record.key(), record.hasValue() ? record.value() : null)) {
                log.warn("Skipping a record of an unknown type at offset {} of {}", record.offset(),
                    Topic.SHARE_GROUP_STATE_TOPIC_NAME);
            }
        } catch (RuntimeException e) {
            log.warn("Skipping an unreadable record at offset {} of {}: {}", record.offset(),
                Topic.SHARE_GROUP_STATE_TOPIC_NAME, e.toString());
        }
    }

    /**
     * ReadShareGroupState: the stored state of {@code key}; a {@code leaderEpoch} above the stored one
     * is stored first (fencing the older leader's writes), one below it fails with FENCED_LEADER_EPOCH.
     *
     * @param leaderEpoch the reading partition leader's epoch, -1 for none (a summary read)
     */
    public CompletableFuture<ReadResult> read(ShareStateKey key, int leaderEpoch) {
        long now = time.milliseconds();
        CompletableFuture<ReadResult> result = new CompletableFuture<>();
        mutate(key, shard -> shard.read(key, leaderEpoch, now)).whenComplete((error, e) -> {
            if (error != Errors.NONE) {
                result.complete(new ReadResult(error, Optional.empty()));
                return;
            }
            submit(() -> {
                Load load = owned.get(partitionFor(key));
                if (load == null || load.shard == null) {
                    result.complete(new ReadResult(load == null ? Errors.NOT_COORDINATOR
                        : Errors.COORDINATOR_LOAD_IN_PROGRESS, Optional.empty()));
                } else {
                    result.complete(new ReadResult(Errors.NONE, load.shard.state(key)));
                }
            }, () -> result.complete(new ReadResult(Errors.COORDINATOR_NOT_AVAILABLE, Optional.empty())));
        });
        return result;
    }

    /** WriteShareGroupState: merges {@code batches} into the state (see {@link ShareCoordinatorShard#write}). */
    public CompletableFuture<Errors> write(ShareStateKey key, int stateEpoch, int leaderEpoch, long startOffset,
                                           int deliveryCompleteCount, List<PersisterStateBatch> batches) {
        long now = time.milliseconds();
        return mutate(key, shard -> shard.write(key, stateEpoch, leaderEpoch, startOffset, deliveryCompleteCount,
            batches, now));
    }

    /** InitializeShareGroupState: FENCED_STATE_EPOCH when {@code stateEpoch} is below the stored one. */
    public CompletableFuture<Errors> initialize(ShareStateKey key, int stateEpoch, long startOffset) {
        long now = time.milliseconds();
        return mutate(key, shard -> shard.initialize(key, stateEpoch, startOffset, now));
    }

    /** DeleteShareGroupState: removes the state (a tombstone); NONE when there was none. */
    public CompletableFuture<Errors> delete(ShareStateKey key) {
        return mutate(key, shard -> shard.delete(key));
    }

    /** Runs {@code plan} on the key's shard after the key's previous operation, appends its record, applies it once committed. */
    private CompletableFuture<Errors> mutate(ShareStateKey key, Function<ShareCoordinatorShard, ShareCoordinatorShard.Planned> plan) {
        CompletableFuture<Errors> result = new CompletableFuture<>();
        int partition = partitionFor(key);
        submit(() -> {
            Load load = owned.get(partition);
            if (load == null || load.shard == null) {
                result.complete(load == null ? Errors.NOT_COORDINATOR : Errors.COORDINATOR_LOAD_IN_PROGRESS);
                return;
            }
            CompletableFuture<Errors> previous = load.tails.getOrDefault(key, DONE);
            CompletableFuture<Errors> mine = previous.handleAsync((r, e) -> null, events)
                .thenCompose(ignored -> apply(partition, load, plan));
            load.tails.put(key, mine);
            mine.whenComplete((error, e) -> {
                result.complete(e == null ? error : Errors.UNKNOWN_SERVER_ERROR);
                submit(() -> load.tails.remove(key, mine), () -> { });
            });
        }, () -> result.complete(Errors.COORDINATOR_NOT_AVAILABLE));
        return result;
    }

    /** On the event thread: plans, appends and applies one operation. */
    private CompletableFuture<Errors> apply(int partition, Load load, Function<ShareCoordinatorShard,
            ShareCoordinatorShard.Planned> plan) {
        if (owned.get(partition) != load) {
            return CompletableFuture.completedFuture(Errors.NOT_COORDINATOR);
        }
        ShareCoordinatorShard.Planned planned = plan.apply(load.shard);
        if (planned.error() != Errors.NONE || planned.record() == null) {
            return CompletableFuture.completedFuture(planned.error());
        }
        CoordinatorRecord record = planned.record();
        TopicPartition tp = new TopicPartition(Topic.SHARE_GROUP_STATE_TOPIC_NAME, partition);
        MemoryRecords records = MemoryRecords.withRecords(Compression.NONE, new SimpleRecord(time.milliseconds(),
            ShareCoordinatorShard.keyBytes(record), ShareCoordinatorShard.valueBytes(record)));
        CompletableFuture<ProduceResult> append;
        try {
            append = coordinatorLog.append(tp, records, settings.writeTimeoutMs());
        } catch (RuntimeException e) {
            append = CompletableFuture.failedFuture(e);
        }
        return append.handleAsync((produced, failure) -> {
            if (failure != null) {
                log.error("Could not append to {}", tp, failure);
            }
            Errors error = failure != null ? Errors.COORDINATOR_NOT_AVAILABLE : toCoordinatorError(produced.error());
            if (owned.get(partition) != load) {
                return Errors.NOT_COORDINATOR; // resigned meanwhile: the next leader replays the log
            }
            if (error == Errors.NONE) {
                load.shard.replay(record);
            }
            return error;
        }, events);
    }

    /** How a failed append to {@code __share_group_state} is answered, as Kafka's coordinator runtime maps it. */
    private static Errors toCoordinatorError(Errors error) {
        return switch (error) {
            case NONE -> Errors.NONE;
            case UNKNOWN_TOPIC_OR_PARTITION, NOT_ENOUGH_REPLICAS, NOT_ENOUGH_REPLICAS_AFTER_APPEND, REQUEST_TIMED_OUT ->
                Errors.COORDINATOR_NOT_AVAILABLE;
            case NOT_LEADER_OR_FOLLOWER, KAFKA_STORAGE_ERROR -> Errors.NOT_COORDINATOR;
            default -> Errors.UNKNOWN_SERVER_ERROR;
        };
    }

    private void submit(Runnable task, Runnable rejected) {
        try {
            events.execute(task);
        } catch (RejectedExecutionException e) {
            rejected.run();
        }
    }

    /** Stops the coordinator's threads; operations then get COORDINATOR_NOT_AVAILABLE. */
    @Override
    public void close() {
        loader.shutdownNow();
        events.shutdownNow();
        owned.clear();
    }
}
