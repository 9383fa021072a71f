package io.tributary.adminui.cluster;

import io.tributary.adminui.proxy.ProxyResources.PartitionState;
import io.tributary.adminui.proxy.ProxyResources.ReplicaState;
import io.tributary.adminui.proxy.RestProxyException;
import io.tributary.adminui.proxy.TopicStates;
import io.tributary.adminui.proxy.TopicStates.HealthCounts;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the brokers that are down: broker ids in some partition's replica assignment that are not
 * registered with the cluster. A broker that stops keeps its assignments, so its id stays in the
 * replica lists while it is gone from the proxy's broker list.
 *
 * <p>Cost: a down broker's replicas drop out of their partitions' ISR (or the partitions go
 * offline), so only topics with an under-replicated or offline partition can name one. Only those
 * topics' partition states are read (v2, through {@link TopicStates}: at most 8 calls at a time), at
 * most {@value #MAX_TOPICS_READ} of them; a healthy cluster costs no call. States already read for
 * the health counts (a proxy without them in its topic list) are used as they are.
 *
 * <p>Errors: a proxy error while reading leaves the topics of that read unchecked (counted, not
 * thrown), so the overview still shows the registered brokers. Thread-safe: no mutable state.
 */
final class DownBrokers {

    /** Topics whose partition states one overview reads at most to find down brokers. */
    static final int MAX_TOPICS_READ = 50;

    private static final Logger log = LoggerFactory.getLogger(DownBrokers.class);

    /**
     * What was found.
     *
     * @param ids       broker ids assigned replicas but not registered, ascending
     * @param unchecked topics with under-replicated or offline partitions whose partition states were
     *                  not read: over {@value #MAX_TOPICS_READ}, or their read failed; a broker
     *                  assigned only to those is missing from {@code ids}
     */
    record Found(SortedSet<Integer> ids, int unchecked) {
    }

    private final TopicStates states;

    /** @param states reads partition states of many topics concurrently */
    DownBrokers(TopicStates states) {
        this.states = states;
    }

    /**
     * The down brokers.
     *
     * @param registered ids of the brokers the proxy lists
     * @param counts     each topic's health counts, by name
     * @param read       partition states already read, by topic name (may be empty)
     */
    Found find(Set<Integer> registered, Map<String, HealthCounts> counts, Map<String, List<PartitionState>> read) {
        SortedSet<Integer> down = new TreeSet<>();
        List<String> toRead = new ArrayList<>();
        counts.forEach((topic, health) -> {
            if (health.healthy()) {
                return;
            }
            List<PartitionState> known = read.get(topic);
            if (known != null) {
                addUnregistered(known, registered, down);
            } else {
                toRead.add(topic);
            }
        });
        int unchecked = Math.max(0, toRead.size() - MAX_TOPICS_READ);
        List<String> reading = toRead.subList(0, Math.min(toRead.size(), MAX_TOPICS_READ));
        if (!reading.isEmpty()) {
            try {
                states.of(reading).values().forEach(partitions -> addUnregistered(partitions, registered, down));
            } catch (RestProxyException e) {
                log.warn("Could not read the partitions of {} topics to find down brokers: {}", reading.size(),
                    e.getMessage());
                unchecked += reading.size();
            }
        }
        return new Found(down, unchecked);
    }

    private static void addUnregistered(Collection<PartitionState> partitions, Set<Integer> registered,
            SortedSet<Integer> down) {
        for (PartitionState partition : partitions) {
            for (ReplicaState replica : partition.replicas()) {
                if (!registered.contains(replica.broker())) {
                    down.add(replica.broker());
                }
            }
        }
    }
}
