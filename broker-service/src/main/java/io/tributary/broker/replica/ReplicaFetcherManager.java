package io.tributary.broker.replica;

import io.tributary.broker.quota.ReplicationQuotaManager;
import java.io.Closeable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntFunction;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The follower side of replication: which {@link ReplicaFetcherThread} copies each followed
 * partition. A partition goes to the fetcher of its leader numbered
 * {@code hash(partition) % num.replica.fetchers}, so partitions of one leader spread over that
 * many threads and connections; fetchers left without partitions stop.
 *
 * <p>Thread-safe (synchronized; called on role changes).
 */
public final class ReplicaFetcherManager implements Closeable {

    private static final Logger log = LoggerFactory.getLogger(ReplicaFetcherManager.class);

    /** A fetcher: the source broker and its number among that broker's fetchers. */
    private record FetcherKey(int sourceBrokerId, int fetcherId) {
    }

    private final int brokerId;
    private int numFetchers;
    private final ReplicaFetcherThread.Config config;
    private final IntFunction<Optional<Node>> brokerNodes;
    private final Time time;
    private final Map<FetcherKey, ReplicaFetcherThread> fetchers = new HashMap<>();
    private final Map<TopicPartition, FetcherKey> assignment = new HashMap<>();
    private final FollowerPartitions partitions;
    private boolean closed;

    /**
     * @param numFetchers {@code num.replica.fetchers}
     * @param brokerNodes the inter-broker address of a live broker, or empty
     * @param partitions  what the fetchers append to and tell
     */
    private final ReplicationQuotaManager followerQuota;

    ReplicaFetcherManager(int brokerId, int numFetchers, ReplicaFetcherThread.Config config,
                          IntFunction<Optional<Node>> brokerNodes, FollowerPartitions partitions,
                          ReplicationQuotaManager followerQuota, Time time) {
        this.followerQuota = followerQuota;
        this.brokerId = brokerId;
        this.partitions = partitions;
        this.numFetchers = numFetchers;
        this.config = config;
        this.brokerNodes = brokerNodes;
        this.time = time;
    }

    /**
     * Settings of the fetch requests followers send.
     *
     * @param clientConfigs Kafka client configs of the connections to leaders ({@code security.protocol},
     *                      TLS, SASL), as {@code BrokerSecurityProperties.clientConfigs} gives them
     */
    public static ReplicaFetcherThread.Config config(int maxWaitMs, int minBytes, int maxBytes, int responseMaxBytes,
                                                     int backoffMs, int socketTimeoutMs, String listenerName,
                                                     java.util.Map<String, Object> clientConfigs) {
        return new ReplicaFetcherThread.Config(maxWaitMs, minBytes, maxBytes, responseMaxBytes, backoffMs, socketTimeoutMs,
            listenerName, java.util.Collections.unmodifiableMap(new java.util.HashMap<>(clientConfigs)));
    }

    /**
     * Starts fetching {@code tp} from {@code leaderId}.
     *
     * @param state where to fetch from and in which leader epoch
     */
    synchronized void addPartition(TopicPartition tp, int leaderId, PartitionFetchState state) {
        if (closed) {
            return;
        }
        removePartitions(Set.of(tp));
        FetcherKey key = new FetcherKey(leaderId, Math.floorMod(31 * tp.topic().hashCode() + tp.partition(), numFetchers));
        ReplicaFetcherThread fetcher = fetchers.computeIfAbsent(key, k -> {
            ReplicaFetcherThread thread = new ReplicaFetcherThread("ReplicaFetcherThread-" + k.fetcherId() + "-"
                + k.sourceBrokerId() + "-on-" + brokerId, brokerId, k.sourceBrokerId(), config, partitions,
                brokerNodes, followerQuota, time);
            thread.start();
            return thread;
        });
        fetcher.addPartitions(Map.of(tp, state));
        assignment.put(tp, key);
    }

