package io.tributary.adminui.sharegroups;

import java.util.List;
import java.util.Map;

/**
 * Bodies of the {@code /api/share-groups} endpoints. Field names are Kafka's (KIP-932
 * ShareGroupDescribe) in the UI API's camel case: {@code groupId}, {@code state},
 * {@code groupEpoch}, {@code assignmentEpoch}, {@code memberEpoch}, {@code coordinator}.
 */
public final class ShareGroupViews {

    private ShareGroupViews() {
    }

    /**
     * One page of the share group list.
     *
     * @param total  groups matching the filters, on all pages
     * @param states the states of all share groups (before the state filter), sorted, for the filter's choices
     */
    public record ShareGroupPage(int total, int page, int size, List<String> states, List<ShareGroupRow> groups) {
    }

    /**
     * A share group in the list.
     *
     * @param state       Kafka's group state: STABLE, EMPTY, ...
     * @param members     member count
     * @param coordinator the coordinator's broker id, null when unknown
     * @param lag         records not yet delivered to completion, summed over the group's partitions
     *                    (KIP-1226), null when unknown
     */
    public record ShareGroupRow(String groupId, String state, int members, Integer coordinator, Long lag) {
    }

    /**
     * {@code GET /api/share-groups/{id}}.
     *
     * @param operations    what the caller may do on the group (Kafka ACL operation names: DELETE,
     *                      ALTER_CONFIGS, ...), null when the proxy did not say
     * @param configs       the group's {@code share.*} configs, null when they could not be read
     * @param configsError  why not (e.g. the caller lacks DESCRIBE_CONFIGS), else null
     * @param lag             the partitions' lags summed, null when one is unknown or offsets are not available
     * @param partitions      the partitions the group has state for, by topic and partition; null when not
     *                        available
     * @param partitionsError why not (a broker without DescribeShareGroupOffsets, ...), else null
     */
    public record ShareGroupDetail(String groupId, String state, int groupEpoch, int assignmentEpoch,
            Integer coordinator, List<Member> members, List<String> operations, List<ConfigRow> configs,
            String configsError, Long lag, List<PartitionRow> partitions, String partitionsError) {
    }

    /**
     * A member and its assigned partitions as {@code topic-partition}, sorted.
     *
     * @param memberEpoch below the group's assignment epoch while the member reconciles
     */
    public record Member(String memberId, String clientId, String host, String rackId, int memberEpoch,
            List<String> assignments) {
    }

    /**
     * One {@code share.*} config of the group.
     *
     * @param overridden set on this group (source DYNAMIC_GROUP_CONFIG): a reset brings back the brokers' value
     */
    public record ConfigRow(String name, String value, boolean isDefault, boolean overridden, boolean readOnly,
            String source) {
    }

    /**
     * A partition the group has state for: where it starts delivering (DescribeShareGroupOffsets) and its
     * share-partition's meters on the brokers' metrics, in records.
     *
     * @param lag                   records from the start offset to the high watermark neither acknowledged
     *                              nor archived (KIP-1226), null when the brokers do not give it
     * @param inFlight              records from the start offset to the last acquired one
     * @param archivedRejected      records archived as rejected, since the leader loaded the share-partition
     * @param archivedDeliveryLimit records archived at the delivery count limit, since the leader loaded it
     * @param lockExpiries          acquisition locks that expired, since the leader loaded it
     * @param metricsNote           when the four meters are null: why (a broker's metrics unreachable, the
     *                              share-partition not loaded on any broker); else null
     */
    public record PartitionRow(String topic, int partition, long startOffset, Long lag, Long inFlight,
            Long archivedRejected, Long archivedDeliveryLimit, Long lockExpiries, String metricsNote) {
    }

    /**
     * Body of {@code PUT /api/share-groups/{id}/configs}: one batch, applied together.
     *
     * @param set   {@code share.*} configs to set, by name
     * @param reset names to bring back to the brokers' value
     */
    public record ConfigChanges(Map<String, String> set, List<String> reset) {
    }

    /**
     * Body of {@code POST /api/share-groups/{id}/offsets:reset}.
     *
     * @param mode  earliest or latest: where the group's next consumer starts in each partition
     * @param topic one topic, or null/blank for every topic the group has start offsets for
     */
    public record ResetRequest(String mode, String topic) {
    }
}
