package io.tributary.broker.replica;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What this broker does when one of its log directories fails (KIP-112): every partition in it
 * goes offline here until a restart, its fetcher stops, its leadership ends (the group coordinator
 * is told), the requests waiting on it complete, and the cluster is told the offline replicas so
 * the controller elects other leaders.
 *
 * <p>Thread-safe. {@link #onLogDirFailure} runs on the thread that met the I/O error; the waiting
 * requests and the cluster are told on the completion thread.
 */
public final class LogDirFailureHandler {

    private static final Logger log = LoggerFactory.getLogger(LogDirFailureHandler.class);

    private final HostedPartitions partitions;
    private final ReplicaFetcherManager fetcherManager;
    private final LeadershipListeners leadershipListeners;
    private final DelayedRequests delayed;
    private volatile Consumer<Set<TopicPartition>> offlineReplicasListener = tps -> { };

    LogDirFailureHandler(HostedPartitions partitions, ReplicaFetcherManager fetcherManager,
                         LeadershipListeners leadershipListeners, DelayedRequests delayed) {
        this.partitions = partitions;
        this.fetcherManager = fetcherManager;
        this.leadershipListeners = leadershipListeners;
        this.delayed = delayed;
    }

    /**
     * Tells {@code listener} (on a background thread) the partitions whose replica here is offline,
     * each time the set grows; set once the broker is registered, since it publishes them there.
     */
    public void setOfflineReplicasListener(Consumer<Set<TopicPartition>> listener) {
        this.offlineReplicasListener = listener;
    }

    /** {@code logDir} went offline: its partitions stop here and the cluster is told. */
    public void onLogDirFailure(File logDir) {
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
        Set<TopicPartition> offline = partitions.offline();
        delayed.runLater(() -> {
            lost.forEach(delayed::checkAndComplete);
            offlineReplicasListener.accept(offline);
        });
    }
}
