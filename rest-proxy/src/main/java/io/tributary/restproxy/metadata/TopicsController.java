package io.tributary.restproxy.metadata;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.tributary.restproxy.error.RestError;
import io.tributary.restproxy.format.EmbeddedFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/** Confluent REST Proxy v2 metadata: topics, partitions and brokers. */
@RestController
@Tag(name = "Metadata (v2)", description = "Confluent REST Proxy API v2 topics, partitions and brokers")
public class TopicsController {

    /** A v2 topic: name, configs and partitions. */
    public record TopicInfo(String name, Map<String, String> configs, List<PartitionInfo> partitions) {
    }

    /** A v2 partition: its leader (-1 when offline) and its replicas. */
    public record PartitionInfo(int partition, int leader, List<ReplicaInfo> replicas) {
    }

    /** One replica of a partition. */
    public record ReplicaInfo(int broker, boolean leader, @JsonProperty("in_sync") boolean inSync) {
    }

    /** The v2 broker list. */
    public record BrokerList(List<Integer> brokers) {
    }

    private final ClusterMetadata metadata;

    public TopicsController(ClusterMetadata metadata) {
        this.metadata = metadata;
    }

    @GetMapping(path = "/topics", produces = {EmbeddedFormat.KAFKA_V2, MediaType.APPLICATION_JSON_VALUE})
    @Operation(summary = "List topic names", description = "Internal topics are left out.")
    public List<String> topics() {
        return metadata.topicNames();
    }

    @GetMapping(path = "/topics/{topic}", produces = {EmbeddedFormat.KAFKA_V2, MediaType.APPLICATION_JSON_VALUE})
    @Operation(summary = "Describe a topic", description = "Configs and partitions. Errors: 40401.")
    public TopicInfo topic(@PathVariable String topic) {
        TopicDescription description = metadata.describeTopic(topic);
        return new TopicInfo(topic, metadata.topicConfigs(topic), partitions(description));
    }

    @GetMapping(path = "/topics/{topic}/partitions",
        produces = {EmbeddedFormat.KAFKA_V2, MediaType.APPLICATION_JSON_VALUE})
    @Operation(summary = "List a topic's partitions", description = "Errors: 40401.")
    public List<PartitionInfo> partitions(@PathVariable String topic) {
        return partitions(metadata.describeTopic(topic));
    }

    @GetMapping(path = "/topics/{topic}/partitions/{partition}",
        produces = {EmbeddedFormat.KAFKA_V2, MediaType.APPLICATION_JSON_VALUE})
    @Operation(summary = "Describe one partition", description = "Errors: 40401, 40402.")
    public PartitionInfo partition(@PathVariable String topic, @PathVariable int partition) {
        return partitions(metadata.describeTopic(topic)).stream()
            .filter(p -> p.partition() == partition).findFirst()
            .orElseThrow(() -> RestError.PARTITION_NOT_FOUND.exception("Partition " + partition + " of topic "
                + topic + " not found."));
    }

    @GetMapping(path = "/brokers", produces = {EmbeddedFormat.KAFKA_V2, MediaType.APPLICATION_JSON_VALUE})
    @Operation(summary = "List broker ids")
    public BrokerList brokers() {
        return new BrokerList(metadata.brokers().stream().map(Node::id).sorted().toList());
    }

    private static List<PartitionInfo> partitions(TopicDescription description) {
        return description.partitions().stream().map(TopicsController::partition).toList();
    }

    private static PartitionInfo partition(TopicPartitionInfo info) {
        int leader = info.leader() == null || info.leader().isEmpty() ? -1 : info.leader().id();
        Set<Integer> isr = info.isr().stream().map(Node::id).collect(Collectors.toSet());
        List<ReplicaInfo> replicas = info.replicas().stream()
            .map(node -> new ReplicaInfo(node.id(), node.id() == leader, isr.contains(node.id()))).toList();
        return new PartitionInfo(info.partition(), leader, replicas);
    }
}
