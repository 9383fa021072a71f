package io.tributary.restproxy.v3;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.tributary.restproxy.error.RestError;
import io.tributary.restproxy.v3.BrokersAdmin.TopicPartitionReplica;
import io.tributary.restproxy.v3.V3BrokerResources.BrokerConfig;
import io.tributary.restproxy.v3.V3BrokerResources.ClusterConfig;
import io.tributary.restproxy.v3.V3BrokerResources.ConfigSynonym;
import io.tributary.restproxy.v3.V3BrokerResources.LogDir;
import io.tributary.restproxy.v3.V3BrokerResources.LogDirReplica;
import io.tributary.restproxy.v3.V3Resources.AlterConfigsRequest;
import io.tributary.restproxy.v3.V3Resources.ConfigValue;
import io.tributary.restproxy.v3.V3Resources.Replica;
import io.tributary.restproxy.v3.V3Resources.ResourceList;
import io.tributary.restproxy.v3.V3Resources.UpdateConfigRequest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.ApiException;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * v3 broker configs (per broker and cluster-wide, as Confluent's), a broker's partition replicas
 * (Confluent's, with the partition's leader, replicas and ISR added) and its log directories (ours).
 */
@RestController
@RequestMapping(path = "/v3/clusters/{clusterId}", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Brokers (v3)", description = "Broker configs, cluster-wide broker configs, partition replicas, log dirs")
public class V3BrokersController {

    private final ClusterAdmin cluster;
    private final BrokersAdmin brokers;

    public V3BrokersController(ClusterAdmin cluster, BrokersAdmin brokers) {
        this.cluster = cluster;
        this.brokers = brokers;
    }

    @GetMapping("/brokers/{brokerId}/configs")
    @Operation(summary = "List a broker's configs", description = "Each with its source (DYNAMIC_BROKER_CONFIG, "
        + "DYNAMIC_DEFAULT_BROKER_CONFIG, STATIC_BROKER_CONFIG, DEFAULT_CONFIG) and synonyms, the other places "
        + "the broker looks, in order. Errors: 404 unknown cluster or broker.")
    public ResourceList<BrokerConfig> brokerConfigs(@PathVariable String clusterId, @PathVariable int brokerId) {
        checkBroker(clusterId, brokerId);
        return new ResourceList<>("KafkaBrokerConfigList", V3Links.self(clusterId, "/brokers/" + brokerId + "/configs"),
            brokers.configs(Optional.of(brokerId)).stream().map(c -> brokerConfig(clusterId, brokerId, c)).toList());
    }

    @GetMapping("/brokers/{brokerId}/configs/{name}")
    @Operation(summary = "Get one broker config", description = "Errors: 404 unknown cluster, broker or config.")
    public BrokerConfig brokerConfig(@PathVariable String clusterId, @PathVariable int brokerId,
            @PathVariable String name) {
        checkBroker(clusterId, brokerId);
        return brokers.configs(Optional.of(brokerId)).stream().filter(c -> c.name().equals(name)).findFirst()
            .map(c -> brokerConfig(clusterId, brokerId, c))
            .orElseThrow(() -> RestError.NOT_FOUND.exception("Config " + name + " of broker " + brokerId + " not found."));
    }

    @PutMapping(path = "/brokers/{brokerId}/configs/{name}", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Set a dynamic config of one broker", description = "Body {\"value\": ...}; its source "
        + "becomes DYNAMIC_BROKER_CONFIG. Needs ALTER_CONFIGS on the cluster. Errors: 404, 400 not dynamic or bad value.")
    public ResponseEntity<Void> setBrokerConfig(@PathVariable String clusterId, @PathVariable int brokerId,
            @PathVariable String name, @RequestBody UpdateConfigRequest request) {
        checkBroker(clusterId, brokerId);
        brokers.alterConfigs(Optional.of(brokerId), Map.of(name, Optional.ofNullable(request.value())));
        return ResponseEntity.noContent().build();
    }

    @DeleteMapping("/brokers/{brokerId}/configs/{name}")
    @Operation(summary = "Remove a broker's dynamic config", description = "Its value falls back to the next "
        + "synonym (the cluster-wide default, the static config, Kafka's default). Errors: 404, 400.")
    public ResponseEntity<Void> resetBrokerConfig(@PathVariable String clusterId, @PathVariable int brokerId,
            @PathVariable String name) {
        checkBroker(clusterId, brokerId);
        brokers.alterConfigs(Optional.of(brokerId), Map.of(name, Optional.empty()));
        return ResponseEntity.noContent().build();
    }

    @PostMapping(path = "/brokers/{brokerId}/configs:alter", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Alter several configs of one broker at once",
        description = "Body {\"data\":[{\"name\":..,\"value\":..,\"operation\":\"SET\"|\"DELETE\"}]}. Errors: 404, 400.")
    public ResponseEntity<Void> alterBrokerConfigs(@PathVariable String clusterId, @PathVariable int brokerId,
            @RequestBody AlterConfigsRequest request) {
        checkBroker(clusterId, brokerId);
        brokers.alterConfigs(Optional.of(brokerId), changes(request));
        return ResponseEntity.noContent().build();
    }

    @GetMapping("/broker-configs")
    @Operation(summary = "List the cluster-wide dynamic broker configs",
        description = "The defaults set for every broker (source DYNAMIC_DEFAULT_BROKER_CONFIG). Errors: 404.")
    public ResourceList<ClusterConfig> clusterConfigs(@PathVariable String clusterId) {
        cluster.checkCluster(clusterId);
        return new ResourceList<>("KafkaClusterConfigList", V3Links.self(clusterId, "/broker-configs"),
            brokers.configs(Optional.empty()).stream().map(c -> clusterConfig(clusterId, c)).toList());
    }

    @GetMapping("/broker-configs/{name}")
    @Operation(summary = "Get one cluster-wide broker config", description = "Errors: 404 unknown cluster or not set.")
    public ClusterConfig clusterConfig(@PathVariable String clusterId, @PathVariable String name) {
        cluster.checkCluster(clusterId);
        return brokers.configs(Optional.empty()).stream().filter(c -> c.name().equals(name)).findFirst()
            .map(c -> clusterConfig(clusterId, c))
            .orElseThrow(() -> RestError.NOT_FOUND.exception("Cluster-wide broker config " + name + " not set."));
    }

    @PutMapping(path = "/broker-configs/{name}", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Set a cluster-wide broker config", description = "Body {\"value\": ...}. Errors: 404, 400.")
    public ResponseEntity<Void> setClusterConfig(@PathVariable String clusterId, @PathVariable String name,
            @RequestBody UpdateConfigRequest request) {
        cluster.checkCluster(clusterId);
        brokers.alterConfigs(Optional.empty(), Map.of(name, Optional.ofNullable(request.value())));
        return ResponseEntity.noContent().build();
    }

    @DeleteMapping("/broker-configs/{name}")
    @Operation(summary = "Remove a cluster-wide broker config", description = "Errors: 404, 400.")
    public ResponseEntity<Void> resetClusterConfig(@PathVariable String clusterId, @PathVariable String name) {
        cluster.checkCluster(clusterId);
        brokers.alterConfigs(Optional.empty(), Map.of(name, Optional.empty()));
        return ResponseEntity.noContent().build();
    }

    @PostMapping(path = "/broker-configs:alter", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Alter several cluster-wide broker configs at once",
        description = "Body {\"data\":[{\"name\":..,\"value\":..,\"operation\":\"SET\"|\"DELETE\"}]}. Errors: 404, 400.")
    public ResponseEntity<Void> alterClusterConfigs(@PathVariable String clusterId,
            @RequestBody AlterConfigsRequest request) {
        cluster.checkCluster(clusterId);
        brokers.alterConfigs(Optional.empty(), changes(request));
        return ResponseEntity.noContent().build();
    }

    @GetMapping("/brokers/{brokerId}/partition-replicas")
    @Operation(summary = "List the partition replicas a broker holds",
        description = "As Confluent's, with each partition's leader_id, replica_ids and isr_ids added. Errors: 404.")
    public ResourceList<Replica> partitionReplicas(@PathVariable String clusterId, @PathVariable int brokerId) {
        checkBroker(clusterId, brokerId);
        List<Replica> replicas = brokers.partitionReplicas(brokerId).stream()
            .map(r -> replica(clusterId, brokerId, r)).toList();
        return new ResourceList<>("KafkaReplicaList",
            V3Links.self(clusterId, "/brokers/" + brokerId + "/partition-replicas"), replicas);
    }

    @GetMapping("/brokers/{brokerId}/log-dirs")
    @Operation(summary = "List a broker's log directories (Tributary; Confluent has none)",
        description = "Each with its error (null when healthy), the bytes of its replicas, the volume's total and "
            + "usable bytes, and its replicas (DescribeLogDirs). Needs DESCRIBE on the cluster. Errors: 404.")
    public ResourceList<LogDir> logDirs(@PathVariable String clusterId, @PathVariable int brokerId) {
        checkBroker(clusterId, brokerId);
        List<LogDir> dirs = brokers.logDirs(brokerId).entrySet().stream()
            .sorted(Map.Entry.comparingByKey()).map(e -> logDir(clusterId, brokerId, e.getKey(), e.getValue())).toList();
        return new ResourceList<>("KafkaLogDirList", V3Links.self(clusterId, "/brokers/" + brokerId + "/log-dirs"), dirs);
    }

    private void checkBroker(String clusterId, int brokerId) {
        ClusterAdmin.ClusterInfo info = cluster.cluster();
        if (!info.clusterId().equals(clusterId)) {
            throw RestError.NOT_FOUND.exception("Cluster " + clusterId + " not found; this is cluster "
                + info.clusterId());
        }
        if (info.brokers().stream().noneMatch(n -> n.id() == brokerId)) {
            throw RestError.NOT_FOUND.exception("Broker " + brokerId + " not found.");
        }
    }

    private static Map<String, Optional<String>> changes(AlterConfigsRequest request) {
        if (request.data() == null) {
            throw RestError.BAD_REQUEST.exception("data is required");
        }
        Map<String, Optional<String>> changes = new LinkedHashMap<>();
        for (ConfigValue config : request.data()) {
            if (config == null || config.name() == null || config.name().isBlank()) {
                throw RestError.BAD_REQUEST.exception("Every config needs a \"name\"");
            }
            String operation = config.operation() == null ? "SET" : config.operation().toUpperCase(Locale.ROOT);
            switch (operation) {
                case "SET" -> changes.put(config.name(), Optional.ofNullable(config.value()));
                case "DELETE" -> changes.put(config.name(), Optional.empty());
                default -> throw RestError.BAD_REQUEST.exception("operation must be SET or DELETE");
            }
        }
        return changes;
    }

    private static List<ConfigSynonym> synonyms(ConfigEntry entry) {
        return entry.synonyms().stream().map(s -> new ConfigSynonym(s.name(), s.value(),
            s.source() == null ? null : s.source().name())).toList();
    }

    private static BrokerConfig brokerConfig(String clusterId, int brokerId, ConfigEntry entry) {
        return new BrokerConfig("KafkaBrokerConfig", V3Links.self(clusterId, "/brokers/" + brokerId + "/configs/"
            + entry.name()), clusterId, brokerId, entry.name(), entry.value(), entry.isDefault(), entry.isReadOnly(),
            entry.isSensitive(), entry.source() == null ? null : entry.source().name(), synonyms(entry));
    }

    private static ClusterConfig clusterConfig(String clusterId, ConfigEntry entry) {
        return new ClusterConfig("KafkaClusterConfig", V3Links.self(clusterId, "/broker-configs/" + entry.name()),
            clusterId, "BROKER", entry.name(), entry.value(), entry.isDefault(), entry.isReadOnly(),
            entry.isSensitive(), entry.source() == null ? null : entry.source().name(), synonyms(entry));
    }

    private static Replica replica(String clusterId, int brokerId, TopicPartitionReplica r) {
        TopicPartitionInfo info = r.partition();
        Integer leader = info.leader() == null || info.leader().isEmpty() ? null : info.leader().id();
        List<Integer> isr = info.isr().stream().map(Node::id).toList();
        String path = "/topics/" + r.topic() + "/partitions/" + info.partition() + "/replicas/" + brokerId;
        return new Replica("KafkaReplica", V3Links.self(clusterId, path), clusterId, r.topic(), info.partition(),
            brokerId, leader != null && leader == brokerId, isr.contains(brokerId),
            V3Links.related(clusterId, "/brokers/" + brokerId), leader,
            info.replicas().stream().map(Node::id).toList(), isr);
    }

    private static LogDir logDir(String clusterId, int brokerId, String path, LogDirDescription dir) {
        ApiException error = dir.error();
        List<LogDirReplica> replicas = dir.replicaInfos().entrySet().stream()
            .sorted((x, y) -> x.getKey().toString().compareTo(y.getKey().toString()))
            .map(e -> new LogDirReplica(e.getKey().topic(), e.getKey().partition(), e.getValue().size(),
                e.getValue().offsetLag(), e.getValue().isFuture()))
            .toList();
        long size = replicas.stream().mapToLong(LogDirReplica::sizeBytes).sum();
        return new LogDir("KafkaLogDir", clusterId, brokerId, path,
            error == null ? null : error.getClass().getSimpleName() + (error.getMessage() == null ? ""
                : ": " + error.getMessage()),
            size, dir.totalBytes().isPresent() ? dir.totalBytes().getAsLong() : null,
            dir.usableBytes().isPresent() ? dir.usableBytes().getAsLong() : null, replicas);
    }
}
