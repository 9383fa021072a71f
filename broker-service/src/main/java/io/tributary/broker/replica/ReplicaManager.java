package io.tributary.broker.replica;

import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.log.EpochEntry;
import io.tributary.broker.log.FetchDataInfo;
import io.tributary.broker.log.FetchIsolation;
import io.tributary.broker.log.LogAppendInfo;
import io.tributary.broker.log.LogManager;
import io.tributary.broker.log.PartitionLog;
import io.tributary.broker.log.RecordValidationException;
import io.tributary.broker.metrics.BrokerTopicStats;
import io.tributary.broker.producer.ActiveProducer;
import io.tributary.broker.producer.AppendOrigin;
import io.tributary.broker.producer.VerificationGuard;
import io.tributary.broker.quota.ReplicationQuotaManager;
import io.tributary.broker.scheduler.Scheduler;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
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
 * The operations on the partitions this broker replicates: produce (with acks=all waiting in a
 * purgatory), fetch (with long polling in a purgatory), offsets by time, record deletion and
 * leader epochs, plus the counts the broker's gauges read. The partitions come and go with
 * {@link ReplicaStateChanges} (the role changes) and {@link LogDirFailureHandler}; the per-partition
 * state lives in {@link Partition}, the waiting in {@link DelayedRequests}, the follower side in
 * {@link ReplicaFetcherManager}, the read-replica choice in {@link ReadReplicaSelection}. Built,
 * with those, by {@link ReplicaComponents#build}.
 *
 * <p>Thread-safe. Produce and fetch run on the request handler threads; what waits for replication
 * or for data returns a future completed later.
 */
public final class ReplicaManager {

    private static final Logger log = LoggerFactory.getLogger(ReplicaManager.class);

    private final int brokerId;
    private final HostedPartitions partitions;
    private final DelayedRequests delayed;
    private final LogManager logManager;
    private final MetadataCache metadataCache;
    private final Time time;
    private final ReplicaFetcherManager fetcherManager;
    private final LeadershipListeners leadershipListeners;
    private final StorageErrors storageErrors;
    private final long replicaLagTimeMaxMs;
    private final ReplicaStats stats;
    private final BrokerTopicStats topicStats;
    private final LocalLogReader logReader;

    ReplicaManager(HostedPartitions partitions, DelayedRequests delayed, LogManager logManager, MetadataCache metadataCache,
                   Time time, ReplicaFetcherManager fetcherManager, LeadershipListeners leadershipListeners,
                   StorageErrors storageErrors, ReadReplicaSelection readReplicaSelection, long replicaLagTimeMaxMs,
                   ReplicaStats stats, BrokerTopicStats topicStats, ReplicationQuotaManager leaderQuota) {
        this.brokerId = partitions.brokerId();
        this.partitions = partitions;
        this.delayed = delayed;
        this.logManager = logManager;
        this.metadataCache = metadataCache;
        this.time = time;
        this.fetcherManager = fetcherManager;
        this.leadershipListeners = leadershipListeners;
        this.storageErrors = storageErrors;
        this.replicaLagTimeMaxMs = replicaLagTimeMaxMs;
        this.stats = stats;
        this.topicStats = topicStats;
        this.logReader = new LocalLogReader(partitions, readReplicaSelection, storageErrors, leaderQuota, time);
    }

    /** Partitions whose replica here is offline (their log directory failed). */
    public Set<TopicPartition> offlinePartitions() {
        return partitions.offline();
    }

    /**
     * Starts the periodic work: the ISR check of every partition led here (each half of
     * {@code replica.lag.time.max.ms}) and the stop of idle fetchers.
     */
    public void startup(Scheduler scheduler) {
        long interval = Math.max(1, replicaLagTimeMaxMs / 2);
        scheduler.schedule("isr-expiration", this::maybeShrinkIsr, interval, interval);
        scheduler.schedule("shutdown-idle-replica-fetchers", fetcherManager::shutdownIdleFetchers, 1000, 1000);
    }

    /** Shrinks the ISR of every partition this broker leads where followers fell behind. */
    public void maybeShrinkIsr() {
        for (Partition partition : partitions.all()) {
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
     * What a controlled shutdown waits for: partitions this broker leads that another live
     * in-sync replica could take over, and partitions it follows whose ISR still holds it.
     */
    public List<TopicPartition> leadershipsToMove() {
        return partitions.all().stream()
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
        return (int) partitions.all().stream().filter(p -> p.isLeader() && p.isr().size() < p.replicas().size()).count();
    }

    /**
     * Partitions this broker leads whose ISR is below {@code min.insync.replicas} capped at their replica count
     * (UnderMinIsrPartitionCount; Kafka's {@code isUnderMinIsr} with {@code effectiveMinIsr}, KAFKA-15583).
     */
    public int underMinIsrPartitionCount() {
        return (int) partitions.all().stream().filter(p -> p.isLeader() && p.isr().size()
            < Math.min(p.log().map(l -> l.config().minInSyncReplicas()).orElse(1), p.replicas().size())).count();
    }

    /**
     * Partitions this broker follows, whose leader is alive, with this broker outside the ISR:
     * what it still has to catch up on.
     */
    public int followerPartitionsOutOfSync() {
        return (int) partitions.all().stream().filter(p -> !p.isLeader() && p.leaderId() >= 0
            && metadataCache.isAlive(p.leaderId()) && !p.isr().contains(brokerId)).count();
    }

    /** Partitions this broker leads (LeaderCount). */
    public int leaderCount() {
        return (int) partitions.all().stream().filter(Partition::isLeader).count();
    }

    /** Partitions this broker replicates (PartitionCount). */
    public int partitionCount() {
        return partitions.all().size();
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
        return partitions.get(tp);
    }

    /** Partitions this broker leads. */
    public List<Partition> leaderPartitions() {
        return partitions.all().stream().filter(Partition::isLeader).toList();
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
        return append(timeoutMs, requiredAcks, entries, false, AppendOrigin.CLIENT, null);
    }

    /**
     * As {@link #appendRecords(long, short, Map)}, for a transactional produce whose partitions were
     * verified with the transaction coordinator (KIP-890 part 1): each partition's append holds its
     * guard ({@link VerificationGuard#SENTINEL} when none is given), and a transactional batch that
     * would open a transaction without the partition's current guard gets INVALID_TXN_STATE.
     */
    public CompletableFuture<Map<TopicPartition, ProduceResult>> appendRecords(long timeoutMs, short requiredAcks,
            Map<TopicPartition, MemoryRecords> entries, Map<TopicPartition, VerificationGuard> guards) {
        return append(timeoutMs, requiredAcks, entries, false, AppendOrigin.CLIENT, guards);
    }

    /**
     * Starts the verification of a producer's transaction on a partition this broker leads
     * (KIP-890 part 1): the guard its append must hold once the coordinator confirms the
     * partition, or {@link VerificationGuard#SENTINEL} when the transaction is already open there.
     *
     * @throws ApiException NOT_LEADER_OR_FOLLOWER, UNKNOWN_TOPIC_OR_PARTITION or KAFKA_STORAGE_ERROR
     */
    public VerificationGuard maybeStartTransactionVerification(TopicPartition tp, long producerId, int sequence,
                                                               short producerEpoch) {
        Partition partition = partitionOrError(tp);
        if (!partition.isLeader()) {
            throw new NotLeaderOrFollowerException("Leader not local for partition " + tp + " on broker " + brokerId());
        }
        return partition.log().orElseThrow(() -> new NotLeaderOrFollowerException("No log for " + tp))
            .producers().maybeStartTransactionVerification(producerId, sequence, producerEpoch);
    }

    /**
     * Appends records the broker's coordinators write to an internal topic ({@code __consumer_offsets},
     * {@code __transaction_state}), with acks=all, as {@code AppendOrigin.COORDINATOR} (a
     * transactional offset commit's batches reuse sequence 0 and are not checked as a client's):
     * the future completes once every in-sync replica has them. A transactional offset commit's
     * batch holds the guard of its transaction's verification (KIP-890 part 1): without the
     * partition's current guard, a batch that would open a transaction gets INVALID_TXN_STATE. The
     * waiting requests the append lets complete complete on the completion thread, not the caller's.
     *
     * @param verificationGuard {@link VerificationGuard#NOT_REQUIRED} for records not checked
     */
    public CompletableFuture<ProduceResult> appendToInternalTopic(TopicPartition tp, MemoryRecords records, long timeoutMs,
                                                                  VerificationGuard verificationGuard) {
        Map<TopicPartition, VerificationGuard> guards = verificationGuard == VerificationGuard.NOT_REQUIRED ? null
            : Map.of(tp, verificationGuard);
        // Under its group's lock: the requests the append lets complete take other groups' locks (issue 21, seed 21).
        return delayed.deferringCompletions(() -> append(timeoutMs, (short) -1, Map.of(tp, records), true,
            AppendOrigin.COORDINATOR, guards)).thenApply(results -> results.get(tp));
    }

    /**
     * Appends a transaction coordinator's markers (WriteTxnMarkers, KIP-98), internal topics
     * included, with acks=all: each partition's result completes once its ISR has the marker.
     * A marker from an older coordinator epoch than the producer's last gets
     * TRANSACTION_COORDINATOR_FENCED.
     */
    public CompletableFuture<Map<TopicPartition, ProduceResult>> appendTransactionMarkers(long timeoutMs,
            Map<TopicPartition, MemoryRecords> markers) {
        return append(timeoutMs, (short) -1, markers, true, AppendOrigin.COORDINATOR, null);
    }

    private CompletableFuture<Map<TopicPartition, ProduceResult>> append(long timeoutMs, short requiredAcks,
                                                                         Map<TopicPartition, MemoryRecords> entries,
                                                                         boolean internal, AppendOrigin origin,
                                                                         Map<TopicPartition, VerificationGuard> guards) {
        // guards: null when nothing is verified; else each partition's, SENTINEL for one not listed
        Map<TopicPartition, ProduceResult> results = new LinkedHashMap<>();
        for (Map.Entry<TopicPartition, MemoryRecords> e : entries.entrySet()) {
            TopicPartition tp = e.getKey();
            VerificationGuard guard = guards == null ? VerificationGuard.NOT_REQUIRED
                : guards.getOrDefault(tp, VerificationGuard.SENTINEL);
            results.put(tp, appendToPartition(tp, e.getValue(), requiredAcks, internal, origin, guard));
        }
        CompletableFuture<Map<TopicPartition, ProduceResult>> future = new CompletableFuture<>();
        if (requiredAcks == -1) {
            DelayedProduce produce = new DelayedProduce(timeoutMs, results, partitions::get, future::complete);
            if (produce.hasPending()) {
                delayed.watch(produce, new ArrayList<>(results.keySet()));
                return future;
            }
        }
        future.complete(results);
        return future;
    }

    /**
     * Appends producers' records as {@link #appendRecords} does, for a caller that must not wait (a
     * network thread): only when every partition is led here and takes its records without waiting
     * for a lock, a roll, a flush or a leader epoch checkpoint ({@link Partition#tryLockForLeaderAppend}).
     * Otherwise null, with nothing changed: the caller appends through {@link #appendRecords} on a
     * request handler thread. The waiting requests the appends complete (fetches, acks=all produces)
     * are completed on the completion thread, and so is the watch of an acks=all produce that waits
     * for followers, since both take other partitions' locks.
     *
     * @return per-partition results, complete once acks are satisfied; or null
     */
    public CompletableFuture<Map<TopicPartition, ProduceResult>> tryAppendRecordsWithoutBlocking(long timeoutMs,
            short requiredAcks, Map<TopicPartition, MemoryRecords> entries) {
        record Prepared(TopicPartition tp, MemoryRecords records, LeaderAppend append, int minIsr) {
        }
        List<Prepared> prepared = new ArrayList<>(entries.size());
        try {
            for (Map.Entry<TopicPartition, MemoryRecords> e : entries.entrySet()) {
                Partition partition = Topic.isInternal(e.getKey().topic()) ? null : partitions.get(e.getKey()).orElse(null);
                LeaderAppend append = partition == null ? null : partition.tryLockForLeaderAppend(e.getValue());
                if (append == null) {
                    return null;
                }
                prepared.add(new Prepared(e.getKey(), e.getValue(), append,
                    partition.log().map(l -> l.config().minInSyncReplicas()).orElse(1)));
            }
            Map<TopicPartition, ProduceResult> results = new LinkedHashMap<>();
            delayed.withCompletionsDeferred(() -> prepared.forEach(p -> results.put(p.tp(), appendToPartition(p.tp(),
                p.records(), false, () -> p.append().append(requiredAcks, p.minIsr())))));
            CompletableFuture<Map<TopicPartition, ProduceResult>> future = new CompletableFuture<>();
            if (requiredAcks == -1) {
                DelayedProduce produce = new DelayedProduce(timeoutMs, results, partitions::get, future::complete);
                if (produce.hasPending()) {
                    // Still under the partitions' locks, which the check takes again (they are reentrant).
                    if (!produce.safeTryComplete()) {
                        List<TopicPartition> keys = new ArrayList<>(results.keySet());
                        delayed.runLater(() -> delayed.watch(produce, keys));
                    }
                    return future;
                }
            }
            future.complete(results);
            return future;
        } finally {
            prepared.forEach(p -> p.append().unlock());
        }
    }

    private ProduceResult appendToPartition(TopicPartition tp, MemoryRecords records, short requiredAcks, boolean internal,
                                            AppendOrigin origin, VerificationGuard guard) {
        return appendToPartition(tp, records, internal, () -> {
            Partition partition = partitionOrError(tp);
            int minIsr = partition.log().map(l -> l.config().minInSyncReplicas()).orElse(1);
            return partition.appendRecordsToLeader(records, requiredAcks, minIsr, origin, guard);
        });
    }

    /** Runs {@code append}, counts it, lets waiting requests complete, and turns its failure into the partition's error. */
    private ProduceResult appendToPartition(TopicPartition tp, MemoryRecords records, boolean internal,
                                            java.util.function.Supplier<LogAppendInfo> append) {
        try {
            if (!internal && Topic.isInternal(tp.topic())) {
                throw new InvalidTopicException("Cannot append to internal topic " + tp.topic());
            }
            LogAppendInfo info;
            try {
                info = append.get();
            } catch (RuntimeException e) {
                topicStats.recordProduceFailed(tp.topic(), ProduceResult.countsAsFailedProduce(e));
                throw e;
            }
            topicStats.recordProduced(tp.topic(), records.sizeInBytes(), info.recordCount());
            if (info.recordCount() > 0) {
                delayed.checkAndComplete(tp);
            }
            return new ProduceResult(Errors.NONE, null, info.firstOffset(), info.logAppendTime(), info.logStartOffset(),
                List.of(), info.lastOffset());
        } catch (RecordValidationException e) {
            return new ProduceResult(e.error(), e.getMessage(), -1, RecordBatch.NO_TIMESTAMP, -1, e.recordErrors(), -1);
        } catch (KafkaStorageException e) {
            log.error("Storage error appending to {}", tp, e);
            storageErrors.handle(tp, e);
            return ProduceResult.error(Errors.KAFKA_STORAGE_ERROR, e.getMessage());
        } catch (ApiException e) {
            return ProduceResult.error(Errors.forException(e), e.getMessage());
        } catch (RuntimeException e) {
            log.error("Unexpected error appending to {}", tp, e);
            return ProduceResult.error(Errors.UNKNOWN_SERVER_ERROR, e.toString());
        }
    }

    private Partition partitionOrError(TopicPartition tp) {
        return partitions.onlineOrError(tp);
    }

    /**
     * Reads for a consumer (up to the high watermark) or a follower (up to the log end), waiting
     * up to {@code maxWaitMs} for {@code minBytes}.
     *
     * @param fetchInfos partitions in request order
     */
    public CompletableFuture<Map<TopicPartition, FetchPartitionResult>> fetchMessages(
            FetchParams params, LinkedHashMap<TopicPartition, FetchPartition> fetchInfos) {
        LogReadResults read = logReader.read(params, fetchInfos);
        read.highWatermarkMoved().forEach(delayed::checkAndComplete);
        CompletableFuture<Map<TopicPartition, FetchPartitionResult>> future = new CompletableFuture<>();
        if (params.maxWaitMs() <= 0 || fetchInfos.isEmpty() || read.bytesReadable() >= params.minBytes()
                || read.answerNow()) {
            future.complete(read.results());
            return future;
        }
        DelayedFetch fetch = new DelayedFetch(params, fetchInfos, read.fetchOffsets(), partitions::get, logReader::read,
            logReader::heldByThrottle, delayed, future::complete);
        delayed.watch(fetch, new ArrayList<>(fetchInfos.keySet()));
        return future;
    }

    /**
     * Fetches waiting for records of {@code tp} (for tests and metrics). A fetch leaves once its
     * response is built.
     */
    public int waitingFetches(TopicPartition tp) {
        return delayed.waitingFetches(tp);
    }

    /**
     * Reads a partition this broker leads for a coordinator loading it, up to the log end offset
     * (as Kafka's coordinator loaders read with {@code FetchIsolation.LOG_END}): a leader elected
     * moments ago has a high watermark behind records the old leader already committed (it learns
     * the new one from its followers' next fetches), and a load that stopped at it would miss them.
     * What it reads is the log every replica will hold: followers truncate to the leader's.
     *
     * @throws NotLeaderOrFollowerException when this broker has no log for {@code tp}
     */
    public LocalRead readToLogEnd(TopicPartition tp, long startOffset, int maxBytes) {
        Partition partition = partitionOrError(tp);
        PartitionLog l = partition.log().orElseThrow(() -> new NotLeaderOrFollowerException("No log for " + tp));
        FetchDataInfo info = partition.read(Math.max(startOffset, l.logStartOffset()), RecordBatch.NO_PARTITION_LEADER_EPOCH,
            maxBytes, FetchIsolation.LOG_END, true);
        return new LocalRead(info.records(), l.logEndOffset(), l.logStartOffset());
    }

    /** ListOffsets for one partition: earliest, latest, max timestamp or by timestamp. */
    public ListOffsetResult listOffset(TopicPartition tp, long timestamp, IsolationLevel isolationLevel,
                                       int currentLeaderEpoch) {
        try {
            Partition partition = partitionOrError(tp);
            PartitionLog l = partition.log().orElseThrow(() -> new NotLeaderOrFollowerException("No log for " + tp));
            long lastFetchable = isolationLevel == IsolationLevel.READ_COMMITTED ? l.lastStableOffset() : l.highWatermark();
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

    /**
     * The producers with state on this broker's replica of {@code tp}, leader or follower, as
     * Kafka answers DescribeProducers (KIP-664).
     *
     * @throws ApiException UNKNOWN_TOPIC_OR_PARTITION, NOT_LEADER_OR_FOLLOWER (no local replica)
     *                      or KAFKA_STORAGE_ERROR (its log directory is offline)
     */
    public List<ActiveProducer> activeProducers(TopicPartition tp) {
        return partitionOrError(tp).log().orElseThrow(() -> new NotLeaderOrFollowerException("No log for " + tp))
            .producers().active();
    }

    /** The log directories and the size of each partition in them. */
    public List<LogDirInfo> describeLogDirs() {
        return logManager.describeLogDirs().stream()
            .map(d -> new LogDirInfo(d.path(), d.partitions(), d.totalBytes(), d.usableBytes(), d.offline())).toList();
    }

    /** Completes every waiting request and forgets the partitions (before the logs close). */
    public void shutdown() {
        fetcherManager.close();
        delayed.shutdown();
        partitions.clear();
    }
}
