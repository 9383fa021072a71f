package io.tributary.broker.replica;

import io.tributary.broker.cluster.BrokerEpoch;
import io.tributary.broker.cluster.LeaderAndIsr;
import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.cluster.MetadataListener;
import io.tributary.broker.cluster.TopicAssignment;
import io.tributary.broker.config.LogConfig;
import io.tributary.broker.log.LogManager;
import io.tributary.broker.log.PartitionLog;
import io.tributary.broker.metrics.BrokerTopicStats;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The role changes of this broker's replicas (Kafka's {@code becomeLeaderOrFollower}): it follows
 * the cluster's partition states from the {@link MetadataCache}. A partition whose leader is this
 * broker becomes leader here, one it only replicates becomes a follower and fetches from its leader,
 * one no longer assigned here (or whose topic was recreated under another id) loses its replica and
 * log. Leadership changes are told to the {@link PartitionLeadershipListener}s.
 *
 * <p>A state that names this broker leader but was written before its current registration (the
 * {@link BrokerEpoch}), or read before it registered, is not led: it was decided for an earlier run
 * of this broker, whose high watermark and follower states are gone. The replica waits without a
 * leader until the controller, which sees the same thing, elects a leader again in a new leader
 * epoch; so one run of a broker leads an epoch, as in Kafka, where a restarted broker leads only
 * after the controller's LeaderAndIsr for its new broker epoch.
 *
 * <p>Thread-safe: called on the metadata event thread, and {@link #onRegistered} on the starting
 * thread; the role changes are serialized on this object. A state that cannot be applied (an I/O
 * error creating the log) is logged and leaves the partition offline here.
 */
public final class ReplicaStateChanges implements MetadataListener {

    private static final Logger log = LoggerFactory.getLogger(ReplicaStateChanges.class);

    private final int brokerId;
    private final HostedPartitions partitions;
    private final LogManager logManager;
    private final MetadataCache metadataCache;
    private final BrokerEpoch brokerEpoch;
    private final Function<String, LogConfig> logConfigs;
    private final ReplicaFetcherManager fetcherManager;
    private final DelayedRequests delayed;
    private final LeadershipListeners leadershipListeners;
    private final PartitionContext partitionContext;
    private final BrokerTopicStats topicStats;

    ReplicaStateChanges(HostedPartitions partitions, LogManager logManager, MetadataCache metadataCache,
                        BrokerEpoch brokerEpoch, Function<String, LogConfig> logConfigs, ReplicaFetcherManager fetcherManager,
                        DelayedRequests delayed, LeadershipListeners leadershipListeners,
                        PartitionContext partitionContext, BrokerTopicStats topicStats) {
        this.brokerId = partitions.brokerId();
        this.partitions = partitions;
        this.logManager = logManager;
        this.metadataCache = metadataCache;
        this.brokerEpoch = brokerEpoch;
        this.logConfigs = logConfigs;
        this.fetcherManager = fetcherManager;
        this.delayed = delayed;
        this.leadershipListeners = leadershipListeners;
        this.partitionContext = partitionContext;
        this.topicStats = topicStats;
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
    public synchronized void onPartitionStateChanged(TopicPartition tp, LeaderAndIsr state) {
        if (partitions.isOffline(tp)) {
            return; // its log directory failed: the replica stays offline here until a restart
        }
        Optional<TopicAssignment> topic = metadataCache.topic(tp.topic());
        if (topic.isEmpty()) {
            return;
        }
        List<Integer> replicas = topic.get().replicas().get(tp.partition());
        if (replicas == null || !replicas.contains(brokerId)) {
            if (partitions.contains(tp)) {
                stopReplica(tp, true);
            }
            return;
        }
        try {
            Uuid topicId = topic.get().topicId();
            PartitionLog partitionLog = logManager.getLog(tp).orElse(null);
            Partition current = partitions.get(tp).orElse(null);
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
            Partition partition = partitions.getOrCreate(tp, k -> new Partition(k, partitionContext));
            boolean leadsThisEpoch = partition.isLeader() && partition.leaderEpoch() == state.leaderEpoch();
            if (state.leader() == brokerId && !leadsThisEpoch && brokerEpoch.precedes(state)) {
                log.info("Broker {} does not lead {} in leader epoch {}: that state was written before its "
                    + "registration (broker epoch {}); it waits for the controller to elect a leader again",
                    brokerId, tp, state.leaderEpoch(), brokerEpoch.get());
                becomeFollower(tp, state.withoutLeader(), replicas, topicId, partitionLog, partition);
            } else if (state.leader() == brokerId) {
                becomeLeader(tp, state, replicas, topicId, partitionLog, partition);
            } else {
                becomeFollower(tp, state, replicas, topicId, partitionLog, partition);
            }
            delayed.checkAndComplete(tp);
        } catch (RuntimeException e) {
            log.error("Could not apply the state of {} ({}); the partition stays offline on this broker", tp, state, e);
        }
    }

    private void becomeLeader(TopicPartition tp, LeaderAndIsr state, List<Integer> replicas, Uuid topicId,
                              PartitionLog partitionLog, Partition partition) {
        fetcherManager.removePartitions(Set.of(tp));
        if (partition.makeLeader(state, replicas, topicId, partitionLog)) {
            log.info("Broker {} is the leader of {} in leader epoch {} (log end offset {}, high watermark {})",
                brokerId, tp, state.leaderEpoch(), partitionLog.logEndOffset(), partitionLog.highWatermark());
            leadershipListeners.becameLeader(tp, state.leaderEpoch());
        }
    }

    private void becomeFollower(TopicPartition tp, LeaderAndIsr state, List<Integer> replicas, Uuid topicId,
                                PartitionLog partitionLog, Partition partition) {
        boolean wasLeader = partition.isLeader();
        if (partition.makeFollower(state, replicas, topicId, partitionLog)) {
            log.info("Broker {} follows leader {} for {} in leader epoch {} from offset {}", brokerId, state.leader(),
                tp, state.leaderEpoch(), partitionLog.logEndOffset());
            fetcherManager.removePartitions(Set.of(tp));
            if (state.hasLeader()) {
                fetcherManager.addPartition(tp, state.leader(), PartitionFetchState.initial(topicId,
                    partitionLog.logEndOffset(), state.leaderEpoch()));
            }
            if (wasLeader) {
                leadershipListeners.resigned(tp);
            }
        }
    }

    /**
     * A topic appeared or its assignment changed: apply the partition states already known,
     * in case a state arrived before the assignment that says whether it concerns this broker.
     */
    @Override
    public synchronized void onTopicChanged(TopicAssignment assignment) {
        for (int partition : assignment.replicas().keySet()) {
            TopicPartition tp = new TopicPartition(assignment.topic(), partition);
            metadataCache.partitionState(tp).ifPresent(state -> {
                Partition current = partitions.get(tp).orElse(null);
                boolean applied = current != null && current.leaderEpoch() >= state.leaderEpoch()
                    && assignment.replicas().get(partition).equals(current.replicas())
                    && assignment.topicId().equals(current.topicId());
                if (!applied) {
                    onPartitionStateChanged(tp, state);
                }
            });
        }
    }

    /**
     * Call once this broker has registered: the states naming it leader that arrived while it was
     * not registered yet and were written after its registration are led now (those written
     * before wait for the controller's new election).
     */
    public synchronized void onRegistered() {
        for (Partition partition : partitions.all()) {
            TopicPartition tp = partition.topicPartition();
            metadataCache.partitionState(tp).ifPresent(state -> {
                if (state.leader() == brokerId && !partition.isLeader() && !brokerEpoch.precedes(state)) {
                    onPartitionStateChanged(tp, state);
                }
            });
        }
    }

    @Override
    public synchronized void onPartitionRemoved(TopicPartition tp) {
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
        for (Partition partition : partitions.all()) {
            if (partition.topicPartition().topic().equals(topic)) {
                partition.log().ifPresent(l -> l.updateConfig(config));
            }
        }
    }

    /**
     * The broker's topic config defaults changed (a dynamic broker config): every local log takes its
     * topic's config again, so topics without an override of their own follow the new default.
     */
    public void reapplyLogConfigs() {
        Set<String> topics = new java.util.HashSet<>();
        for (Partition partition : partitions.all()) {
            topics.add(partition.topicPartition().topic());
        }
        topics.forEach(topic -> onTopicConfigChanged(topic, null));
    }

    private void stopReplica(TopicPartition tp, boolean deleteLog) {
        fetcherManager.removePartitions(Set.of(tp));
        Partition removed = partitions.remove(tp);
        if (removed != null && removed.isLeader()) {
            leadershipListeners.resigned(tp);
        }
        if (deleteLog) {
            logManager.asyncDelete(tp);
        }
        if (removed != null) {
            delayed.checkAndComplete(tp);
            log.info("Stopped replica {}{}", tp, deleteLog ? " and scheduled its log for deletion" : "");
        }
    }
}
