package io.tributary.adminui.topics;

import java.util.List;
import java.util.Map;

/** Bodies of the {@code /api/topics} endpoints. */
public final class TopicViews {

    private TopicViews() {
    }

    /**
     * One page of the topic list.
     *
     * @param total    topics matching the filter, on all pages (internal ones only when they are shown)
     * @param internal internal topics matching the filter, whether shown or not
     * @param page     this page's number, from 0
     * @param size     the page size asked for
     * @param topics   this page's topics, in the order asked for
     */
    public record TopicPage(int total, int internal, int page, int size, List<TopicRow> topics) {
    }

    /**
     * A topic in the list.
     *
     * @param underReplicated partitions whose ISR is smaller than their replica set
     * @param operations      what the caller may do on it (Kafka ACL operation names), null when the proxy
     *                        does not say
     * @param sizeBytes       bytes on disk of its leader replicas; null when the proxy does not say
     * @param messageCount    end offset minus start offset summed over its partitions: the record count,
     *                        approximate for compacted topics and transactions; null when unknown
     */
    public record TopicRow(String name, boolean internal, int partitions, int replicationFactor,
            int underReplicated, List<String> operations, Long sizeBytes, Long messageCount) {
    }

    /** What the topic list can be sorted by ({@code sort=name|partitions|size|messages}). */
    public enum TopicSort {
        NAME, PARTITIONS, SIZE, MESSAGES
    }

    /** Body of {@code POST /api/topics/deletions}: the topics to delete, together. */
    public record TopicDeletionRequest(List<String> names) {
    }

    /**
     * What {@code POST /api/topics/deletions} did.
     *
     * @param deleted the topics deleted
     * @param failed  the ones the proxy refused or could not find, each with its message
     */
    public record TopicDeletions(List<String> deleted, List<FailedDeletion> failed) {
    }

    /** A topic that was not deleted, and why (the proxy's, i.e. Kafka's, message). */
    public record FailedDeletion(String name, String message) {
    }

    /**
     * {@code GET /api/topics/{name}/rights}: what the caller may do on the topic.
     *
     * @param operations Kafka ACL operation names (READ, WRITE, DELETE, ALTER, ALTER_CONFIGS, ...), null
     *                   when the proxy does not say (then the pages offer everything and the proxy decides)
     */
    public record TopicRights(String name, List<String> operations) {
    }

    /**
     * Body of {@code POST /api/topics}; null partitions or replication factor take the broker's defaults.
     *
     * @param configs topic configs by name, e.g. {@code cleanup.policy=compact}
     */
    public record CreateTopicRequest(String name, Integer partitions, Short replicationFactor,
            Map<String, String> configs) {
    }

    /**
     * {@code GET /api/topics/{name}}: partitions by id and configs by name.
     *
     * @param sizeBytes bytes on disk of all partitions (the sum of their {@code sizeBytes} the proxy
     *                  knows), null when it knows none
     * @param configs   null when the caller may not describe the topic's configs
     */
    public record TopicDetail(String name, Long sizeBytes, List<PartitionRow> partitions, List<ConfigRow> configs) {
    }

    /**
     * One partition.
     *
     * @param leader      leader broker id, null when offline
     * @param outOfSync   replicas not in the ISR
     * @param startOffset first offset still in the log
     * @param endOffset   the next offset to be written (log end offset)
     * @param sizeBytes   bytes on disk of the partition's log, from the proxy's {@code size_bytes} (its
     *                    largest replica's log directory entry); null when the proxy gave none
     */
    public record PartitionRow(int partition, Integer leader, List<Integer> replicas, List<Integer> isr,
            List<Integer> outOfSync, long startOffset, long endOffset, Long sizeBytes) {
    }

    /**
     * One topic config; {@code source} is Kafka's config source (e.g. DYNAMIC_TOPIC_CONFIG).
     *
     * @param value      null for a sensitive config (never sent to the browser)
     * @param overridden set on this topic (source DYNAMIC_TOPIC_CONFIG): a reset brings back the default
     */
    public record ConfigRow(String name, String value, boolean isDefault, boolean overridden, boolean readOnly,
            boolean sensitive, String source) {
    }

    /** Body of {@code PATCH /api/topics/{name}}: the new partition count, above the current one. */
    public record UpdateTopicRequest(Integer partitions) {
    }

    /**
     * Body of {@code PUT /api/topics/{name}/configs}: one batch of changes, applied together.
     *
     * @param set   configs to set, by name
     * @param reset names of configs to bring back to their default (their topic override removed)
     */
    public record ConfigChanges(Map<String, String> set, List<String> reset) {
    }
}