    /**
     * Sets {@code num.replica.fetchers} while the broker runs, as Kafka's
     * {@code AbstractFetcherManager.resizeThreadPool}: every followed partition is taken from its
     * fetcher with its fetch offset and leader epoch and given to the fetcher its hash picks under
     * the new count; fetchers numbered above the new count stop (outside this manager's lock).
     *
     * @throws IllegalArgumentException {@code newSize} below 1
     */
    public void resize(int newSize) {
        if (newSize < 1) {
            throw new IllegalArgumentException("num.replica.fetchers must be positive, was " + newSize);
        }
        List<ReplicaFetcherThread> stopped = new ArrayList<>();
        synchronized (this) {
            if (closed || newSize == numFetchers) {
                return;
            }
            log.info("Resizing the replica fetchers of broker {} from {} to {} per source broker", brokerId,
                numFetchers, newSize);
            numFetchers = newSize;
            Map<TopicPartition, Integer> leaders = new HashMap<>();
            Map<TopicPartition, PartitionFetchState> states = new HashMap<>();
            for (Map.Entry<FetcherKey, ReplicaFetcherThread> e : fetchers.entrySet()) {
                e.getValue().removeAllPartitions().forEach((tp, state) -> {
                    states.put(tp, state);
                    leaders.put(tp, e.getKey().sourceBrokerId());
                });
            }
            assignment.clear();
            fetchers.entrySet().removeIf(e -> {
                if (e.getKey().fetcherId() >= newSize) {
                    stopped.add(e.getValue());
                    return true;
                }
                return false;
            });
            states.forEach((tp, state) -> addPartition(tp, leaders.get(tp), state));
        }
        stopped.forEach(ReplicaFetcherThread::shutdown);
    }

    /** Stops fetching partitions; once it returns nothing more is appended to them by a fetcher. */
    synchronized void removePartitions(Set<TopicPartition> tps) {
        for (TopicPartition tp : tps) {
            FetcherKey key = assignment.remove(tp);
            if (key != null) {
                ReplicaFetcherThread fetcher = fetchers.get(key);
                if (fetcher != null) {
                    fetcher.removePartitions(Set.of(tp));
                }
            }
        }
    }

    /** Stops fetchers that have no partitions left (waiting for them outside this manager's lock). */
    void shutdownIdleFetchers() {
        List<ReplicaFetcherThread> idle = new ArrayList<>();
        synchronized (this) {
            fetchers.entrySet().removeIf(e -> {
                if (e.getValue().partitionCount() == 0) {
                    idle.add(e.getValue());
                    return true;
                }
                return false;
            });
        }
        idle.forEach(ReplicaFetcherThread::shutdown);
    }

    /** The fetch state of a followed partition, for tests. */
    synchronized Optional<PartitionFetchState> fetchState(TopicPartition tp) {
        FetcherKey key = assignment.get(tp);
        return key == null ? Optional.empty() : Optional.ofNullable(fetchers.get(key)).flatMap(f -> f.fetchState(tp));
    }

    /**
     * Has every running fetcher re-read its TLS key and trust stores before its next fetch, so
     * connections to leaders opened from then on use a rotated certificate or CA (fetchers started
     * later read the files anyway). Returns at once; refusals are logged by each fetcher.
     */
    public synchronized void reloadSslStores() {
        fetchers.values().forEach(ReplicaFetcherThread::requestSslReload);
    }

    /** Number of running fetcher threads. */
    public synchronized int fetcherCount() {
        return fetchers.size();
    }

    /** Stops every fetcher for good; waits for them outside this manager's lock. */
    @Override
    public void close() {
        List<ReplicaFetcherThread> stopping;
        synchronized (this) {
            closed = true;
            stopping = new ArrayList<>(fetchers.values());
            fetchers.clear();
            assignment.clear();
        }
        stopping.forEach(ReplicaFetcherThread::shutdown);
        log.debug("Replica fetchers of broker {} stopped", brokerId);
    }
}
