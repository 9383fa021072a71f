package io.tributary.adminui.groups;

import java.util.List;

/** Bodies of the {@code /api/groups} endpoints. */
public final class GroupViews {

    private GroupViews() {
    }

    /**
     * One page of the group list.
     *
     * @param total  groups matching the filter, on all pages
     * @param page   this page's number, from 0
     * @param size   the page size asked for
     * @param groups this page's groups, sorted by id
     */
    public record GroupPage(int total, int page, int size, List<GroupRow> groups) {
    }

    /**
     * A group in the list.
     *
     * @param state    Kafka's group state, e.g. STABLE, EMPTY
     * @param members  members now, null when the group went away while the page was built
     * @param totalLag    the sum of its partitions' lag, null as for members
     * @param coordinator the broker id of its group coordinator, null when unknown
     */
    public record GroupRow(String id, String state, Integer members, Long totalLag, Integer coordinator) {
    }

    /** {@code GET /api/groups/{id}}: state, coordinator broker id (null: unknown), members and every partition's offsets. */
    public record GroupDetail(String id, String state, boolean simple, String partitionAssignor, long totalLag,
            Integer coordinator, List<Member> members, List<PartitionOffsets> partitions) {
    }

    /**
     * A member of the group.
     *
     * @param instanceId  its static membership id, or null
     * @param assignments its partitions as {@code topic-partition}, sorted
     */
    public record Member(String consumerId, String instanceId, String clientId, String host,
            List<String> assignments) {
    }

    /**
     * A partition the group has an offset for or is assigned.
     *
     * @param committedOffset the group's committed offset, null when none (lag then counts the whole partition)
     * @param endOffset       the log end offset
     * @param owner           consumer id of the member it is assigned to, null when none
     * @param ownerClientId   that member's client id
     */
    public record PartitionOffsets(String topic, int partition, Long committedOffset, long endOffset, long lag,
            String owner, String ownerClientId) {
    }

    /**
     * Body of {@code POST /api/groups/{id}/offsets:reset}.
     *
     * @param mode      earliest, latest, offset or timestamp
     * @param offset    for mode offset: the offset for every partition (moved into each partition's range)
     * @param timestamp for mode timestamp: milliseconds since the epoch; each partition goes to its first
     *                  record at or after it
     * @param topic     one topic of the group, or null/blank for every topic it has offsets for
     */
    public record ResetRequest(String mode, Long offset, Long timestamp, String topic) {
    }

    /** What a reset committed. */
    public record ResetResult(String id, List<ResetOffset> offsets) {
    }

    /** One partition's new committed offset. */
    public record ResetOffset(String topic, int partition, long offset) {
    }
}
