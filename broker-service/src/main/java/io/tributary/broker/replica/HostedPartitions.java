package io.tributary.broker.replica;

import io.tributary.broker.cluster.MetadataCache;
import java.util.Collection;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Function;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.KafkaStorageException;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * The partitions this broker hosts (Kafka's {@code ReplicaManager.allPartitions}): online ones
 * with their {@link Partition}, and offline ones whose log directory failed (KIP-112), which stay
 * offline until a restart. Shared by the produce and fetch paths, the role changes, the fetchers
 * and the log-directory failure handling.
 *
 * <p>Thread-safe (concurrent maps; no lock of its own).
 */
public final class HostedPartitions {

    private final int brokerId;
    private final MetadataCache metadataCache;
    private final ConcurrentMap<TopicPartition, Partition> online = new ConcurrentHashMap<>();
    private final Set<TopicPartition> offline = ConcurrentHashMap.newKeySet();

    /**
     * @param metadataCache tells an unknown partition (UNKNOWN_TOPIC_OR_PARTITION) from one this
     *                      broker does not replicate (NOT_LEADER_OR_FOLLOWER)
     */
    public HostedPartitions(int brokerId, MetadataCache metadataCache) {
        this.brokerId = brokerId;
        this.metadataCache = metadataCache;
    }

    /** The online partition, if hosted here. */
    public Optional<Partition> get(TopicPartition tp) {
        return Optional.ofNullable(online.get(tp));
    }

    /**
     * The online partition, or the error its absence means to a client.
     *
     * @throws KafkaStorageException            its replica here is offline (KAFKA_STORAGE_ERROR)
     * @throws NotLeaderOrFollowerException     the cluster knows it, but this broker does not replicate it
     * @throws UnknownTopicOrPartitionException the cluster does not know it
     */
    Partition onlineOrError(TopicPartition tp) {
        Partition partition = online.get(tp);
        if (partition != null) {
            return partition;
        }
        if (offline.contains(tp)) {
            throw new KafkaStorageException("The replica of " + tp + " on broker " + brokerId + " is offline: its log "
                + "directory failed");
        }
        boolean known = metadataCache.topic(tp.topic()).map(t -> t.replicas().containsKey(tp.partition())).orElse(false);
        if (known) {
            throw new NotLeaderOrFollowerException("Broker " + brokerId + " does not replicate " + tp);
        }
        throw new UnknownTopicOrPartitionException("This server does not host this topic-partition.");
    }

    /** Every online partition (a live view). */
    Collection<Partition> all() {
        return online.values();
    }

    boolean contains(TopicPartition tp) {
        return online.containsKey(tp);
    }

    Partition getOrCreate(TopicPartition tp, Function<TopicPartition, Partition> create) {
        return online.computeIfAbsent(tp, create);
    }

    /** Forgets an online partition; returns it, or null. */
    Partition remove(TopicPartition tp) {
        return online.remove(tp);
    }

    /** Takes {@code tp} offline for good (until a restart). */
    void markOffline(TopicPartition tp) {
        offline.add(tp);
        online.remove(tp);
    }

    boolean isOffline(TopicPartition tp) {
        return offline.contains(tp);
    }

    /** Partitions whose replica here is offline. */
    Set<TopicPartition> offline() {
        return Set.copyOf(offline);
    }

    void clear() {
        online.clear();
    }

    int brokerId() {
        return brokerId;
    }
}
