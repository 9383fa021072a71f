package io.tributary.adminui.cluster;

import io.tributary.adminui.proxy.ProxyResources.Cluster;
import io.tributary.adminui.proxy.ProxyResources.Topic;
import io.tributary.adminui.proxy.RestProxyClient;
import io.tributary.adminui.proxy.TopicStates;
import java.util.Comparator;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/cluster}: the overview page's data. The partition health counts come with the
 * proxy's topic list (one call for the whole cluster); only a proxy without them is asked for
 * each topic's partition states ({@link TopicStates}).
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
        for (TopicStates.HealthCounts counts : states.healthOf(topics).values()) {
            underReplicated += counts.underReplicated();
            offline += counts.offline();
        }
        return new ClusterOverview(cluster.clusterId(), cluster.controllerId(), brokers, topics.size(), partitions,
            underReplicated, offline);
    }
}
