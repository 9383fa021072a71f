package io.tributary.restproxy.v3;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.tributary.restproxy.error.RestError;
import io.tributary.restproxy.v3.ClusterAdmin.ClusterInfo;
import io.tributary.restproxy.v3.V3Resources.Broker;
import io.tributary.restproxy.v3.V3Resources.Cluster;
import io.tributary.restproxy.v3.V3Resources.Metadata;
import io.tributary.restproxy.v3.V3Resources.ResourceList;
import java.util.Comparator;
import java.util.List;
import org.apache.kafka.common.Node;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

/** v3 clusters and brokers. */
@RestController
@RequestMapping(path = "/v3/clusters", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Clusters (v3)", description = "The cluster and its brokers")
public class V3ClustersController {

    private final ClusterAdmin admin;

    public V3ClustersController(ClusterAdmin admin) {
        this.admin = admin;
    }

    @GetMapping
    @Operation(summary = "List clusters (the one this proxy serves)")
    public ResourceList<Cluster> clusters() {
        Cluster cluster = cluster(admin.cluster());
        return new ResourceList<>("KafkaClusterList",
            Metadata.of(ServletUriComponentsBuilder.fromCurrentContextPath().toUriString() + "/v3/clusters"),
            List.of(cluster));
    }

    @GetMapping("/{clusterId}")
    @Operation(summary = "Describe the cluster", description = "With include_authorized_operations=true: the "
        + "cluster operations the caller may do (authorized_operations, e.g. CREATE). Errors: 404 unknown cluster id.")
    public Cluster cluster(@PathVariable String clusterId,
            @RequestParam(name = "include_authorized_operations", defaultValue = "false") boolean includeOperations) {
        ClusterInfo info = admin.cluster();
        check(info, clusterId);
        Cluster cluster = cluster(info);
        if (!includeOperations) {
            return cluster;
        }
        return new Cluster(cluster.kind(), cluster.metadata(), cluster.clusterId(), cluster.controller(),
            cluster.brokers(), cluster.topics(), cluster.consumerGroups(),
            V3TopicsController.operationNames(admin.clusterAuthorizedOperations()));
    }

    @GetMapping("/{clusterId}/brokers")
    @Operation(summary = "List brokers", description = "Errors: 404 unknown cluster id.")
    public ResourceList<Broker> brokers(@PathVariable String clusterId) {
        ClusterInfo info = admin.cluster();
        check(info, clusterId);
        return new ResourceList<>("KafkaBrokerList", V3Links.self(clusterId, "/brokers"),
            info.brokers().stream().sorted(Comparator.comparingInt(Node::id)).map(n -> broker(clusterId, n)).toList());
    }

    @GetMapping("/{clusterId}/brokers/{brokerId}")
    @Operation(summary = "Describe a broker", description = "Errors: 404 unknown cluster or broker.")
    public Broker broker(@PathVariable String clusterId, @PathVariable int brokerId) {
        ClusterInfo info = admin.cluster();
        check(info, clusterId);
        return info.brokers().stream().filter(n -> n.id() == brokerId).findFirst()
            .map(n -> broker(clusterId, n))
            .orElseThrow(() -> RestError.NOT_FOUND.exception("Broker " + brokerId + " not found."));
    }

    private static void check(ClusterInfo info, String clusterId) {
        if (!info.clusterId().equals(clusterId)) {
            throw RestError.NOT_FOUND.exception("Cluster " + clusterId + " not found; this is cluster "
                + info.clusterId());
        }
    }

    private static Cluster cluster(ClusterInfo info) {
        String id = info.clusterId();
        return new Cluster("KafkaCluster", V3Links.self(id, ""), id,
            info.controller() == null || info.controller().isEmpty() ? null
                : V3Links.related(id, "/brokers/" + info.controller().id()),
            V3Links.related(id, "/brokers"), V3Links.related(id, "/topics"), V3Links.related(id, "/consumer-groups"),
            null);
    }

    private static Broker broker(String clusterId, Node node) {
        return new Broker("KafkaBroker", V3Links.self(clusterId, "/brokers/" + node.id()), clusterId, node.id(),
            node.host(), node.port(), node.rack(), V3Links.related(clusterId, "/brokers/" + node.id()
                + "/partition-replicas"));
    }
}
