package io.tributary.broker.replica;

import io.tributary.broker.cluster.LeaderAndIsr;
import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.cluster.MetadataListener;
import io.tributary.broker.cluster.TopicAssignment;
import io.tributary.broker.config.LogConfig;
import io.tributary.broker.log.EpochEntry;
import io.tributary.broker.log.FetchDataInfo;
import io.tributary.broker.log.FetchIsolation;
import io.tributary.broker.log.LogAppendInfo;
import io.tributary.broker.log.LogManager;
import io.tributary.broker.log.LogOffsetMetadata;
import io.tributary.broker.log.PartitionLog;
import io.tributary.broker.log.RecordValidationException;
import io.tributary.broker.metrics.BrokerTopicStats;
import io.tributary.broker.scheduler.Scheduler;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.KafkaStorageException;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The partitions this broker replicates and the operations on them: produce (with acks=all
 * waiting in a purgatory), fetch (with long polling in a purgatory), offsets by time, record
 * deletion and leader epochs. It follows the cluster's partition states from the
 * {@link MetadataCache}: a partition whose leader is this broker becomes leader here, one it
 * only replicates becomes a follower, a deleted one loses its log.
 *
 * <p>Thread-safe. Produce and fetch run on network threads and never block; role changes run on
 * the metadata event thread.
 *
 * <p>About 730 lines, over the house limit: it is Kafka's ReplicaManager, the one place where
 * produce, fetch, role changes and log-directory failures meet the partitions; the per-partition
 * state lives in {@link Partition}, the waiting in the purgatories, the follower side in
 * {@link ReplicaFetcherManager}, the read-replica choice in {@link ReadReplicaSelection} and the
 * result types in their own records. The role changes (the MetadataListener side) are the next
 * part to move out.
 */
public final class ReplicaManager implements MetadataListener {

    private static final Logger log = LoggerFactory.getLogger(ReplicaManager.class);

    private final int brokerId;
    private final LogManager logManager;
    private final MetadataCache metadataCache;
    private final Function<String, LogConfig> logConfigs;
    private final Map<TopicPartition, Partition> partitions = new ConcurrentHashMap<>();
    private final DelayedOperationPurgatory<DelayedFetch> fetchPurgatory = new DelayedOperationPurgatory<>("fetch");
    private final DelayedOperationPurgatory<DelayedProduce> producePurgatory = new DelayedOperationPurgatory<>("produce");
    private final List<PartitionLeadershipListener> leadershipListeners = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final Time time;
    private final ReplicaFetcherManager fetcherManager;
    private final Partition.Context partitionContext;
    private final ExecutorService completionExecutor;
    private final Set<TopicPartition> offlinePartitions = ConcurrentHashMap.newKeySet();
    private volatile java.util.function.Consumer<Set<TopicPartition>> offlineReplicasListener = tps -> { };
    private final ReadReplicaSelection readReplicaSelection;
    private final ReplicaStats stats = new ReplicaStats();
    private final BrokerTopicStats topicStats;

