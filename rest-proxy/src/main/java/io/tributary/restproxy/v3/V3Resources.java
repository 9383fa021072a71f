package io.tributary.restproxy.v3;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * Resource bodies of the v3 admin API, shaped as the Confluent REST Proxy's v3 resources
 * ({@code kind}, {@code metadata.self}, {@code related} links), with extra fields where an
 * operator needs more (partition ISR and size on disk, group lag).
 */
public final class V3Resources {

    private V3Resources() {
    }

    /** A resource's own URL and, for lists, the next page (always null: lists are whole). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Metadata(String self, @JsonProperty("resource_name") String resourceName, String next) {

        static Metadata of(String self) {
            return new Metadata(self, null, null);
        }
    }

    /** A link to a related resource or collection. */
    public record Related(String related) {
    }

    /** A collection. */
    public record ResourceList<T>(String kind, Metadata metadata, List<T> data) {
    }

    /**
     * The cluster. Beyond Confluent's fields: {@code authorized_operations}, the cluster operations
     * the caller may do (Kafka ACL operation names, e.g. CREATE, ALTER, DESCRIBE), present only when
     * asked with {@code include_authorized_operations=true}.
     */
    public record Cluster(String kind, Metadata metadata, @JsonProperty("cluster_id") String clusterId,
            Related controller, Related brokers, Related topics,
            @JsonProperty("consumer_groups") Related consumerGroups,
            @JsonProperty("authorized_operations") @JsonInclude(JsonInclude.Include.NON_NULL)
            List<String> authorizedOperations) {
    }

    public record Broker(String kind, Metadata metadata, @JsonProperty("cluster_id") String clusterId,
            @JsonProperty("broker_id") int brokerId, String host, Integer port, String rack,
            @JsonProperty("partition_replicas") Related partitionReplicas) {
    }

    /**
     * A topic. Beyond Confluent's fields: how many of its partitions have an ISR smaller than
     * their replicas, and how many have no leader, so a list of every topic shows the cluster's
     * health without a request per topic. {@code authorized_operations} (as Confluent's): the
     * operations the caller may do on the topic (READ, WRITE, DELETE, ALTER_CONFIGS, ...), present
     * only when asked with {@code include_authorized_operations=true}.
     */
    public record Topic(String kind, Metadata metadata, @JsonProperty("cluster_id") String clusterId,
            @JsonProperty("topic_name") String topicName, @JsonProperty("is_internal") boolean internal,
            @JsonProperty("replication_factor") int replicationFactor,
            @JsonProperty("partitions_count") int partitionsCount, Related partitions, Related configs,
            @JsonProperty("under_replicated_partitions_count") int underReplicatedPartitionsCount,
            @JsonProperty("offline_partitions_count") int offlinePartitionsCount,
            @JsonProperty("authorized_operations") @JsonInclude(JsonInclude.Include.NON_NULL)
            List<String> authorizedOperations) {
    }

    /**
     * A partition. Beyond Confluent's fields: leader and replica broker ids, the ISR, the replicas
     * out of sync, bytes on disk and the first and next offsets.
     */
    public record Partition(String kind, Metadata metadata, @JsonProperty("cluster_id") String clusterId,
            @JsonProperty("topic_name") String topicName, @JsonProperty("partition_id") int partitionId,
            Related leader, Related replicas,
            @JsonProperty("leader_id") Integer leaderId, @JsonProperty("replica_ids") List<Integer> replicaIds,
            @JsonProperty("isr_ids") List<Integer> isrIds,
            @JsonProperty("out_of_sync_replica_ids") List<Integer> outOfSyncReplicaIds,
            @JsonProperty("size_bytes") Long sizeBytes,
            @JsonProperty("earliest_offset") long earliestOffset,
            @JsonProperty("latest_offset") long latestOffset) {
    }

    /**
     * A partition replica. Beyond Confluent's fields, in a broker's replica list only: the partition's
     * leader, replicas and ISR, so a broker's page shows which of its partitions are under-replicated.
     */
    public record Replica(String kind, Metadata metadata, @JsonProperty("cluster_id") String clusterId,
            @JsonProperty("topic_name") String topicName, @JsonProperty("partition_id") int partitionId,
            @JsonProperty("broker_id") int brokerId, @JsonProperty("is_leader") boolean leader,
            @JsonProperty("is_in_sync") boolean inSync, Related broker,
            @JsonProperty("leader_id") @JsonInclude(JsonInclude.Include.NON_NULL) Integer leaderId,
            @JsonProperty("replica_ids") @JsonInclude(JsonInclude.Include.NON_NULL) List<Integer> replicaIds,
            @JsonProperty("isr_ids") @JsonInclude(JsonInclude.Include.NON_NULL) List<Integer> isrIds) {
    }

