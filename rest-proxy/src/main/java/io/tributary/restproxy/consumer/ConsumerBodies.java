package io.tributary.restproxy.consumer;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import tools.jackson.databind.JsonNode;

/** Request and response bodies of the v2 consumer API, named as in the Confluent REST Proxy. */
public final class ConsumerBodies {

    private ConsumerBodies() {
    }

    /** Answer to creating an instance. */
    public record CreatedInstance(@JsonProperty("instance_id") String instanceId,
            @JsonProperty("base_uri") String baseUri) {
    }

    /** A subscription: a list of topics, or a regular expression over topic names. */
    public record Subscription(List<String> topics, @JsonProperty("topic_pattern") String topicPattern) {
    }

    /** The topics an instance is subscribed to. */
    public record SubscribedTopics(List<String> topics) {
    }

    /** A partition named by topic and number. */
    public record Partition(String topic, Integer partition) {
    }

    /** A list of partitions (assignments, seek to beginning or end, committed offsets query). */
    public record Partitions(List<Partition> partitions) {
    }

    /** A partition's offset, with optional commit metadata. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record PartitionOffset(String topic, Integer partition, Long offset, String metadata) {
    }

    /** A partition's timestamp, ms since the epoch, to seek to. */
    public record PartitionTimestamp(String topic, Integer partition, Long timestamp) {
    }

    /** Offsets to commit or seek to; for a seek, timestamps may be given instead. */
    public record Offsets(List<PartitionOffset> offsets, List<PartitionTimestamp> timestamps) {
    }

    /** Committed offsets. */
    public record CommittedOffsets(List<PartitionOffset> offsets) {
    }

    /** One record of {@code GET .../records}, key and value embedded in the instance's format. */
    public record ConsumedRecord(String topic, JsonNode key, JsonNode value, int partition, long offset) {
    }
}
