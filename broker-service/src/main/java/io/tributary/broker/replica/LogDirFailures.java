package io.tributary.broker.replica;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a failed log directory does to this broker's replicas (KIP-112): every partition in it goes
 * offline here until a restart, its fetcher stops, its leadership ends (the group coordinator is
 * told), and the requests waiting on it complete. Run by the {@link LogDirFailureHandler} thread,
 * which then tells the cluster, so that the controller elects other leaders.
 *
 * <p>Thread-safe.
 */
public final class LogDirFailures {

    private static final Logger log = LoggerFactory.getLogger(LogDirFailures.class);

    private final HostedPartitions partitions;
    private final ReplicaFetcherManager fetcherManager;
    private final LeadershipListeners leadershipListeners;
    private final DelayedRequests delayed;

    LogDirFailures(HostedPartitions partitions, ReplicaFetcherManager fetcherManager,
                   LeadershipListeners leadershipListeners, DelayedRequests delayed) {
        this.partitions = partitions;
        this.fetcherManager = fetcherManager;
        this.leadershipListeners = leadershipListeners;
        this.delayed = delayed;
    }

    /**
     * Takes the partitions of {@code logDir}, which the log manager has already taken offline, offline
     * here too.
     *
     * @return every partition whose replica on this broker is offline now, for the cluster
     */
    public Set<TopicPartition> takeOffline(File logDir) {
        List<TopicPartition> lost = new ArrayList<>();
        for (Partition partition : List.copyOf(partitions.all())) {
            boolean inDir = partition.log().map(l -> l.dir().getParentFile().equals(logDir)).orElse(false);
            if (inDir) {
                TopicPartition tp = partition.topicPartition();
                partitions.markOffline(tp);
                fetcherManager.removePartitions(Set.of(tp));
                if (partition.isLeader()) {
                    leadershipListeners.resigned(tp);
                }
                lost.add(tp);
            }
        }
        log.error("Broker {}: replicas {} are offline with log directory {}", partitions.brokerId(), lost, logDir);
        lost.forEach(delayed::checkAndComplete);
        return partitions.offline();
    }
}