    public record TopicConfig(String kind, Metadata metadata, @JsonProperty("cluster_id") String clusterId,
            @JsonProperty("topic_name") String topicName, String name, String value,
            @JsonProperty("is_default") boolean isDefault, @JsonProperty("is_read_only") boolean readOnly,
            @JsonProperty("is_sensitive") boolean sensitive, String source) {
    }

    public record ConsumerGroup(String kind, Metadata metadata, @JsonProperty("cluster_id") String clusterId,
            @JsonProperty("consumer_group_id") String consumerGroupId, @JsonProperty("is_simple") boolean simple,
            @JsonProperty("partition_assignor") String partitionAssignor, String state,
            Related coordinator, Related consumers, @JsonProperty("lag_summary") Related lagSummary) {
    }

    /** A topic and partition pair. */
    public record AssignedPartition(@JsonProperty("topic_name") String topicName,
            @JsonProperty("partition_id") int partitionId) {
    }

    public record Consumer(String kind, Metadata metadata, @JsonProperty("cluster_id") String clusterId,
            @JsonProperty("consumer_group_id") String consumerGroupId,
            @JsonProperty("consumer_id") String consumerId, @JsonProperty("instance_id") String instanceId,
            @JsonProperty("client_id") String clientId, String host, List<AssignedPartition> assignments) {
    }

    public record ConsumerLag(String kind, Metadata metadata, @JsonProperty("cluster_id") String clusterId,
            @JsonProperty("consumer_group_id") String consumerGroupId,
            @JsonProperty("topic_name") String topicName, @JsonProperty("partition_id") int partitionId,
            @JsonProperty("current_offset") long currentOffset, @JsonProperty("log_end_offset") long logEndOffset,
            long lag, @JsonProperty("consumer_id") String consumerId, @JsonProperty("instance_id") String instanceId,
            @JsonProperty("client_id") String clientId) {
    }

    public record LagSummary(String kind, Metadata metadata, @JsonProperty("cluster_id") String clusterId,
            @JsonProperty("consumer_group_id") String consumerGroupId,
            @JsonProperty("max_lag_consumer_id") String maxLagConsumerId,
            @JsonProperty("max_lag_instance_id") String maxLagInstanceId,
            @JsonProperty("max_lag_client_id") String maxLagClientId,
            @JsonProperty("max_lag_topic_name") String maxLagTopicName,
            @JsonProperty("max_lag_partition_id") Integer maxLagPartitionId,
            @JsonProperty("max_lag") long maxLag, @JsonProperty("total_lag") long totalLag) {
    }

    /** Body of a topic creation. */
    public record CreateTopicRequest(@JsonProperty("topic_name") String topicName,
            @JsonProperty("partitions_count") Integer partitionsCount,
            @JsonProperty("replication_factor") Short replicationFactor, List<ConfigValue> configs) {
    }

    /** A config name and value, with an optional operation for batch alters ({@code SET}, {@code DELETE}). */
    public record ConfigValue(String name, String value, String operation) {
    }

    /** Body of {@code configs:alter}. */
    public record AlterConfigsRequest(List<ConfigValue> data) {
    }

    /** Body of a topic update: the new partition count. */
    public record UpdateTopicRequest(@JsonProperty("partitions_count") Integer partitionsCount) {
    }

    /** Body of a single config update. */
    public record UpdateConfigRequest(String value) {
    }

    /**
     * Body of an offset reset: {@code to} is {@code earliest}, {@code latest}, {@code offset}
     * (with {@code offset}) or {@code timestamp} (with {@code timestamp}, ms); {@code topics}
     * limits it to some topics (default: every topic the group has offsets for).
     */
    public record ResetOffsetsRequest(String to, Long offset, Long timestamp, List<String> topics) {
    }

    /** The offsets a reset committed. */
    public record ResetOffsetsResponse(@JsonProperty("consumer_group_id") String consumerGroupId,
            List<ResetOffset> offsets) {
    }

    public record ResetOffset(@JsonProperty("topic_name") String topicName,
            @JsonProperty("partition_id") int partitionId, long offset) {
    }
}
