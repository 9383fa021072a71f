package io.tributary.restproxy.v3;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.tributary.restproxy.v3.V3Resources.Metadata;
import io.tributary.restproxy.v3.V3Resources.Related;
import java.util.List;

/**
 * Resource bodies of the v3 broker, broker config, log directory and reassignment API. Broker and
 * cluster configs and reassignments are shaped as Confluent's ({@code KafkaBrokerConfig},
 * {@code KafkaClusterConfig}, {@code KafkaReassignment}); log directories and a reassignment's
 * progress are this proxy's own.
 */
public final class V3BrokerResources {

    private V3BrokerResources() {
    }

    /** Another name the value could come from, in the order the broker looks (KIP-226). */
    public record ConfigSynonym(String name, String value, String source) {
    }

    /** A broker's config: {@code source} is Kafka's (DYNAMIC_BROKER_CONFIG, STATIC_BROKER_CONFIG, ...). */
    public record BrokerConfig(String kind, Metadata metadata, @JsonProperty("cluster_id") String clusterId,
            @JsonProperty("broker_id") int brokerId, String name, String value,
            @JsonProperty("is_default") boolean isDefault, @JsonProperty("is_read_only") boolean readOnly,
            @JsonProperty("is_sensitive") boolean sensitive, String source, List<ConfigSynonym> synonyms) {
    }

    /** A cluster-wide default broker config ({@code config_type} BROKER), set for every broker at once. */
    public record ClusterConfig(String kind, Metadata metadata, @JsonProperty("cluster_id") String clusterId,
            @JsonProperty("config_type") String configType, String name, String value,
            @JsonProperty("is_default") boolean isDefault, @JsonProperty("is_read_only") boolean readOnly,
            @JsonProperty("is_sensitive") boolean sensitive, String source, List<ConfigSynonym> synonyms) {
    }

    /** A replica in a log directory: bytes on disk and how far its log end is behind (ms, Kafka's offset lag). */
    public record LogDirReplica(@JsonProperty("topic_name") String topicName,
            @JsonProperty("partition_id") int partitionId, @JsonProperty("size_bytes") long sizeBytes,
            @JsonProperty("offset_lag") long offsetLag, @JsonProperty("is_future") boolean future) {
    }

    /**
     * One of a broker's log directories (ours; Confluent has none): its error (Kafka's error name, null
     * when healthy), the bytes of its replicas, the volume's total and usable bytes when the broker
     * reports them.
     */
    public record LogDir(String kind, @JsonProperty("cluster_id") String clusterId,
            @JsonProperty("broker_id") int brokerId, @JsonProperty("log_dir") String logDir, String error,
            @JsonProperty("size_bytes") long sizeBytes,
            @JsonProperty("total_bytes") @JsonInclude(JsonInclude.Include.NON_NULL) Long totalBytes,
            @JsonProperty("usable_bytes") @JsonInclude(JsonInclude.Include.NON_NULL) Long usableBytes,
            List<LogDirReplica> replicas) {
    }

    /**
     * How far an added replica is: its bytes on disk against the leader's, and whether it joined the ISR.
     * Sizes are null when the caller may not describe the brokers' log directories.
     */
    public record ReplicaProgress(@JsonProperty("broker_id") int brokerId,
            @JsonProperty("size_bytes") Long sizeBytes, @JsonProperty("leader_size_bytes") Long leaderSizeBytes,
            @JsonProperty("is_in_sync") boolean inSync) {
    }

    /**
     * An ongoing reassignment of a partition, as Confluent's {@code KafkaReassignment}; beyond it:
     * the target replicas (the replicas once it is done), the ISR, the leader and the progress of
     * each replica being added.
     */
    public record Reassignment(String kind, Metadata metadata, @JsonProperty("cluster_id") String clusterId,
            @JsonProperty("topic_name") String topicName, @JsonProperty("partition_id") int partitionId,
            @JsonProperty("adding_replicas") List<Integer> addingReplicas,
            @JsonProperty("removing_replicas") List<Integer> removingReplicas, Related replicas,
            @JsonProperty("target_replica_ids") List<Integer> targetReplicaIds, @JsonProperty("isr_ids") List<Integer> isrIds,
            @JsonProperty("leader_id") Integer leaderId, List<ReplicaProgress> progress) {
    }

    /** A partition and the brokers it should end on, the first of them its preferred leader. */
    public record TargetReplicas(@JsonProperty("topic_name") String topicName,
            @JsonProperty("partition_id") Integer partitionId, @JsonProperty("replica_ids") List<Integer> replicaIds) {
    }

    /**
     * Body of a reassignment's start (ours): the partitions' new replicas and an optional replication
     * throttle in bytes per second, applied as {@code kafka-reassign-partitions --throttle} does.
     */
    public record StartReassignmentRequest(List<TargetReplicas> partitions,
            @JsonProperty("throttle_bytes_per_second") Long throttleBytesPerSecond) {
    }
}
