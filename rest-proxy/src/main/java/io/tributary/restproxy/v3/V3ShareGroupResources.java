package io.tributary.restproxy.v3;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Schema;
import io.tributary.restproxy.v3.V3Resources.AssignedPartition;
import io.tributary.restproxy.v3.V3Resources.Metadata;
import io.tributary.restproxy.v3.V3Resources.Related;
import java.util.List;

/**
 * Resource bodies of the v3 share group endpoints (KIP-932), in the shape of the other v3
 * resources ({@code kind}, {@code metadata.self}, {@code related} links). Field names are Kafka's
 * ShareGroupDescribe names in snake case: {@code group_id}, {@code state}, {@code group_epoch},
 * {@code assignment_epoch}, {@code member_epoch}, {@code coordinator}.
 */
public final class V3ShareGroupResources {

    private V3ShareGroupResources() {
    }

    /**
     * A share group. {@code coordinator} links to the coordinator broker; {@code coordinator_id} is
     * its id (null when unknown). {@code members} is present on a single group only (the list gives
     * {@code member_count}); {@code authorized_operations} (Kafka ACL operation names: DESCRIBE,
     * DELETE, DESCRIBE_CONFIGS, ALTER_CONFIGS, ...) only when asked with
     * {@code include_authorized_operations=true}. {@code total_lag} is the sum of the partitions'
     * {@link ShareGroupOffset#lag() lag}, in records; always present, null when the lag of any partition
     * the group has state for is unknown or the brokers do not give offsets.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ShareGroup(String kind, Metadata metadata, @JsonProperty("cluster_id") String clusterId,
            @JsonProperty("group_id") String groupId, String state,
            @JsonProperty("group_epoch") int groupEpoch, @JsonProperty("assignment_epoch") int assignmentEpoch,
            @JsonProperty("member_count") int memberCount, Related coordinator,
            @JsonProperty("coordinator_id") Integer coordinatorId,
            @JsonProperty("total_lag") @JsonInclude(JsonInclude.Include.ALWAYS)
            @Schema(description = "Records not yet delivered to completion, summed over the partitions the group has "
                + "state for (KIP-1226 lag); 0 for a group without state; null when a partition's lag is unknown",
                nullable = true, example = "42") Long totalLag,
            Related configs, Related offsets,
            List<ShareMember> members,
            @JsonProperty("authorized_operations") List<String> authorizedOperations) {
    }

    /**
     * A member of a share group: its assigned partitions at {@code member_epoch} (a member whose
     * epoch is below the group's {@code assignment_epoch} is still reconciling).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ShareMember(String kind, Metadata metadata, @JsonProperty("cluster_id") String clusterId,
            @JsonProperty("group_id") String groupId, @JsonProperty("member_id") String memberId,
            @JsonProperty("client_id") String clientId, String host, @JsonProperty("rack_id") String rackId,
            @JsonProperty("member_epoch") int memberEpoch, List<AssignedPartition> assignments) {
    }

    /** One {@code share.*} config of the group's GROUP config resource; {@code source} is Kafka's ConfigSource name. */
    public record ShareGroupConfig(String kind, Metadata metadata, @JsonProperty("cluster_id") String clusterId,
            @JsonProperty("group_id") String groupId, String name, String value,
            @JsonProperty("is_default") boolean isDefault, @JsonProperty("is_read_only") boolean readOnly,
            @JsonProperty("is_sensitive") boolean sensitive, String source) {
    }

    /**
     * Where the group starts delivering in a partition (DescribeShareGroupOffsets): the share-partition
     * start offset, with the leader epoch when the brokers give it, and {@code lag}: the records from the
     * start offset to the high watermark whose delivery is not complete (neither acknowledged nor archived),
     * as Kafka 4.4 computes it (DescribeShareGroupOffsets v1, KIP-1226); always present, null when the
     * brokers do not know it.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ShareGroupOffset(@JsonProperty("topic_name") String topicName,
            @JsonProperty("partition_id") int partitionId, @JsonProperty("start_offset") long startOffset,
            @JsonProperty("leader_epoch") Integer leaderEpoch,
            @JsonInclude(JsonInclude.Include.ALWAYS)
            @Schema(description = "Records from start_offset to the high watermark neither acknowledged nor archived "
                + "(KIP-1226); null when the brokers do not know it", nullable = true, example = "7") Long lag) {
    }

    /** The start offsets a reset moved the share group to. */
    public record ShareGroupResetOffsetsResponse(@JsonProperty("share_group_id") String shareGroupId,
            List<V3Resources.ResetOffset> offsets) {
    }
}
