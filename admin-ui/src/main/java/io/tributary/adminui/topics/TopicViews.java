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
     * @param total  topics matching the filter, on all pages
     * @param page   this page's number, from 0
     * @param size   the page size asked for
     * @param topics this page's topics, sorted by name
     */
    public record TopicPage(int total, int page, int size, List<TopicRow> topics) {
    }

    /**
     * A topic in the list.
     *
     * @param underReplicated partitions whose ISR is smaller than their replica set
     */
    public record TopicRow(String name, boolean internal, int partitions, int replicationFactor,
            int underReplicated) {
    }

    /**
     * Body of {@code POST /api/topics}; null partitions or replication factor take the broker's defaults.
     *
     * @param configs topic configs by name, e.g. {@code cleanup.policy=compact}
     */
    public record CreateTopicRequest(String name, Integer partitions, Short replicationFactor,
            Map<String, String> configs) {
    }

    /** {@code GET /api/topics/{name}}: partitions by id and configs by name. */
    public record TopicDetail(String name, List<PartitionRow> partitions, List<ConfigRow> configs) {
    }

    /**
     * One partition.
     *
     * @param leader      leader broker id, null when offline
     * @param outOfSync   replicas not in the ISR
     * @param startOffset first offset still in the log
     * @param endOffset   the next offset to be written (log end offset)
     */
    public record PartitionRow(int partition, Integer leader, List<Integer> replicas, List<Integer> isr,
            List<Integer> outOfSync, long startOffset, long endOffset) {
    }

    /** One topic config; {@code source} is Kafka's config source (e.g. DYNAMIC_TOPIC_CONFIG). */
    public record ConfigRow(String name, String value, boolean isDefault, boolean readOnly, boolean sensitive,
            String source) {
    }
}