    /**
     * @param logConfigs          the current config of a topic's logs (broker defaults overlaid with the topic's overrides)
     * @param isrUpdater          where this broker's ISR changes as leader are written
     * @param replicaLagTimeMaxMs {@code replica.lag.time.max.ms}
     * @param fetcherManager      the follower fetchers
     * @param topicStats          per-topic throughput counters (Kafka's BrokerTopicMetrics)
     */
    public ReplicaManager(int brokerId, LogManager logManager, MetadataCache metadataCache,
                          Function<String, LogConfig> logConfigs, Time time, IsrUpdater isrUpdater,
                          long replicaLagTimeMaxMs, ReplicaFetcherManager fetcherManager, BrokerTopicStats topicStats) {
        this.brokerId = brokerId;
        this.topicStats = topicStats;
        this.logManager = logManager;
        this.metadataCache = metadataCache;
        this.logConfigs = logConfigs;
        this.time = time;
        this.fetcherManager = fetcherManager;
        this.partitionContext = new Partition.Context(brokerId, isrUpdater, time, replicaLagTimeMaxMs,
            this::completeDelayedRequests, this::isrEligible, stats);
        this.completionExecutor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "broker-" + brokerId + "-delayed-completion");
            t.setDaemon(true);
            return t;
        });
        this.readReplicaSelection = new ReadReplicaSelection(brokerId, metadataCache);
        fetcherManager.setReplicaManager(this);
        logManager.setLogDirFailureHandler(this::onLogDirFailure);
    }

    /**
     * Tells {@code listener} (on a background thread) the partitions whose replica here is offline
     * after a log directory failed, each time the set grows.
     */
    public void setOfflineReplicasListener(java.util.function.Consumer<Set<TopicPartition>> listener) {
        this.offlineReplicasListener = listener;
    }

    /** Partitions whose replica here is offline (their log directory failed). */
    public Set<TopicPartition> offlinePartitions() {
        return Set.copyOf(offlinePartitions);
    }

    /**
     * An I/O error in a partition's log: its whole log directory goes offline (KIP-112).
     */
    void handleStorageError(TopicPartition tp, KafkaStorageException e) {
        Partition partition = partitions.get(tp);
        java.io.File dir = partition == null ? null : partition.log().map(PartitionLog::dir).orElse(null);
        if (dir != null) {
            logManager.handleLogDirFailure(dir, tp + ": " + e.getMessage());
        }
    }

    /** A log directory went offline: its partitions stop here and the cluster is told. */
    private void onLogDirFailure(java.io.File logDir) {
        List<TopicPartition> lost = new ArrayList<>();
        for (Partition partition : List.copyOf(partitions.values())) {
            boolean inDir = partition.log().map(l -> l.dir().getParentFile().equals(logDir)).orElse(false);
            if (inDir) {
                TopicPartition tp = partition.topicPartition();
                offlinePartitions.add(tp);
                fetcherManager.removePartitions(Set.of(tp));
                partitions.remove(tp);
                if (partition.isLeader()) {
                    leadershipListeners.forEach(l -> l.onResign(tp));
                }
                lost.add(tp);
            }
        }
        log.error("Broker {}: replicas {} are offline with log directory {}", brokerId, lost, logDir);
        Set<TopicPartition> offline = Set.copyOf(offlinePartitions);
        try {
            completionExecutor.execute(() -> {
                lost.forEach(this::completeDelayedRequests);
                offlineReplicasListener.accept(offline);
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // shutting down
        }
    }

    /**
     * Starts the periodic work: the ISR check of every partition led here (each half of
     * {@code replica.lag.time.max.ms}) and the stop of idle fetchers.
     */
    public void startup(Scheduler scheduler) {
        long interval = Math.max(1, partitionContext.replicaLagTimeMaxMs() / 2);
        scheduler.schedule("isr-expiration", this::maybeShrinkIsr, interval, interval);
        scheduler.schedule("shutdown-idle-replica-fetchers", fetcherManager::shutdownIdleFetchers, 1000, 1000);
    }

    /** Shrinks the ISR of every partition this broker leads where followers fell behind. */
    public void maybeShrinkIsr() {
        for (Partition partition : partitions.values()) {
            try {
                partition.maybeShrinkIsr();
            } catch (RuntimeException e) {
                log.error("ISR check of {} failed", partition.topicPartition(), e);
            }
        }
    }

    /**
     * Stops every follower fetcher for good (controlled shutdown): this broker stops copying, so
     * it cannot rejoin ISRs it was taken out of.
     */
    public void stopFetchers() {
        fetcherManager.close();
    }

    /**
     * Whether a follower may join a partition's ISR: registered, not shutting down, its replica
     * online, and not a replica a reassignment is removing (the controller may already have cut it
     * from the ISR while this leader's view of the assignment still lists it).
     */
    private boolean isrEligible(TopicPartition tp, int brokerId) {
        boolean registered = metadataCache.broker(brokerId)
            .map(b -> !b.shuttingDown() && !b.offlineReplicas().contains(tp)).orElse(false);
        boolean removing = metadataCache.topic(tp.topic())
            .map(t -> t.removingReplicas().getOrDefault(tp.partition(), List.of()).contains(brokerId)).orElse(false);
        return registered && !removing;
    }

    /**
     * Lets leaders send consumers to a closer replica ({@code replica.selector.class}, KIP-392),
     * e.g. kafka-clients' {@code RackAwareReplicaSelector}; null (the default) keeps them on leaders.
     */
    public void setReplicaSelector(org.apache.kafka.common.replica.ReplicaSelector selector) {
        readReplicaSelection.setSelector(selector);
    }

    /**
     * What a controlled shutdown waits for: partitions this broker leads that another live
     * in-sync replica could take over, and partitions it follows whose ISR still holds it.
     */
    public List<TopicPartition> leadershipsToMove() {
        return partitions.values().stream()
            .filter(p -> p.isLeader() ? p.isr().stream().anyMatch(r -> r != brokerId && metadataCache.broker(r)
                .map(b -> !b.shuttingDown()).orElse(false)) : p.isr().contains(brokerId) && p.isr().size() > 1)
            .map(Partition::topicPartition).toList();
    }

    /** ISR changes written by this broker as leader. */
    public ReplicaStats stats() {
        return stats;
    }

    /** Per-topic throughput counters: bytes and records in and out. */
    public BrokerTopicStats topicStats() {
        return topicStats;
    }

    /** Partitions this broker leads whose ISR is smaller than their replicas (Kafka's UnderReplicatedPartitions). */
    public int underReplicatedPartitionCount() {
        return (int) partitions.values().stream().filter(p -> p.isLeader() && p.isr().size() < p.replicas().size()).count();
    }

    /** Partitions this broker leads whose ISR is below {@code min.insync.replicas} (UnderMinIsrPartitionCount). */
    public int underMinIsrPartitionCount() {
        return (int) partitions.values().stream().filter(p -> p.isLeader()
            && p.isr().size() < p.log().map(l -> l.config().minInSyncReplicas()).orElse(1)).count();
    }

    /**
     * Partitions this broker follows, whose leader is alive, with this broker outside the ISR:
     * what it still has to catch up on.
     */
    public int followerPartitionsOutOfSync() {
        return (int) partitions.values().stream().filter(p -> !p.isLeader() && p.leaderId() >= 0
            && metadataCache.isAlive(p.leaderId()) && !p.isr().contains(brokerId)).count();
    }

    /** Partitions this broker leads (LeaderCount). */
    public int leaderCount() {
        return (int) partitions.values().stream().filter(Partition::isLeader).count();
    }

    /** Partitions this broker replicates (PartitionCount). */
    public int partitionCount() {
        return partitions.size();
    }

    /** The follower fetchers (tests and metrics). */
    public ReplicaFetcherManager fetcherManager() {
        return fetcherManager;
    }

    public int brokerId() {
        return brokerId;
    }

    /** Adds a listener of leadership changes; call before the metadata loads. */
    public void addLeadershipListener(PartitionLeadershipListener listener) {
        leadershipListeners.add(listener);
    }

    public Optional<Partition> getPartition(TopicPartition tp) {
        return Optional.ofNullable(partitions.get(tp));
    }

    /** Partitions this broker leads. */
    public List<Partition> leaderPartitions() {
        return partitions.values().stream().filter(Partition::isLeader).toList();
    }

    /**
     * Deletes local logs the cluster no longer assigns here: topics deleted or recreated (another
     * topic id) while this broker was down. Call once the metadata has loaded.
     */
    public void removeStrayLogs() {
        for (PartitionLog partitionLog : logManager.allLogs()) {
            TopicPartition tp = partitionLog.topicPartition();
            Optional<TopicAssignment> topic = metadataCache.topic(tp.topic());
            boolean assignedHere = topic.map(t -> t.replicas().getOrDefault(tp.partition(), List.of()).contains(brokerId))
                .orElse(false);
            boolean sameTopic = topic.isPresent() && partitionLog.topicId()
                .map(id -> id.equals(topic.get().topicId())).orElse(true);
            if (!assignedHere || !sameTopic) {
                log.warn("Deleting stray log {}: {}", tp, !sameTopic ? "its topic was recreated" : "not assigned to this broker");
                partitions.remove(tp);
                logManager.asyncDelete(tp);
            }
        }
    }

    @Override
    public void onPartitionStateChanged(TopicPartition tp, LeaderAndIsr state) {
        if (offlinePartitions.contains(tp)) {
            return; // its log directory failed: the replica stays offline here until a restart
        }
        Optional<TopicAssignment> topic = metadataCache.topic(tp.topic());
        if (topic.isEmpty()) {
            return;
        }
        List<Integer> replicas = topic.get().replicas().get(tp.partition());
        if (replicas == null || !replicas.contains(brokerId)) {
            if (partitions.containsKey(tp)) {
                stopReplica(tp, true);
            }
            return;
        }
        try {
            Uuid topicId = topic.get().topicId();
            PartitionLog partitionLog = logManager.getLog(tp).orElse(null);
            Partition current = partitions.get(tp);
            boolean otherTopic = !Uuid.ZERO_UUID.equals(topicId)
                && (partitionLog != null && partitionLog.topicId().map(id -> !id.equals(topicId)).orElse(false)
                    || current != null && current.topicId() != null && !current.topicId().equals(topicId));
            if (otherTopic) {
                // The topic was deleted and created again without this broker seeing the deletion
                // (e.g. while its ZooKeeper session was down): the old replica and its log go.
                log.warn("{} now belongs to topic id {}: deleting the replica of the previous topic", tp, topicId);
                stopReplica(tp, true);
                partitionLog = null;
            }
            if (partitionLog == null) {
                partitionLog = logManager.getOrCreateLog(tp, topicId, logConfigs.apply(tp.topic()));
            } else {
                partitionLog.assignTopicId(topicId);
            }
            Partition partition = partitions.computeIfAbsent(tp, k -> new Partition(k, partitionContext));
            if (state.leader() == brokerId) {
                fetcherManager.removePartitions(Set.of(tp));
                if (partition.makeLeader(state, replicas, topicId, partitionLog)) {
                    log.info("Broker {} is the leader of {} in leader epoch {} (log end offset {}, high watermark {})",
                        brokerId, tp, state.leaderEpoch(), partitionLog.logEndOffset(), partitionLog.highWatermark());
                    leadershipListeners.forEach(l -> l.onBecomeLeader(tp, state.leaderEpoch()));
                }
            } else {
                boolean wasLeader = partition.isLeader();
                if (partition.makeFollower(state, replicas, topicId, partitionLog)) {
                    log.info("Broker {} follows leader {} for {} in leader epoch {} from offset {}", brokerId, state.leader(),
                        tp, state.leaderEpoch(), partitionLog.logEndOffset());
                    fetcherManager.removePartitions(Set.of(tp));
                    if (state.hasLeader()) {
                        fetcherManager.addPartition(tp, state.leader(), new PartitionFetchState(topicId,
                            partitionLog.logEndOffset(), state.leaderEpoch(), 0));
                    }
                    if (wasLeader) {
                        leadershipListeners.forEach(l -> l.onResign(tp));
                    }
                }
            }
            completeDelayedRequests(tp);
        } catch (RuntimeException | java.io.IOException e) {
            log.error("Could not apply the state of {} ({}); the partition stays offline on this broker", tp, state, e);
        }
    }

    /**
     * A topic appeared or its assignment changed: apply the partition states already known,
     * in case a state arrived before the assignment that says whether it concerns this broker.
     */
    @Override
    public void onTopicChanged(TopicAssignment assignment) {
        for (int partition : assignment.replicas().keySet()) {
            TopicPartition tp = new TopicPartition(assignment.topic(), partition);
            metadataCache.partitionState(tp).ifPresent(state -> {
                Partition current = partitions.get(tp);
                boolean applied = current != null && current.leaderEpoch() >= state.leaderEpoch()
                    && assignment.replicas().get(partition).equals(current.replicas())
                    && assignment.topicId().equals(current.topicId());
                if (!applied) {
                    onPartitionStateChanged(tp, state);
                }
            });
        }
    }

    @Override
    public void onPartitionRemoved(TopicPartition tp) {
        stopReplica(tp, true);
    }

    /** A deleted topic's throughput series go (once it has left the metadata, so none comes back). */
    @Override
    public void onTopicRemoved(String topic) {
        topicStats.removeTopic(topic);
    }

    @Override
    public void onTopicConfigChanged(String topic, Map<String, String> overrides) {
        LogConfig config;
        try {
            config = logConfigs.apply(topic);
        } catch (RuntimeException e) {
            log.error("Ignoring an invalid config of topic {}: {}", topic, e.getMessage());
            return;
        }
        for (Partition partition : partitions.values()) {
            if (partition.topicPartition().topic().equals(topic)) {
                partition.log().ifPresent(l -> l.updateConfig(config));
            }
        }
    }

    private void stopReplica(TopicPartition tp, boolean deleteLog) {
        fetcherManager.removePartitions(Set.of(tp));
        Partition removed = partitions.remove(tp);
        if (removed != null && removed.isLeader()) {
            leadershipListeners.forEach(l -> l.onResign(tp));
        }
        if (deleteLog) {
            logManager.asyncDelete(tp);
        }
        if (removed != null) {
            completeDelayedRequests(tp);
            log.info("Stopped replica {}{}", tp, deleteLog ? " and scheduled its log for deletion" : "");
        }
    }

    /** Lets waiting fetches and acks=all produces on {@code tp} complete. */
    void completeDelayedRequests(TopicPartition tp) {
        fetchPurgatory.checkAndComplete(tp);
        producePurgatory.checkAndComplete(tp);
    }

    /**
     * Appends producers' records to the partitions this broker leads.
     *
     * @param timeoutMs    how long acks=all may wait for replication, ms
     * @param requiredAcks -1, 0 or 1
     * @param entries      records per partition
     * @return per-partition results, complete once acks are satisfied
     */
    public CompletableFuture<Map<TopicPartition, ProduceResult>> appendRecords(long timeoutMs, short requiredAcks,
                                                                              Map<TopicPartition, MemoryRecords> entries) {
        return append(timeoutMs, requiredAcks, entries, false);
    }

    /**
     * Appends records the broker itself writes to an internal topic ({@code __consumer_offsets}),
     * with acks=all: the future completes once every in-sync replica has them.
     */
    public CompletableFuture<ProduceResult> appendToInternalTopic(TopicPartition tp, MemoryRecords records, long timeoutMs) {
        return append(timeoutMs, (short) -1, Map.of(tp, records), true).thenApply(results -> results.get(tp));
    }

    private CompletableFuture<Map<TopicPartition, ProduceResult>> append(long timeoutMs, short requiredAcks,
                                                                         Map<TopicPartition, MemoryRecords> entries,
                                                                         boolean internal) {
        Map<TopicPartition, ProduceResult> results = new LinkedHashMap<>();
        for (Map.Entry<TopicPartition, MemoryRecords> e : entries.entrySet()) {
            TopicPartition tp = e.getKey();
            results.put(tp, appendToPartition(tp, e.getValue(), requiredAcks, internal));
        }
        CompletableFuture<Map<TopicPartition, ProduceResult>> future = new CompletableFuture<>();
        if (requiredAcks == -1) {
            DelayedProduce delayed = new DelayedProduce(timeoutMs, results, this, future::complete);
            if (delayed.hasPending()) {
                producePurgatory.tryCompleteElseWatch(delayed, new ArrayList<>(results.keySet()));
                return future;
            }
        }
        future.complete(results);
        return future;
    }

    private ProduceResult appendToPartition(TopicPartition tp, MemoryRecords records, short requiredAcks, boolean internal) {
        try {
            if (!internal && Topic.isInternal(tp.topic())) {
                throw new InvalidTopicException("Cannot append to internal topic " + tp.topic());
            }
            LogAppendInfo info;
            try {
                Partition partition = partitionOrError(tp);
                int minIsr = partition.log().map(l -> l.config().minInSyncReplicas()).orElse(1);
                info = partition.appendRecordsToLeader(records, requiredAcks, minIsr);
            } catch (RuntimeException e) {
                topicStats.recordProduceFailed(tp.topic(), countsAsFailedProduce(e));
                throw e;
            }
            topicStats.recordProduced(tp.topic(), records.sizeInBytes(), info.recordCount());
            if (info.recordCount() > 0) {
                completeDelayedRequests(tp);
            }
            return new ProduceResult(Errors.NONE, null, info.firstOffset(), info.logAppendTime(), info.logStartOffset(),
                List.of(), info.lastOffset());
        } catch (RecordValidationException e) {
            return new ProduceResult(e.error(), e.getMessage(), -1, RecordBatch.NO_TIMESTAMP, -1, e.recordErrors(), -1);
        } catch (KafkaStorageException e) {
            log.error("Storage error appending to {}", tp, e);
            handleStorageError(tp, e);
            return ProduceResult.error(Errors.KAFKA_STORAGE_ERROR, e.getMessage());
        } catch (ApiException e) {
            return ProduceResult.error(Errors.forException(e), e.getMessage());
        } catch (RuntimeException e) {
            log.error("Unexpected error appending to {}", tp, e);
            return ProduceResult.error(Errors.UNKNOWN_SERVER_ERROR, e.toString());
        }
    }

    /**
     * Whether a failed append counts in {@code FailedProduceRequestsPerSec}: as in Kafka's
     * ReplicaManager, every failure but the known outcomes a client or a leadership change causes
     * and storage errors (counted by the log directory's own metrics).
     */
    private static boolean countsAsFailedProduce(RuntimeException e) {
        if (e instanceof RecordValidationException rve) {
            return rve.error() != Errors.MESSAGE_TOO_LARGE && rve.error() != Errors.RECORD_LIST_TOO_LARGE
                && rve.error() != Errors.CORRUPT_MESSAGE;
        }
        return !(e instanceof org.apache.kafka.common.errors.UnknownTopicOrPartitionException
            || e instanceof NotLeaderOrFollowerException
            || e instanceof org.apache.kafka.common.errors.RecordTooLargeException
            || e instanceof org.apache.kafka.common.errors.RecordBatchTooLargeException
            || e instanceof org.apache.kafka.common.errors.CorruptRecordException
            || e instanceof KafkaStorageException);
    }

    private Partition partitionOrError(TopicPartition tp) {
        Partition partition = partitions.get(tp);
        if (partition != null) {
            return partition;
        }
        if (offlinePartitions.contains(tp)) {
            throw new KafkaStorageException("The replica of " + tp + " on broker " + brokerId + " is offline: its log "
                + "directory failed");
        }
        boolean known = metadataCache.topic(tp.topic()).map(t -> t.replicas().containsKey(tp.partition())).orElse(false);
        if (known) {
            throw new NotLeaderOrFollowerException("Broker " + brokerId + " does not replicate " + tp);
        }
        throw new UnknownTopicOrPartitionException("This server does not host this topic-partition.");
    }

    /**
     * Reads for a consumer (up to the high watermark) or a follower (up to the log end), waiting
     * up to {@code maxWaitMs} for {@code minBytes}.
     *
     * @param fetchInfos partitions in request order
     */
    public CompletableFuture<Map<TopicPartition, FetchPartitionResult>> fetchMessages(
            FetchParams params, LinkedHashMap<TopicPartition, FetchPartition> fetchInfos) {
        ReadResults read = readFromLog(params, fetchInfos);
        read.highWatermarkMoved().forEach(this::completeDelayedRequests);
        CompletableFuture<Map<TopicPartition, FetchPartitionResult>> future = new CompletableFuture<>();
        if (params.maxWaitMs() <= 0 || fetchInfos.isEmpty() || read.bytesReadable() >= params.minBytes()
                || read.answerNow()) {
            future.complete(read.results());
            return future;
        }
        DelayedFetch delayed = new DelayedFetch(params, fetchInfos, read.fetchOffsets(), this, future::complete);
        fetchPurgatory.tryCompleteElseWatch(delayed, new ArrayList<>(fetchInfos.keySet()));
        return future;
    }

    /**
     * The reads of one pass over a fetch's partitions.
     *
     * @param results       per-partition results in request order
     * @param fetchOffsets  where each read started, for the delayed fetch's progress check
     * @param bytesReadable total bytes read
     * @param answerNow     whether to answer without waiting: a partition failed or names another replica
     * @param highWatermarkMoved partitions whose high watermark a follower's fetch moved
     */
    record ReadResults(Map<TopicPartition, FetchPartitionResult> results, Map<TopicPartition, LogOffsetMetadata> fetchOffsets,
                       long bytesReadable, boolean answerNow, List<TopicPartition> highWatermarkMoved) {
    }

    /**
     * Completes waiting requests on another thread: for a delayed fetch's own completion, which
     * runs under that operation's monitor and must not take other operations' monitors.
     */
    void completeDelayedRequestsLater(List<TopicPartition> tps) {
        if (tps.isEmpty()) {
            return;
        }
        try {
            completionExecutor.execute(() -> tps.forEach(this::completeDelayedRequests));
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // shutting down
        }
    }

    ReadResults readFromLog(FetchParams params, LinkedHashMap<TopicPartition, FetchPartition> fetchInfos) {
        Map<TopicPartition, FetchPartitionResult> results = new LinkedHashMap<>();
        Map<TopicPartition, LogOffsetMetadata> offsets = new LinkedHashMap<>();
        FetchIsolation isolation = params.isFromFollower() ? FetchIsolation.LOG_END
            : params.isolationLevel() == IsolationLevel.READ_COMMITTED ? FetchIsolation.TXN_COMMITTED
            : FetchIsolation.HIGH_WATERMARK;
        int limitBytes = params.maxBytes();
        boolean minOneMessage = true;
        long bytesReadable = 0;
        boolean answerNow = false;
        List<TopicPartition> highWatermarkMoved = new ArrayList<>();
        for (Map.Entry<TopicPartition, FetchPartition> e : fetchInfos.entrySet()) {
            TopicPartition tp = e.getKey();
            FetchPartition request = e.getValue();
            try {
                Partition partition = partitionOrError(tp);
                int maxBytes = Math.min(request.maxBytes(), limitBytes);
                FetchDataInfo info;
                PartitionLog partitionLog = partition.log().orElseThrow(() -> new NotLeaderOrFollowerException("No log"));
                if (params.isFromFollower()) {
                    Partition.FollowerRead read = partition.readForFollower(request.fetchOffset(),
                        request.currentLeaderEpoch(), request.lastFetchedEpoch(), maxBytes, minOneMessage);
                    if (read.divergingEpoch() != null) {
                        long hw = partitionLog.highWatermark();
                        results.put(tp, new FetchPartitionResult(Errors.NONE, hw, hw, partitionLog.logStartOffset(),
                            MemoryRecords.EMPTY, read.divergingEpoch().epoch(), read.divergingEpoch().startOffset()));
                        continue;
                    }
                    info = read.data();
                    if (partition.updateFollowerFetchState(params.replicaId(), info.fetchOffsetMetadata(), -1,
                            time.milliseconds(), read.leaderLogEndOffset())) {
                        highWatermarkMoved.add(tp);
                    }
                } else if (params.mayReadFromFollower() && !partition.isLeader()) {
                    info = partition.readAsFollower(request.fetchOffset(), request.currentLeaderEpoch(), maxBytes,
                        minOneMessage);
                } else {
                    int preferred = params.mayReadFromFollower()
                        ? readReplicaSelection.preferredReadReplica(partition, partitionLog, request.fetchOffset(),
                            params.clientMetadata()) : -1;
                    if (preferred >= 0) {
                        long hw = partitionLog.highWatermark();
                        results.put(tp, new FetchPartitionResult(Errors.NONE, hw, hw, partitionLog.logStartOffset(),
                            MemoryRecords.EMPTY, -1, -1, preferred));
                        answerNow = true;
                        continue;
                    }
                    info = partition.read(request.fetchOffset(), request.currentLeaderEpoch(), maxBytes, isolation,
                        minOneMessage);
                }
                int size = info.records().sizeInBytes();
                limitBytes = Math.max(0, limitBytes - size);
                if (size > 0) {
                    minOneMessage = false;
                }
                bytesReadable += size;
                long highWatermark = partitionLog.highWatermark();
                results.put(tp, new FetchPartitionResult(Errors.NONE, highWatermark, highWatermark,
                    partitionLog.logStartOffset(), info.records()));
                offsets.put(tp, info.fetchOffsetMetadata());
            } catch (KafkaStorageException ex) {
                log.error("Storage error reading {}", tp, ex);
                handleStorageError(tp, ex);
                results.put(tp, FetchPartitionResult.error(Errors.KAFKA_STORAGE_ERROR));
                answerNow = true;
            } catch (ApiException ex) {
                Errors error = Errors.forException(ex);
                results.put(tp, withOffsets(tp, error));
                answerNow = true;
            } catch (RuntimeException ex) {
                log.error("Unexpected error reading {}", tp, ex);
                results.put(tp, FetchPartitionResult.error(Errors.UNKNOWN_SERVER_ERROR));
                answerNow = true;
            }
        }
        return new ReadResults(results, offsets, bytesReadable, answerNow, highWatermarkMoved);
    }

    /** An error result that still tells the client the offsets it needs (e.g. for OFFSET_OUT_OF_RANGE). */
    private FetchPartitionResult withOffsets(TopicPartition tp, Errors error) {
        Partition partition = partitions.get(tp);
        if (error == Errors.OFFSET_OUT_OF_RANGE && partition != null && partition.log().isPresent()) {
            PartitionLog l = partition.log().get();
            return new FetchPartitionResult(error, l.highWatermark(), l.highWatermark(), l.logStartOffset(),
                MemoryRecords.EMPTY);
        }
        return FetchPartitionResult.error(error);
    }


    /**
     * Reads committed batches of a partition led here.
     *
     * @throws NotLeaderOrFollowerException when this broker does not lead it
     * @throws org.apache.kafka.common.errors.OffsetOutOfRangeException for an offset outside the log
     */
    public LocalRead readCommitted(TopicPartition tp, long startOffset, int maxBytes) {
        Partition partition = partitionOrError(tp);
        PartitionLog l = partition.log().orElseThrow(() -> new NotLeaderOrFollowerException("No log for " + tp));
        FetchDataInfo info = partition.read(Math.max(startOffset, l.logStartOffset()), RecordBatch.NO_PARTITION_LEADER_EPOCH,
            maxBytes, FetchIsolation.HIGH_WATERMARK, true);
        return new LocalRead(info.records(), l.highWatermark(), l.logStartOffset());
    }


    /** ListOffsets for one partition: earliest, latest, max timestamp or by timestamp. */
    public ListOffsetResult listOffset(TopicPartition tp, long timestamp, IsolationLevel isolationLevel,
                                       int currentLeaderEpoch) {
        try {
            Partition partition = partitionOrError(tp);
            PartitionLog l = partition.log().orElseThrow(() -> new NotLeaderOrFollowerException("No log for " + tp));
            long lastFetchable = l.highWatermark();
            Optional<FileRecords.TimestampAndOffset> found = partition.fetchOffsetForTimestamp(timestamp,
                currentLeaderEpoch, lastFetchable);
            return found.map(t -> new ListOffsetResult(Errors.NONE, t.timestamp, t.offset, t.leaderEpoch.orElse(-1)))
                .orElse(new ListOffsetResult(Errors.NONE, RecordBatch.NO_TIMESTAMP, -1, -1));
        } catch (ApiException e) {
            return new ListOffsetResult(Errors.forException(e), RecordBatch.NO_TIMESTAMP, -1, -1);
        }
    }


    public DeleteRecordsResult deleteRecords(TopicPartition tp, long offset) {
        try {
            if (Topic.isInternal(tp.topic())) {
                throw new InvalidTopicException("Cannot delete records of internal topic " + tp.topic());
            }
            return new DeleteRecordsResult(Errors.NONE, partitionOrError(tp).deleteRecordsOnLeader(offset));
        } catch (ApiException e) {
            return new DeleteRecordsResult(Errors.forException(e), -1);
        }
    }


    public EpochEndOffset lastOffsetForLeaderEpoch(TopicPartition tp, int currentLeaderEpoch, int requestedEpoch) {
        try {
            EpochEntry entry = partitionOrError(tp).lastOffsetForLeaderEpoch(currentLeaderEpoch, requestedEpoch);
            return new EpochEndOffset(Errors.NONE, entry.epoch(), entry.startOffset());
        } catch (ApiException e) {
            return new EpochEndOffset(Errors.forException(e), -1, -1);
        }
    }


    /** The log directories and the size of each partition in them. */
    public List<LogDirInfo> describeLogDirs() {
        return logManager.describeLogDirs().stream()
            .map(d -> new LogDirInfo(d.path(), d.partitions(), d.totalBytes(), d.usableBytes(), d.offline())).toList();
    }

    /** Completes every waiting request and forgets the partitions (before the logs close). */
    public void shutdown() {
        fetcherManager.close();
        completionExecutor.shutdown();
        fetchPurgatory.shutdown();
        producePurgatory.shutdown();
        partitions.clear();
    }
}
