package io.tributary.broker.fetchsession;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.requests.FetchMetadata;
import org.apache.kafka.common.requests.FetchRequest;

/**
 * An incremental fetch session (KIP-227): the partitions a fetcher fetches, kept between its
 * requests so that each request names only the partitions whose parameters changed, and each
 * response only the partitions with something new.
 *
 * <p>The session's partitions keep an order: partitions that returned records move to the end,
 * so that when a response fills up ({@code max.bytes}) the others are read first next time.
 *
 * <p>Thread-safety: every method takes this session's monitor. The {@link FetchSessionCache}
 * lock may be taken before it, never after it.
 */
public final class FetchSession {

    private final int id;
    private final boolean privileged;
    private final boolean usesTopicIds;
    private final long creationMs;
    private final LinkedHashMap<SessionPartitionKey, CachedPartition> partitions = new LinkedHashMap<>();
    private long lastUsedMs;
    private int epoch;
    /** The size last recorded by the cache, or -1 while the session is not in it. Cache lock. */
    int cachedSize = -1;

    FetchSession(int id, boolean privileged, boolean usesTopicIds, long creationMs) {
        this.id = id;
        this.privileged = privileged;
        this.usesTopicIds = usesTopicIds;
        this.creationMs = creationMs;
        this.lastUsedMs = creationMs;
        this.epoch = FetchMetadata.nextEpoch(FetchMetadata.INITIAL_EPOCH);
    }

    /** The session id, positive and unique on this broker. */
    public int id() {
        return id;
    }

    /** Whether a follower created it: followers may evict consumers' sessions. */
    public boolean privileged() {
        return privileged;
    }

    /** Whether its partitions are named by topic id (Fetch v13+). */
    public boolean usesTopicIds() {
        return usesTopicIds;
    }

    long creationMs() {
        return creationMs;
    }

    /** The epoch the next request of this session must carry. */
    public synchronized int epoch() {
        return epoch;
    }

    synchronized void nextEpoch() {
        epoch = FetchMetadata.nextEpoch(epoch);
    }

    /** The number of partitions in the session. */
    public synchronized int size() {
        return partitions.size();
    }

    synchronized long lastUsedMs() {
        return lastUsedMs;
    }

    synchronized void lastUsedMs(long ms) {
        lastUsedMs = ms;
    }

    /** Adds a partition of a full fetch (creation only). */
    synchronized void add(TopicIdPartition tp, CachedPartition cached) {
        partitions.put(SessionPartitionKey.of(usesTopicIds, tp), cached);
    }

    /**
     * Applies an incremental request: the partitions it names are added or take its parameters,
     * then the forgotten ones are removed (a recreated topic is forgotten under its old id and
     * added under its new one).
     *
     * @return the partitions removed
     */
    synchronized List<TopicIdPartition> update(Map<TopicIdPartition, FetchRequest.PartitionData> fetchData,
                                               List<TopicIdPartition> toForget) {
        fetchData.forEach((tp, request) -> {
            CachedPartition cached = partitions.get(SessionPartitionKey.of(usesTopicIds, tp));
            if (cached == null) {
                partitions.put(SessionPartitionKey.of(usesTopicIds, tp),
                    new CachedPartition(tp.topic(), tp.topicId(), tp.partition(), request));
            } else {
                cached.updateRequestParams(request);
            }
        });
        List<TopicIdPartition> removed = new ArrayList<>();
        for (TopicIdPartition tp : toForget) {
            if (partitions.remove(SessionPartitionKey.of(usesTopicIds, tp)) != null) {
                removed.add(tp);
            }
        }
        return removed;
    }

    /**
     * Every partition of the session with the request parameters last sent for it, in session
     * order. A session by topic id names each partition by what its id names now
     * ({@code topicNames}; null when the id is unknown here): a topic deleted and created again
     * under the same name has a new id, and the old id must not read the new topic's log.
     */
    synchronized LinkedHashMap<TopicIdPartition, FetchRequest.PartitionData> partitionsToFetch(
            Function<Uuid, String> topicNames) {
        LinkedHashMap<TopicIdPartition, FetchRequest.PartitionData> fetch = new LinkedHashMap<>();
        for (CachedPartition cached : partitions.values()) {
            if (usesTopicIds) {
                cached.name(topicNames.apply(cached.topicId()));
            }
            fetch.put(new TopicIdPartition(cached.topicId(), new TopicPartition(cached.topic(), cached.partition())),
                cached.requestData());
        }
        return fetch;
    }

    /** The cached partition of {@code tp}, or null. */
    synchronized CachedPartition partition(TopicIdPartition tp) {
        return partitions.get(SessionPartitionKey.of(usesTopicIds, tp));
    }

    /** Moves a partition that returned records to the end of the session's order. Caller holds the monitor. */
    void moveToEnd(TopicIdPartition tp) {
        SessionPartitionKey key = SessionPartitionKey.of(usesTopicIds, tp);
        CachedPartition cached = partitions.remove(key);
        if (cached != null) {
            partitions.put(key, cached);
        }
    }

    @Override
    public synchronized String toString() {
        return "FetchSession(id=" + id + ", privileged=" + privileged + ", partitions=" + partitions.size()
            + ", usesTopicIds=" + usesTopicIds + ", creationMs=" + creationMs + ", lastUsedMs=" + lastUsedMs
            + ", epoch=" + epoch + ")";
    }
}
