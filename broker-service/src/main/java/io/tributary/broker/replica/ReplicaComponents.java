package io.tributary.broker.replica;

import io.tributary.broker.cluster.BrokerEpoch;
import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.config.LogConfig;
import io.tributary.broker.log.LogManager;
import io.tributary.broker.metrics.BrokerTopicStats;
import io.tributary.broker.quota.ReplicationQuotas;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.replica.ReplicaSelector;
import org.apache.kafka.common.utils.Time;

/**
 * The replica layer of one broker, built once in dependency order so that no part needs a setter
 * or sees a half-built other: the hosted partitions and the purgatories first, then the fetchers
 * (which see only {@link FollowerPartitions}), then the {@link ReplicaManager}, the role changes
 * ({@link ReplicaStateChanges}, to register with the metadata cache) and what a failed log
 * directory does to the replicas ({@link LogDirFailures}, run by the broker's
 * {@link LogDirFailureHandler} thread once it has registered).
 *
 * @param replicaManager produce, fetch and the partition operations
 * @param stateChanges   applies the cluster's partition states to this broker's replicas
 * @param logDirFailures takes a failed log directory's partitions offline (on the handler thread)
 */
public record ReplicaComponents(ReplicaManager replicaManager, ReplicaStateChanges stateChanges,
                                LogDirFailures logDirFailures) {

    /**
     * What the replica layer is built from.
     *
     * @param logConfigs          the current config of a topic's logs (broker defaults overlaid with its overrides)
     * @param isrUpdater          where this broker's ISR changes as leader are written
     * @param replicaLagTimeMaxMs {@code replica.lag.time.max.ms}
     * @param numReplicaFetchers  {@code num.replica.fetchers}
     * @param fetcherConfig       the followers' fetch settings
     * @param brokerNodes         the inter-broker address of a live broker, or empty
     * @param topicStats          per-topic throughput counters (Kafka's BrokerTopicMetrics)
     * @param replicaSelector     {@code replica.selector.class} (KIP-392), or null to keep consumers on leaders
     * @param quotas              the replication throttles (KIP-73)
     */
    public record Settings(int brokerId, Function<String, LogConfig> logConfigs, IsrUpdater isrUpdater,
                           long replicaLagTimeMaxMs, int numReplicaFetchers, ReplicaFetcherThread.Config fetcherConfig,
                           IntFunction<Optional<Node>> brokerNodes, BrokerTopicStats topicStats,
                           ReplicaSelector replicaSelector, ReplicationQuotas quotas) {
    }

    /**
     * Builds the replica layer over {@code logManager} and {@code metadataCache}.
     *
     * @param brokerEpoch this broker's registration epoch, set once it registers: a partition
     *                    state written before it never makes this broker leader
     */
    public static ReplicaComponents build(Settings settings, LogManager logManager, MetadataCache metadataCache,
                                          BrokerEpoch brokerEpoch, Time time) {
        int brokerId = settings.brokerId();
        HostedPartitions partitions = new HostedPartitions(brokerId, metadataCache);
        DelayedRequests delayed = new DelayedRequests(brokerId);
        StorageErrors storageErrors = new StorageErrors(partitions, logManager);
        ReplicaFetcherManager fetcherManager = new ReplicaFetcherManager(brokerId, settings.numReplicaFetchers(),
            settings.fetcherConfig(), settings.brokerNodes(),
            FollowerPartitions.of(partitions, storageErrors, delayed, settings.topicStats()), settings.quotas().follower(),
            time);
        LeadershipListeners leadershipListeners = new LeadershipListeners();
        ReplicaStats stats = new ReplicaStats();
        PartitionContext partitionContext = new PartitionContext(brokerId, settings.isrUpdater(), time,
            settings.replicaLagTimeMaxMs(), delayed::checkAndComplete,
            (tp, replica) -> isrEligible(metadataCache, tp, replica), stats);
        ReadReplicaSelection readReplicaSelection = new ReadReplicaSelection(brokerId, metadataCache,
            settings.replicaSelector());
        ReplicaManager replicaManager = new ReplicaManager(partitions, delayed, logManager, metadataCache, time,
            fetcherManager, leadershipListeners, storageErrors, readReplicaSelection, settings.replicaLagTimeMaxMs(),
            stats, settings.topicStats(), settings.quotas().leader());
        ReplicaStateChanges stateChanges = new ReplicaStateChanges(partitions, logManager, metadataCache, brokerEpoch,
            settings.logConfigs(), fetcherManager, delayed, leadershipListeners, partitionContext, settings.topicStats());
        LogDirFailures logDirFailures = new LogDirFailures(partitions, fetcherManager, leadershipListeners, delayed);
        return new ReplicaComponents(replicaManager, stateChanges, logDirFailures);
    }

    /**
     * Whether a follower may join a partition's ISR: registered, not shutting down, its replica
     * online, and not a replica a reassignment is removing (the controller may already have cut it
     * from the ISR while this leader's view of the assignment still lists it).
     */
    private static boolean isrEligible(MetadataCache metadataCache, TopicPartition tp, int brokerId) {
        boolean registered = metadataCache.broker(brokerId)
            .map(b -> !b.shuttingDown() && !b.offlineReplicas().contains(tp)).orElse(false);
        boolean removing = metadataCache.topic(tp.topic())
            .map(t -> t.removingReplicas().getOrDefault(tp.partition(), List.of()).contains(brokerId)).orElse(false);
        return registered && !removing;
    }
}
