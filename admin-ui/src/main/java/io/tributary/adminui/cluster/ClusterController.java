package io.tributary.adminui.cluster;

import io.tributary.adminui.cluster.ClusterOverview.BrokerStatus;
import io.tributary.adminui.cluster.ClusterOverview.BrokerView;
import io.tributary.adminui.proxy.ProxyResources.Cluster;
import io.tributary.adminui.proxy.ProxyResources.Topic;
import io.tributary.adminui.proxy.RestProxyClient;
import io.tributary.adminui.proxy.TopicStates;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/cluster}: the overview page's data. The partition health counts come with the
 * proxy's topic list (one call for the whole cluster); only a proxy without them is asked for
 * each topic's partition states ({@link TopicStates}). Down brokers are looked for only in topics
 * with under-replicated or offline partitions ({@link DownBrokers}), so a healthy cluster costs
 * three proxy calls (cluster, brokers, topics).
 */
@RestController
public class ClusterController {

    private final RestProxyClient proxy;
    private final TopicStates states;
    private final DownBrokers downBrokers;

    /** @param states fetches partition states of many topics concurrently */
    public ClusterController(RestProxyClient proxy, TopicStates states) {
        this.proxy = proxy;
        this.states = states;
        this.downBrokers = new DownBrokers(states);
    }

    /** The cluster id, controller, brokers (up and down) and topic and partition counts. */
    @GetMapping("/api/cluster")
    public ClusterOverview cluster() {
        Cluster cluster = proxy.cluster();
        List<BrokerView> brokers = new ArrayList<>(proxy.brokers(cluster.clusterId()).stream()
            .map(b -> new BrokerView(b.brokerId(), BrokerStatus.UP, b.host(), b.port(), b.rack())).toList());
        List<Topic> topics = proxy.topics(cluster.clusterId());
        int partitions = topics.stream().mapToInt(Topic::partitionsCount).sum();
        TopicStates.Health health = states.health(topics);
        int underReplicated = 0;
        int offline = 0;
        for (TopicStates.HealthCounts counts : health.counts().values()) {
            underReplicated += counts.underReplicated();
            offline += counts.offline();
        }
        Set<Integer> registered = brokers.stream().map(BrokerView::id).collect(Collectors.toSet());
        DownBrokers.Found down = downBrokers.find(registered, health.counts(), health.read());
        down.ids().forEach(id -> brokers.add(BrokerView.down(id)));
        brokers.sort(Comparator.comparingInt(BrokerView::id));
        return new ClusterOverview(cluster.clusterId(), cluster.controllerId(), brokers, topics.size(),
            (int) topics.stream().filter(Topic::internal).count(), partitions,
            underReplicated, offline, down.unchecked());
    }
}
