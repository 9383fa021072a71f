package io.tributary.adminui.proxy;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * The parts of the REST proxy's v3 (and v2) bodies the UI reads; unknown fields are ignored so a
 * newer proxy does not break the UI.
 */
public final class ProxyResources {

    private ProxyResources() {
    }

    /**
     * One topic of the proxy's {@code /topic-usage} (an extra of Tributary's proxy).
     *
     * @param sizeBytes    bytes on disk of its leader replicas; null when the caller may not see them
     * @param messageCount end offset minus start offset summed over partitions (approximate for
     *                     compacted topics and transactions)
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record TopicUsage(@JsonProperty("topic_name") String topicName, @JsonProperty("size_bytes") Long sizeBytes,
            @JsonProperty("message_count") Long messageCount) {
    }

    /** A v3 collection. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ResourceList<T>(List<T> data) {
    }

    /** A link to a related resource; the controller link ends in {@code /brokers/<id>}. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Related(String related) {
    }

    /**
     * v3 {@code KafkaCluster}; {@code authorizedOperations} the caller's cluster operations (CREATE,
     * ALTER, ...) when asked for and the proxy gives them, else null.
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Cluster(@JsonProperty("cluster_id") String clusterId, Related controller,
            @JsonProperty("authorized_operations") List<String> authorizedOperations) {

        /** The controller's broker id, taken from its link; null when the cluster has none. */
        public Integer controllerId() {
            if (controller == null || controller.related() == null) {
                return null;
            }
            String link = controller.related();
            try {
                return Integer.valueOf(link.substring(link.lastIndexOf('/') + 1));
            } catch (NumberFormatException e) {
                return null;
            }
        }
    }

    /** v3 {@code KafkaBroker}. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Broker(@JsonProperty("broker_id") int brokerId, String host, Integer port, String rack) {
    }

    /**
     * v3 {@code KafkaTopic}, with Tributary's health counts; a proxy without them (Confluent's)
     * leaves them null and the UI asks for the topic's partition states instead.
     * {@code authorizedOperations}: the caller's operations on the topic (READ, WRITE, DELETE, ...),
     * null when the proxy did not say.
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Topic(@JsonProperty("topic_name") String topicName, @JsonProperty("is_internal") boolean internal,
            @JsonProperty("replication_factor") int replicationFactor,
            @JsonProperty("partitions_count") int partitionsCount,
            @JsonProperty("under_replicated_partitions_count") Integer underReplicatedPartitionsCount,
            @JsonProperty("offline_partitions_count") Integer offlinePartitionsCount,
            @JsonProperty("authorized_operations") List<String> authorizedOperations) {

        /** Whether the proxy gave this topic's health counts. */
        public boolean hasHealthCounts() {
            return underReplicatedPartitionsCount != null && offlinePartitionsCount != null;
        }
    }

    /**
     * v3 {@code KafkaPartition} with Tributary's extra fields (ISR, out-of-sync replicas, offsets, size).
     *
     * @param sizeBytes bytes on disk of the partition's log: the largest of its replicas' sizes that the
     *                  brokers' log directories report; null from a proxy without it
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Partition(@JsonProperty("partition_id") int partitionId, @JsonProperty("leader_id") Integer leaderId,
            @JsonProperty("replica_ids") List<Integer> replicaIds, @JsonProperty("isr_ids") List<Integer> isrIds,
            @JsonProperty("out_of_sync_replica_ids") List<Integer> outOfSyncReplicaIds,
            @JsonProperty("earliest_offset") long earliestOffset, @JsonProperty("latest_offset") long latestOffset,
            @JsonProperty("size_bytes") Long sizeBytes) {
    }

    /** v3 {@code KafkaTopicConfig}. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record TopicConfig(String name, String value, @JsonProperty("is_default") boolean isDefault,
            @JsonProperty("is_read_only") boolean readOnly, @JsonProperty("is_sensitive") boolean sensitive,
            String source) {
    }

    /** v2 partition: leader -1 when offline, and each replica's in-sync flag. Lighter than v3 (no offsets). */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record PartitionState(int partition, int leader, List<ReplicaState> replicas) {

        /** Fewer replicas in sync than assigned. */
        public boolean underReplicated() {
            return replicas.stream().anyMatch(r -> !r.inSync());
        }

        /** No leader. */
        public boolean offline() {
            return leader < 0;
        }
    }

    /** One v2 replica. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ReplicaState(int broker, boolean leader, @JsonProperty("in_sync") boolean inSync) {
    }

    /** v3 create-topic body. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record CreateTopic(@JsonProperty("topic_name") String topicName,
            @JsonProperty("partitions_count") Integer partitionsCount,
            @JsonProperty("replication_factor") Short replicationFactor, List<ConfigValue> configs) {
    }

    /** A config name and value. */
    public record ConfigValue(String name, String value) {
    }

    /** v3 topic update body: the new partition count. */
    public record UpdateTopic(@JsonProperty("partitions_count") int partitionsCount) {
    }

    /** One change of a v3 {@code configs:alter} body: SET with a value, or DELETE (back to the default). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record AlterConfig(String name, String value, String operation) {
    }

    /** v3 {@code configs:alter} body. */
    public record AlterConfigs(List<AlterConfig> data) {
    }

    /** The proxy's error body. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ErrorBody(@JsonProperty("error_code") Integer errorCode, String message) {
    }
}
