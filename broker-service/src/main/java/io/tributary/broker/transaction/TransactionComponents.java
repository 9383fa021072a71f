package io.tributary.broker.transaction;

import io.tributary.broker.cluster.BrokerFeatures;
import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.coordinator.CoordinatorLog;
import io.tributary.broker.group.GroupCoordinator;
import io.tributary.broker.producer.ProducerIdManager;
import io.tributary.broker.replica.BrokerBlockingSender;
import io.tributary.broker.replica.PartitionLeadershipListener;
import io.tributary.broker.replica.ProduceResult;
import io.tributary.broker.replica.ReplicaManager;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.server.common.TransactionVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transaction coordinator of one broker with what it runs on: its state in
 * {@code __transaction_state} (loaded and unloaded as this broker's leaderships of its partitions
 * change), the marker channel to the partition leaders, the periodic abort of transactions
 * past their timeout and the removal of ids unused past {@code transactional.id.expiration.ms}. Built once by the broker's composition root, started once the broker
 * serves requests, closed at shutdown.
 *
 * <p>Thread-safety: thread-safe; leadership changes arrive on the metadata event thread and are
 * handed to the state's loader thread.
 */
public final class TransactionComponents implements PartitionLeadershipListener, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(TransactionComponents.class);
    private static final long MARKER_RETRY_BACKOFF_MS = 100;
    private static final long RECONNECT_BACKOFF_MS = 100;

    /**
     * What the coordinator is configured with.
     *
     * @param localBrokerId            this broker
     * @param numPartitions            {@code transaction.state.log.num.partitions}
     * @param maxTimeoutMs             {@code transaction.max.timeout.ms}
     * @param requestTimeoutMs         how long a write to {@code __transaction_state} or a marker waits for its ISR, ms
     * @param abortCheckIntervalMs     {@code transaction.abort.timed.out.transaction.cleanup.interval.ms}
     * @param idExpirationMs           {@code transactional.id.expiration.ms}
     * @param expirationCheckIntervalMs {@code transaction.remove.expired.transaction.cleanup.interval.ms}
     * @param interBrokerListener      the listener markers go to other brokers over
     * @param interBrokerClientConfigs its client security configs
     */
    public record Settings(int localBrokerId, int numPartitions, int maxTimeoutMs, long requestTimeoutMs,
                           long abortCheckIntervalMs, int idExpirationMs, long expirationCheckIntervalMs,
                           String interBrokerListener,
                           Map<String, Object> interBrokerClientConfigs) {
    }

    private final Settings settings;
    private final TransactionStateManager state;
    private final TransactionCoordinator coordinator;
    private final BrokerMarkerSender remote;
    private final AddPartitionsToTxnManager verifier;
    private final ScheduledExecutorService scheduler;

    /**
     * @param groupCoordinator told of markers written here to offsets partitions, which complete
     *                         transactional offset commits
     */
    public TransactionComponents(Settings settings, ReplicaManager replicaManager, MetadataCache metadataCache,
                                 GroupCoordinator groupCoordinator, ProducerIdManager producerIds,
                                 TransactionMetrics metrics, Time time) {
        this.settings = settings;
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "transaction-coordinator-" + settings.localBrokerId());
            t.setDaemon(true);
            return t;
        });
        this.state = new TransactionStateManager(CoordinatorLog.of(replicaManager), settings.numPartitions(),
            settings.requestTimeoutMs(), metrics, () -> metadataCache.finalizedFeatures()
                .level(BrokerFeatures.TRANSACTION_VERSION) >= 1 ? TransactionVersion.TV_1 : TransactionVersion.TV_0,
            time);
        String listener = settings.interBrokerListener();
        this.remote = new BrokerMarkerSender(
            id -> metadataCache.broker(id).flatMap(b -> b.endPoint(listener)).map(e -> new Node(id, e.host(), e.port())),
            id -> new BrokerBlockingSender("transaction-markers-" + settings.localBrokerId() + "-to-" + id, listener,
                settings.interBrokerClientConfigs(), (int) settings.requestTimeoutMs(), RECONNECT_BACKOFF_MS, time));
        TransactionMarkerChannel markers = new TransactionMarkerChannel(settings.localBrokerId(),
            tp -> metadataCache.partitionState(tp).map(s -> OptionalInt.of(s.hasLeader() ? s.leader() : -1))
                .orElse(OptionalInt.empty()),
            (timeoutMs, records) -> replicaManager.appendTransactionMarkers(timeoutMs, records).thenApply(results -> {
                completeOffsetCommits(groupCoordinator, records, results);
                return results;
            }),
            remote, scheduler, settings.requestTimeoutMs(),
            MARKER_RETRY_BACKOFF_MS, time);
        this.coordinator = new TransactionCoordinator(state, markers, producerIds, settings.maxTimeoutMs(), time);
        this.verifier = new AddPartitionsToTxnManager(settings.localBrokerId(), coordinator,
            id -> metadataCache.partitionState(new TopicPartition(Topic.TRANSACTION_STATE_TOPIC_NAME, state.partitionFor(id)))
                .filter(s -> s.hasLeader()).map(s -> OptionalInt.of(s.leader())).orElse(OptionalInt.empty()),
            id -> metadataCache.broker(id).flatMap(b -> b.endPoint(listener)).map(e -> new Node(id, e.host(), e.port())),
            id -> new BrokerBlockingSender("add-partitions-to-txn-" + settings.localBrokerId() + "-to-" + id, listener,
                settings.interBrokerClientConfigs(), (int) settings.requestTimeoutMs(), RECONNECT_BACKOFF_MS, time),
            metrics, time);
        metrics.pendingMarkers(markers::pendingMarkers);
    }

    /** Markers written here to offsets partitions complete the producer's transactional offset commits there. */
    private static void completeOffsetCommits(GroupCoordinator groupCoordinator, Map<TopicPartition, MemoryRecords> markers,
                                              Map<TopicPartition, ProduceResult> results) {
        markers.forEach((tp, records) -> {
            ProduceResult result = results.get(tp);
            if (result != null && result.error() == Errors.NONE) {
                RecordBatch batch = records.batches().iterator().next();
                boolean commit = ControlRecordType.parse(batch.iterator().next().key()) == ControlRecordType.COMMIT;
                groupCoordinator.onTransactionCompleted(batch.producerId(), List.of(tp), commit);
            }
        });
    }

    public TransactionCoordinator coordinator() {
        return coordinator;
    }

    /** A partition leader's verification of transactional produces with their coordinators (KIP-890 part 1). */
    public AddPartitionsToTxnManager verifier() {
        return verifier;
    }

    /** The {@code __transaction_state} partition of a transactional id. */
    public int partitionFor(String transactionalId) {
        return state.partitionFor(transactionalId);
    }

    /** Starts the periodic abort of transactions past their timeout and removal of expired ids. */
    public void start() {
        scheduler.scheduleWithFixedDelay(() -> {
            try {
                coordinator.abortTimedOutTransactions();
            } catch (RuntimeException e) {
                log.error("Could not abort timed-out transactions", e);
            }
        }, settings.abortCheckIntervalMs(), settings.abortCheckIntervalMs(), TimeUnit.MILLISECONDS);
        scheduler.scheduleWithFixedDelay(() -> {
            try {
                coordinator.expireTransactionalIds(settings.idExpirationMs());
            } catch (RuntimeException e) {
                log.error("Could not remove expired transactional ids", e);
            }
        }, settings.expirationCheckIntervalMs(), settings.expirationCheckIntervalMs(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void onBecomeLeader(TopicPartition tp, int leaderEpoch) {
        if (Topic.TRANSACTION_STATE_TOPIC_NAME.equals(tp.topic())) {
            coordinator.onElection(tp.partition(), leaderEpoch);
        }
    }

    @Override
    public void onResign(TopicPartition tp) {
        if (Topic.TRANSACTION_STATE_TOPIC_NAME.equals(tp.topic())) {
            coordinator.onResignation(tp.partition());
        }
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
        remote.close();
        verifier.close();
        state.shutdown();
    }
}
