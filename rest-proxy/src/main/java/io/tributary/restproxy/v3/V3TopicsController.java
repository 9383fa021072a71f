package io.tributary.restproxy.v3;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.tributary.restproxy.error.RestError;
import io.tributary.restproxy.v3.V3Resources.AlterConfigsRequest;
import io.tributary.restproxy.v3.V3Resources.ConfigValue;
import io.tributary.restproxy.v3.V3Resources.CreateTopicRequest;
import io.tributary.restproxy.v3.V3Resources.Partition;
import io.tributary.restproxy.v3.V3Resources.Replica;
import io.tributary.restproxy.v3.V3Resources.ResourceList;
import io.tributary.restproxy.v3.V3Resources.Topic;
import io.tributary.restproxy.v3.V3Resources.TopicConfig;
import io.tributary.restproxy.v3.V3Resources.UpdateConfigRequest;
import io.tributary.restproxy.v3.V3Resources.UpdateTopicRequest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.acl.AclOperation;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** v3 topics: list, create, delete, add partitions, configs, partitions and replicas. */
@RestController
@RequestMapping(path = "/v3/clusters/{clusterId}/topics", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Topics (v3)", description = "Topics, their configs, partitions and replicas")
public class V3TopicsController {

    private final ClusterAdmin admin;

    public V3TopicsController(ClusterAdmin admin) {
        this.admin = admin;
    }

    @GetMapping
    @Operation(summary = "List topics", description = "Internal topics included, marked is_internal; only those "
        + "the caller may describe. With include_authorized_operations=true each carries authorized_operations.")
    public ResourceList<Topic> topics(@PathVariable String clusterId,
            @RequestParam(name = "include_authorized_operations", defaultValue = "false") boolean includeOperations) {
        admin.checkCluster(clusterId);
        return new ResourceList<>("KafkaTopicList", V3Links.self(clusterId, "/topics"),
            admin.topics(includeOperations).stream().map(t -> topic(clusterId, t)).toList());
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Create a topic",
        description = "partitions_count and replication_factor default to the broker's. Errors: 409 exists, 400 "
            + "bad name, count, factor or config.")
    public ResponseEntity<Topic> create(@PathVariable String clusterId, @RequestBody CreateTopicRequest request) {
        admin.checkCluster(clusterId);
        if (request.topicName() == null || request.topicName().isBlank()) {
            throw RestError.BAD_REQUEST.exception("topic_name is required");
        }
        Map<String, String> configs = new LinkedHashMap<>();
        if (request.configs() != null) {
            for (ConfigValue config : request.configs()) {
                configs.put(configName(config), config.value());
            }
        }
        TopicDescription created = admin.createTopic(request.topicName(),
            Optional.ofNullable(request.partitionsCount()), Optional.ofNullable(request.replicationFactor()), configs);
        return ResponseEntity.status(HttpStatus.CREATED).body(topic(clusterId, created));
    }

    @GetMapping("/{topic}")
    @Operation(summary = "Describe a topic", description = "With include_authorized_operations=true: the "
        + "operations the caller may do on it (authorized_operations). Errors: 40401.")
    public Topic topic(@PathVariable String clusterId, @PathVariable String topic,
            @RequestParam(name = "include_authorized_operations", defaultValue = "false") boolean includeOperations) {
        admin.checkCluster(clusterId);
        return topic(clusterId, admin.topic(topic, includeOperations));
    }

    @PatchMapping(path = "/{topic}", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Add partitions", description = "Body {\"partitions_count\": N}, N above the current count. "
        + "Errors: 40401, 400.")
    public Topic update(@PathVariable String clusterId, @PathVariable String topic,
            @RequestBody UpdateTopicRequest request) {
        admin.checkCluster(clusterId);
        if (request.partitionsCount() == null) {
            throw RestError.BAD_REQUEST.exception("partitions_count is required");
        }
        admin.addPartitions(topic, request.partitionsCount());
        return topic(clusterId, admin.topic(topic));
    }

    @DeleteMapping("/{topic}")
    @Operation(summary = "Delete a topic", description = "Errors: 40401.")
    public ResponseEntity<Void> delete(@PathVariable String clusterId, @PathVariable String topic) {
        admin.checkCluster(clusterId);
        admin.deleteTopic(topic);
        return ResponseEntity.noContent().build();
    }

    @GetMapping("/{topic}/configs")
    @Operation(summary = "List a topic's configs", description = "Errors: 40401.")
    public ResourceList<TopicConfig> configs(@PathVariable String clusterId, @PathVariable String topic) {
        admin.checkCluster(clusterId);
        return new ResourceList<>("KafkaTopicConfigList", V3Links.self(clusterId, "/topics/" + topic + "/configs"),
            admin.topicConfigs(topic).stream().map(c -> config(clusterId, topic, c)).toList());
    }

    @GetMapping("/{topic}/configs/{name}")
    @Operation(summary = "Get one config", description = "Errors: 40401, 404 unknown config.")
    public TopicConfig config(@PathVariable String clusterId, @PathVariable String topic, @PathVariable String name) {
        admin.checkCluster(clusterId);
        return admin.topicConfigs(topic).stream().filter(c -> c.name().equals(name)).findFirst()
            .map(c -> config(clusterId, topic, c))
            .orElseThrow(() -> RestError.NOT_FOUND.exception("Config " + name + " of topic " + topic + " not found."));
    }

    @PutMapping(path = "/{topic}/configs/{name}", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Set one config", description = "Body {\"value\": ...}. Errors: 40401, 400.")
    public ResponseEntity<Void> setConfig(@PathVariable String clusterId, @PathVariable String topic,
            @PathVariable String name, @RequestBody UpdateConfigRequest request) {
        admin.checkCluster(clusterId);
        admin.alterTopicConfigs(topic, Map.of(name, Optional.ofNullable(request.value())));
        return ResponseEntity.noContent().build();
    }

    @DeleteMapping("/{topic}/configs/{name}")
    @Operation(summary = "Reset one config to its default", description = "Errors: 40401, 400.")
    public ResponseEntity<Void> resetConfig(@PathVariable String clusterId, @PathVariable String topic,
            @PathVariable String name) {
        admin.checkCluster(clusterId);
        admin.alterTopicConfigs(topic, Map.of(name, Optional.empty()));
        return ResponseEntity.noContent().build();
    }

    @PostMapping(path = "/{topic}/configs:alter", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Alter several configs at once",
        description = "Body {\"data\":[{\"name\":..,\"value\":..,\"operation\":\"SET\"|\"DELETE\"}]}. Errors: 40401, 400.")
    public ResponseEntity<Void> alterConfigs(@PathVariable String clusterId, @PathVariable String topic,
            @RequestBody AlterConfigsRequest request) {
        admin.checkCluster(clusterId);
        if (request.data() == null) {
            throw RestError.BAD_REQUEST.exception("data is required");
        }
        Map<String, Optional<String>> changes = new LinkedHashMap<>();
        for (ConfigValue config : request.data()) {
            configName(config);
            String operation = config.operation() == null ? "SET" : config.operation().toUpperCase(Locale.ROOT);
            switch (operation) {
                case "SET" -> changes.put(config.name(), Optional.ofNullable(config.value()));
                case "DELETE" -> changes.put(config.name(), Optional.empty());
                default -> throw RestError.BAD_REQUEST.exception("operation must be SET or DELETE");
            }
        }
        admin.alterTopicConfigs(topic, changes);
        return ResponseEntity.noContent().build();
    }

    @GetMapping("/{topic}/partitions")
    @Operation(summary = "List partitions with leader, replicas, ISR, out-of-sync replicas, size and offsets",
        description = "Errors: 40401.")
    public ResourceList<Partition> partitions(@PathVariable String clusterId, @PathVariable String topic) {
        admin.checkCluster(clusterId);
        TopicDescription description = admin.topic(topic);
        return new ResourceList<>("KafkaPartitionList", V3Links.self(clusterId, "/topics/" + topic + "/partitions"),
            partitions(clusterId, description, description.partitions()));
    }

    @GetMapping("/{topic}/partitions/{partitionId}")
    @Operation(summary = "Describe a partition", description = "Errors: 40401, 40402.")
    public Partition partition(@PathVariable String clusterId, @PathVariable String topic,
            @PathVariable int partitionId) {
        admin.checkCluster(clusterId);
        TopicDescription description = admin.topic(topic);
        return partitions(clusterId, description, List.of(partitionInfo(description, partitionId))).get(0);
    }

    @GetMapping("/{topic}/partitions/{partitionId}/replicas")
    @Operation(summary = "List a partition's replicas", description = "Errors: 40401, 40402.")
    public ResourceList<Replica> replicas(@PathVariable String clusterId, @PathVariable String topic,
            @PathVariable int partitionId) {
        admin.checkCluster(clusterId);
        TopicPartitionInfo info = partitionInfo(admin.topic(topic), partitionId);
        Set<Integer> isr = info.isr().stream().map(Node::id).collect(Collectors.toSet());
        int leader = info.leader() == null ? -1 : info.leader().id();
        String path = "/topics/" + topic + "/partitions/" + partitionId + "/replicas";
        return new ResourceList<>("KafkaReplicaList", V3Links.self(clusterId, path), info.replicas().stream()
            .map(node -> new Replica("KafkaReplica", V3Links.self(clusterId, path + "/" + node.id()), clusterId, topic,
                partitionId, node.id(), node.id() == leader, isr.contains(node.id()),
                V3Links.related(clusterId, "/brokers/" + node.id()), null, null, null))
            .toList());
    }

    /** The config's name; 400 when it has none (Kafka's Admin client cannot send a nameless config). */
    private static String configName(ConfigValue config) {
        if (config == null || config.name() == null || config.name().isBlank()) {
            throw RestError.BAD_REQUEST.exception("Every config needs a \"name\"");
        }
        return config.name();
    }

    private List<Partition> partitions(String clusterId, TopicDescription description,
            List<TopicPartitionInfo> infos) {
        String topic = description.name();
        Map<Integer, Long> sizes = admin.partitionSizes(topic, admin.cluster().brokers());
        List<TopicPartition> tps = infos.stream().map(i -> new TopicPartition(topic, i.partition())).toList();
        Map<TopicPartition, long[]> offsets = admin.offsets(tps);
        List<Partition> partitions = new ArrayList<>();
        for (TopicPartitionInfo info : infos) {
            Integer leader = info.leader() == null || info.leader().isEmpty() ? null : info.leader().id();
            List<Integer> replicas = info.replicas().stream().map(Node::id).toList();
            List<Integer> isr = info.isr().stream().map(Node::id).toList();
            List<Integer> outOfSync = replicas.stream().filter(id -> !isr.contains(id)).toList();
            long[] range = offsets.get(new TopicPartition(topic, info.partition()));
            String path = "/topics/" + topic + "/partitions/" + info.partition();
            partitions.add(new Partition("KafkaPartition", V3Links.self(clusterId, path), clusterId, topic,
                info.partition(), leader == null ? null : V3Links.related(clusterId, path + "/replicas/" + leader),
                V3Links.related(clusterId, path + "/replicas"), leader, replicas, isr, outOfSync,
                sizes.get(info.partition()), range[0], range[1]));
        }
        return partitions;
    }

    private static TopicPartitionInfo partitionInfo(TopicDescription description, int partitionId) {
        return description.partitions().stream().filter(p -> p.partition() == partitionId).findFirst()
            .orElseThrow(() -> RestError.PARTITION_NOT_FOUND.exception("Partition " + partitionId + " of topic "
                + description.name() + " not found."));
    }

    static Topic topic(String clusterId, TopicDescription description) {
        String path = "/topics/" + description.name();
        int replicationFactor = description.partitions().isEmpty() ? 0
            : description.partitions().get(0).replicas().size();
        int underReplicated = (int) description.partitions().stream()
            .filter(p -> p.isr().size() < p.replicas().size()).count();
        int offline = (int) description.partitions().stream().filter(p -> p.leader() == null || p.leader().isEmpty())
            .count();
        return new Topic("KafkaTopic", V3Links.self(clusterId, path), clusterId, description.name(),
            description.isInternal(), replicationFactor, description.partitions().size(),
            V3Links.related(clusterId, path + "/partitions"), V3Links.related(clusterId, path + "/configs"),
            underReplicated, offline, operationNames(description.authorizedOperations()));
    }

    /** Kafka ACL operation names, sorted; null when the operations were not asked for. */
    static List<String> operationNames(Set<AclOperation> operations) {
        return operations == null ? null : operations.stream().map(AclOperation::name).sorted().toList();
    }

    private static TopicConfig config(String clusterId, String topic, ConfigEntry entry) {
        return new TopicConfig("KafkaTopicConfig", V3Links.self(clusterId, "/topics/" + topic + "/configs/"
            + entry.name()), clusterId, topic, entry.name(), entry.value(), entry.isDefault(), entry.isReadOnly(),
            entry.isSensitive(), entry.source() == null ? null : entry.source().name());
    }
}
