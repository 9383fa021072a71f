package io.tributary.broker.replica;

import io.tributary.broker.config.LogConfig;
import io.tributary.broker.log.PartitionLog;
import io.tributary.broker.quota.ReplicationQuotaManager;
import io.tributary.broker.quota.ThrottledReplicas;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntFunction;
import org.apache.kafka.clients.ClientResponse;
import org.apache.kafka.clients.FetchSessionHandler;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.KafkaStorageException;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.requests.FetchResponse;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.common.utils.internals.LogContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One follower fetcher: copies the partitions this broker follows on one source broker by
 * sending it Kafka Fetch requests as a replica (replica id set, {@code LastFetchedEpoch} per
 * partition), appending what comes back, taking the leader's high watermark, and truncating
 * where the leader reports a divergence (KIP-595). Kafka's ReplicaFetcherThread.
 *
 * <p>Each partition backs off for {@code replica.fetch.backoff.ms} after an error; a failed
 * connection backs off every partition. Thread-safety: partitions are added and removed from
 * other threads under {@code partitionMapLock}; a response is applied under the same lock, so
 * once {@link #removePartitions} returns nothing more is appended to those partitions.
 */
final class ReplicaFetcherThread extends Thread {

    private static final Logger log = LoggerFactory.getLogger(ReplicaFetcherThread.class);

    /**
     * Fetch settings.
     *
     * @param maxWaitMs        {@code replica.fetch.wait.max.ms}
     * @param minBytes         {@code replica.fetch.min.bytes}
     * @param maxBytes         {@code replica.fetch.max.bytes}, per partition
     * @param responseMaxBytes {@code replica.fetch.response.max.bytes}
     * @param backoffMs        {@code replica.fetch.backoff.ms}
     * @param socketTimeoutMs  {@code replica.socket.timeout.ms}
     * @param listenerName     the inter-broker listener
     * @param clientConfigs    Kafka client configs of the connection to the leader: {@code security.protocol}
     *                         and, for a secured listener, the TLS settings and SASL mechanism and login
     */
    record Config(int maxWaitMs, int minBytes, int maxBytes, int responseMaxBytes, int backoffMs, int socketTimeoutMs,
                  String listenerName, Map<String, Object> clientConfigs) {
    }

    private final int brokerId;
    private final int sourceBrokerId;
    private final Config config;
    private final FollowerPartitions partitions;
    private final IntFunction<Optional<Node>> brokerNodes;
    private final Time time;
    private final BrokerBlockingSender sender;
    /** The follower side of the replication throttle (KIP-73). */
    private final ReplicationQuotaManager followerQuota;
    /** This fetcher's incremental fetch session with the source broker (KIP-227); fetcher thread only. */
    private final FetchSessionHandler sessionHandler;
    private final ReentrantLock partitionMapLock = new ReentrantLock();
    private final Condition partitionsChanged = partitionMapLock.newCondition();
    private final Map<TopicPartition, PartitionFetchState> partitionStates = new LinkedHashMap<>();
    private volatile boolean running = true;
    private volatile boolean sslReloadRequested;

    ReplicaFetcherThread(String name, int brokerId, int sourceBrokerId, Config config, FollowerPartitions partitions,
                         IntFunction<Optional<Node>> brokerNodes, ReplicationQuotaManager followerQuota, Time time) {
        super(name);
        this.followerQuota = followerQuota;
        setDaemon(true);
        this.brokerId = brokerId;
        this.sourceBrokerId = sourceBrokerId;
        this.config = config;
        this.partitions = partitions;
        this.brokerNodes = brokerNodes;
        this.time = time;
        this.sender = new BrokerBlockingSender(name, config.listenerName(), config.clientConfigs(),
            config.socketTimeoutMs(), config.backoffMs(), time);
        this.sessionHandler = new FetchSessionHandler(new LogContext("[" + name + "] "), sourceBrokerId);
    }

    int sourceBrokerId() {
        return sourceBrokerId;
    }

    /** Starts fetching partitions (replacing the state of any already fetched). */
    void addPartitions(Map<TopicPartition, PartitionFetchState> initialStates) {
        partitionMapLock.lock();
        try {
            partitionStates.putAll(initialStates);
            partitionsChanged.signalAll();
        } finally {
            partitionMapLock.unlock();
        }
    }

    /** Stops fetching partitions; waits for a response being applied to them. */
    void removePartitions(Set<TopicPartition> tps) {
        partitionMapLock.lock();
        try {
            partitionStates.keySet().removeAll(tps);
        } finally {
            partitionMapLock.unlock();
        }
    }

    /**
     * Stops fetching every partition and returns their fetch states (offset, leader epoch) as they
     * are once nothing more is appended to them by this fetcher.
     */
    Map<TopicPartition, PartitionFetchState> removeAllPartitions() {
        partitionMapLock.lock();
        try {
            Map<TopicPartition, PartitionFetchState> removed = new java.util.HashMap<>(partitionStates);
            partitionStates.clear();
            return removed;
        } finally {
            partitionMapLock.unlock();
        }
    }

    int partitionCount() {
        partitionMapLock.lock();
        try {
            return partitionStates.size();
        } finally {
            partitionMapLock.unlock();
        }
    }

    /** The fetch state of a partition, for tests. */
    Optional<PartitionFetchState> fetchState(TopicPartition tp) {
        partitionMapLock.lock();
        try {
            return Optional.ofNullable(partitionStates.get(tp));
        } finally {
            partitionMapLock.unlock();
        }
    }

    @Override
    public void run() {
        log.info("Replica fetcher {} of broker {} started on source broker {}", getName(), brokerId, sourceBrokerId);
        while (running) {
            try {
                if (sslReloadRequested) {
                    sslReloadRequested = false;
                    reloadSslStores();
                }
                doWork();
            } catch (InterruptedException e) {
                break;
            } catch (RuntimeException e) {
                if (running) {
                    log.error("Replica fetcher {} failed; backing off {} ms", getName(), config.backoffMs(), e);
                    pause(config.backoffMs());
                }
            }
        }
        sender.close();
        log.info("Replica fetcher {} stopped", getName());
    }

    /**
     * Asks the thread to re-read its TLS key and trust stores before its next fetch, for the
     * connections it opens from then on (certificate rotation). Returns at once; any thread.
     */
    void requestSslReload() {
        sslReloadRequested = true;
    }

    private void reloadSslStores() {
        try {
            sender.reloadSslStores();
        } catch (RuntimeException e) {
            // SslFactory's refusal names the file and the reason, never a password.
            log.warn("Replica fetcher {} keeps its previous TLS stores: {}", getName(), e.getMessage());
        }
    }

    /**
     * Stops the thread and waits for it. Never interrupts it: an interrupt during a log write
     * closes the file channel ({@code ClosedByInterruptException}), which would read as a disk
     * failure; waking its network client and its wait is enough.
     */
    void shutdown() {
        running = false;
        sender.wakeup();
        partitionMapLock.lock();
        try {
            partitionsChanged.signalAll();
        } finally {
            partitionMapLock.unlock();
        }
        try {
            join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void pause(long ms) {
        partitionMapLock.lock();
        try {
            partitionsChanged.await(ms, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            running = false;
        } finally {
            partitionMapLock.unlock();
        }
    }

    private void doWork() throws InterruptedException {
        Map<TopicPartition, PartitionFetchState> requested = new LinkedHashMap<>();
        FetchSessionHandler.Builder fetchData;
        long now = time.milliseconds();
        long nextReadyMs = Long.MAX_VALUE;
        partitionMapLock.lock();
        try {
            fetchData = sessionHandler.newBuilder(partitionStates.size(), false);
            for (Map.Entry<TopicPartition, PartitionFetchState> e : partitionStates.entrySet()) {
                PartitionFetchState state = e.getValue();
                if (!state.isReady(now)) {
                    nextReadyMs = Math.min(nextReadyMs, state.delayUntilMs());
                    continue;
                }
                Optional<Partition> partition = partitions.partition(e.getKey());
                Optional<PartitionLog> partitionLog = partition.flatMap(Partition::log);
                if (partitionLog.isEmpty()) {
                    continue;
                }
                // In sync as Kafka's fetch state judges it: the last answer left it at the leader's high
                // watermark (the ISR in ZooKeeper reaches a follower late; its own high watermark is never
                // above its log end offset, so it cannot tell).
                if (!state.isReplicaInSync() && followerThrottled(e.getKey(), partitionLog.get())
                        && followerQuota.isQuotaExceeded()) {
                    continue; // KIP-73: left out until the throttled rate falls below follower.replication.throttled.rate
                }
                int lastFetchedEpoch = partitionLog.get().leaderEpochCache().latestEpoch()
                    .orElse(RecordBatch.NO_PARTITION_LEADER_EPOCH);
                requested.put(e.getKey(), state);
                fetchData.add(e.getKey(), new FetchRequest.PartitionData(state.topicId(), state.fetchOffset(),
                    partitionLog.get().logStartOffset(), config.maxBytes(), Optional.of(state.leaderEpoch()),
                    lastFetchedEpoch == RecordBatch.NO_PARTITION_LEADER_EPOCH ? Optional.empty()
                        : Optional.of(lastFetchedEpoch)));
            }
            if (requested.isEmpty() && sessionHandler.sessionTopicPartitions().isEmpty()) {
                long wait = nextReadyMs == Long.MAX_VALUE ? config.backoffMs() : Math.max(1, nextReadyMs - now);
                partitionsChanged.await(wait, TimeUnit.MILLISECONDS);
                return;
            }
        } finally {
            partitionMapLock.unlock();
        }
        Optional<Node> leader = brokerNodes.apply(sourceBrokerId);
        if (leader.isEmpty()) {
            delayAll(requested, "source broker " + sourceBrokerId + " is not registered");
            if (requested.isEmpty()) {
                pause(config.backoffMs()); // only forgetting partitions: nothing was delayed to wait on
            }
            return;
        }
        // Incremental (KIP-227): the request names only the partitions whose fetch offset or epochs
        // changed, and forgets those no longer fetched (removed, or backing off).
        FetchSessionHandler.FetchRequestData session = fetchData.build();
        if (session.sessionPartitions().isEmpty() && session.toForget().isEmpty()) {
            // Every partition is backing off and the session holds none: nothing to ask (as Kafka's
            // RemoteLeaderEndPoint.buildFetch), wait for the first to be ready again.
            long wait = nextReadyMs == Long.MAX_VALUE ? config.backoffMs() : Math.max(1, nextReadyMs - now);
            pause(wait);
            return;
        }
        FetchRequest.Builder request = FetchRequest.Builder.forReplica(
                session.canUseTopicIds() ? ApiKeys.FETCH.latestVersion() : (short) 12, brokerId, -1,
                config.maxWaitMs(), config.minBytes(), session.toSend())
            .setMaxBytes(config.responseMaxBytes())
            .removed(session.toForget())
            .replaced(session.toReplace())
            .metadata(session.metadata());
        ClientResponse response;
        try {
            response = sender.sendRequest(leader.get(), request);
        } catch (IOException e) {
            sessionHandler.handleError(e);
            if (running) {
                delayAll(requested, "fetch from broker " + sourceBrokerId + " failed: " + e.getMessage());
            }
            return;
        }
        if (!running) {
            return;
        }
        FetchResponse fetchResponse = (FetchResponse) response.responseBody();
        short version = response.requestHeader().apiVersion();
        if (!sessionHandler.handleResponse(fetchResponse, version)) {
            // A lost session (the leader restarted or evicted it) is no failure: the next fetch is full.
            if (fetchResponse.error() != Errors.FETCH_SESSION_ID_NOT_FOUND
                    && fetchResponse.error() != Errors.INVALID_FETCH_SESSION_EPOCH) {
                delayAll(requested, "fetch from broker " + sourceBrokerId + " failed: " + fetchResponse.error());
            }
            return;
        }
        Map<TopicPartition, FetchResponseData.PartitionData> data =
            fetchResponse.responseData(sessionHandler.sessionTopicNames(), version);
        List<TopicPartition> appended = new ArrayList<>();
        Map<TopicPartition, KafkaStorageException> storageErrors = new LinkedHashMap<>();
        partitionMapLock.lock();
        try {
            boolean dropped = false;
            for (Map.Entry<TopicPartition, FetchResponseData.PartitionData> e : data.entrySet()) {
                TopicPartition tp = e.getKey();
                PartitionFetchState sent = requested.get(tp);
                PartitionFetchState current = partitionStates.get(tp);
                if (sent == null || current == null || current.leaderEpoch() != sent.leaderEpoch()
                        || current.fetchOffset() != sent.fetchOffset()) {
                    // Removed or restarted while the request was out. A restarted partition's dropped
                    // answer (its high watermark) is one the leader's session counts as sent.
                    dropped |= current != null;
                    continue;
                }
                processPartitionData(tp, current, e.getValue(), appended, storageErrors);
            }
            if (dropped) {
                // The next fetch is full, so every partition's state is sent again.
                sessionHandler.handleError(new RestartedPartitions());
            }
        } finally {
            partitionMapLock.unlock();
        }
        // Outside the lock: these reach the fetcher manager and other delayed operations, which
        // take their own locks before this one.
        storageErrors.forEach(partitions::storageError);
        // Consumers reading from this follower (KIP-392) may wait for its high watermark to move.
        appended.forEach(partitions::appended);
    }

    /**
     * Applies one partition's response. Caller holds {@code partitionMapLock}.
     *
     * @param appended      collects the partitions appended to
     * @param storageErrors collects the partitions whose log failed, handled after the lock is released
     */
    private void processPartitionData(TopicPartition tp, PartitionFetchState state, FetchResponseData.PartitionData data,
                                      List<TopicPartition> appended,
                                      Map<TopicPartition, KafkaStorageException> storageErrors) {
        Optional<Partition> partition = partitions.partition(tp);
        if (partition.isEmpty()) {
            partitionStates.remove(tp);
            return;
        }
        Errors error = Errors.forCode(data.errorCode());
        try {
            switch (error) {
                case NONE -> {
                    FetchResponseData.EpochEndOffset diverging = data.divergingEpoch();
                    Optional<Long> newEnd;
                    if (diverging.epoch() >= 0 || diverging.endOffset() >= 0) {
                        newEnd = partition.get().truncateToDivergence(state.leaderEpoch(), diverging.epoch(),
                            diverging.endOffset());
                    } else {
                        MemoryRecords records = (MemoryRecords) FetchResponse.recordsOrFail(data);
                        partitions.replicationBytesIn(records.sizeInBytes());
                        if (partition.get().log().map(l -> followerThrottled(tp, l)).orElse(false)) {
                            followerQuota.record(records.sizeInBytes());
                        }
                        newEnd = partition.get().appendRecordsToFollower(records, state.leaderEpoch(), data.highWatermark(),
                            data.logStartOffset()).map(info -> partition.get().log().orElseThrow().logEndOffset());
                    }
                    if (newEnd.isPresent()) {
                        partitionStates.put(tp, state.fetched(newEnd.get(), data.highWatermark()));
                        appended.add(tp);
                    } else {
                        partitionStates.remove(tp);
                    }
                }
                case OFFSET_OUT_OF_RANGE -> {
                    Optional<Long> newEnd = partition.get().handleOffsetOutOfRange(state.leaderEpoch(), state.fetchOffset(),
                        data.logStartOffset(), data.highWatermark());
                    if (newEnd.isPresent()) {
                        partitionStates.put(tp, state.withFetchOffset(newEnd.get()).delayedUntil(time.milliseconds()
                            + (newEnd.get() == state.fetchOffset() ? config.backoffMs() : 0)));
                    } else {
                        partitionStates.remove(tp);
                    }
                }
                default -> {
                    log.info("{}: fetch from broker {} answered {}; backing off {} ms", tp, sourceBrokerId, error,
                        config.backoffMs());
                    partitionStates.put(tp, state.delayedUntil(time.milliseconds() + config.backoffMs()));
                }
            }
        } catch (KafkaStorageException e) {
            log.error("{}: storage error applying the fetch from broker {}", tp, sourceBrokerId, e);
            partitionStates.remove(tp);
            storageErrors.put(tp, e);
        } catch (RuntimeException e) {
            log.error("{}: could not apply the fetch from broker {}; backing off {} ms", tp, sourceBrokerId,
                config.backoffMs(), e);
            partitionStates.put(tp, state.delayedUntil(time.milliseconds() + config.backoffMs()));
        }
    }

    /** Whether the topic throttles this broker's replica of {@code tp} ({@code follower.replication.throttled.replicas}). */
    private boolean followerThrottled(TopicPartition tp, PartitionLog log) {
        return ThrottledReplicas.throttles(log.config().overrides().get(LogConfig.FOLLOWER_THROTTLED_REPLICAS),
            tp.partition(), brokerId);
    }

    /** Why a fetch session starts over: a partition restarted while a request was out. No stack trace. */
    private static final class RestartedPartitions extends RuntimeException {
        RestartedPartitions() {
            super("a partition restarted while the request was out; the next fetch is full", null, false, false);
        }
    }

    private void delayAll(Map<TopicPartition, PartitionFetchState> requested, String why) {
        log.info("Replica fetcher {}: {}; backing off {} ms", getName(), why, config.backoffMs());
        long until = time.milliseconds() + config.backoffMs();
        partitionMapLock.lock();
        try {
            requested.forEach((tp, sent) -> partitionStates.computeIfPresent(tp,
                (k, current) -> current.equals(sent) ? current.delayedUntil(until) : current));
        } finally {
            partitionMapLock.unlock();
        }
    }
}
