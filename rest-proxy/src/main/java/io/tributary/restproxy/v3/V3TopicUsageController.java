package io.tributary.restproxy.v3;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.tributary.restproxy.v3.V3Resources.ResourceList;
import java.util.List;
import java.util.Set;
import org.apache.kafka.clients.admin.TopicDescription;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /v3/clusters/{cluster_id}/topic-usage}: bytes on disk and message counts of many topics
 * in one call (an extra of this proxy; Confluent's v3 has no sizes), for lists sorted by them.
 */
@RestController
@Tag(name = "Topics (v3)")
public class V3TopicUsageController {

    /**
     * One topic's usage.
     *
     * @param sizeBytes               bytes of its partitions' leader replicas on disk; null when the
     *                                caller may not describe the brokers' log directories
     * @param messageCount            end offset minus start offset, summed over partitions: approximate
     *                                for compacted topics and for transactions (markers take offsets)
     * @param offlinePartitionsCount  partitions without a leader, counted in neither
     */
    public record TopicUsageData(String kind, @JsonProperty("cluster_id") String clusterId,
            @JsonProperty("topic_name") String topicName, @JsonProperty("size_bytes") Long sizeBytes,
            @JsonProperty("message_count") long messageCount,
            @JsonProperty("offline_partitions_count") int offlinePartitionsCount) {
    }

    private final ClusterAdmin admin;
    private final TopicUsage usage;

    /** @param usage sizes and counts of many topics at once */
    public V3TopicUsageController(ClusterAdmin admin, TopicUsage usage) {
        this.admin = admin;
        this.usage = usage;
    }

    /** The usage of the named topics (each {@code topic} parameter; none: every topic the caller may describe). */
    @GetMapping(path = "/v3/clusters/{clusterId}/topic-usage", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Sizes and message counts of topics",
        description = "size_bytes: the leader replicas' bytes on disk (null without DESCRIBE on the cluster); "
            + "message_count: end offset - start offset summed over partitions, approximate for compacted topics "
            + "and transactions. Internal topics included; ?topic=a&topic=b limits the answer to those named "
            + "(unknown names are left out).")
    public ResourceList<TopicUsageData> usage(@PathVariable String clusterId,
            @RequestParam(name = "topic", required = false) List<String> topics) {
        admin.checkCluster(clusterId);
        Set<String> wanted = topics == null ? null : Set.copyOf(topics);
        List<TopicDescription> described = admin.topics().stream()
            .filter(t -> wanted == null || wanted.contains(t.name())).toList();
        return new ResourceList<>("KafkaTopicUsageList", V3Links.self(clusterId, "/topic-usage"),
            usage.of(described, admin.cluster().brokers()).stream()
                .map(u -> new TopicUsageData("KafkaTopicUsage", clusterId, u.topic(), u.sizeBytes(), u.messageCount(),
                    u.offlinePartitions()))
                .toList());
    }
}
