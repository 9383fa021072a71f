package io.tributary.adminui.cluster;

import io.tributary.adminui.proxy.ProxyResources.Cluster;
import io.tributary.adminui.proxy.ProxyResources.PartitionState;
import io.tributary.adminui.proxy.ProxyResources.Topic;
import io.tributary.adminui.proxy.RestProxyClient;
import io.tributary.adminui.proxy.TopicStates;
import java.util.Comparator;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/cluster}: the overview page's data. The partition health counts need each
 * topic's ISR, which the proxy's topic list does not carry, so this asks the proxy for every
 * topic's partition states (v2, no offset lookups), a few topics at a time.
 */
@RestController
public class ClusterController {

    private final RestProxyClient proxy;
    private final TopicStates states;

    /** @param states fetches partition states of many topics concurrently */
    public ClusterController(RestProxyClient proxy, TopicStates states) {
        this.proxy = proxy;
        this.states = states;
    }

    /** The cluster id, controller, brokers and topic and partition counts. */
    @GetMapping("/api/cluster")
    public ClusterOverview cluster() {
        Cluster cluster = proxy.cluster();
        List<ClusterOverview.BrokerView> brokers = proxy.brokers(cluster.clusterId()).stream()
            .sorted(Comparator.comparingInt(b -> b.brokerId()))
            .map(b -> new ClusterOverview.BrokerView(b.brokerId(), b.host(), b.port(), b.rack())).toList();
        List<Topic> topics = proxy.topics(cluster.clusterId());
        int partitions = topics.stream().mapToInt(Topic::partitionsCount).sum();
        int underReplicated = 0;
        int offline = 0;
        for (List<PartitionState> topic : states.of(topics.stream().map(Topic::topicName).toList()).values()) {
            for (PartitionState partition : topic) {
                underReplicated += partition.underReplicated() ? 1 : 0;
                offline += partition.offline() ? 1 : 0;
            }
        }
        return new ClusterOverview(cluster.clusterId(), cluster.controllerId(), brokers, topics.size(), partitions,
            underReplicated, offline);
    }
}
