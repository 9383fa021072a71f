package io.tributary.broker.fetchsession;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.FetchMetadata;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives each Fetch request its {@link FetchContext} under the rules of KIP-227, as Kafka's
 * {@code FetchManager}:
 * <ul>
 *   <li>a full request (epoch 0 or -1) closes the session it names, if any; epoch -1 asks for no
 *       new session, epoch 0 for one;</li>
 *   <li>an incremental request (epoch 1 or more) must name a cached session
 *       ({@code FETCH_SESSION_ID_NOT_FOUND}) at its current epoch ({@code INVALID_FETCH_SESSION_EPOCH}),
 *       with topic ids if and only if the session was made with them ({@code FETCH_SESSION_TOPIC_ID_ERROR});
 *       its partitions are added or updated, the forgotten ones removed, and the epoch moves on. A
 *       session left with no partition is closed and the request served as sessionless.</li>
 * </ul>
 * Thread-safe.
 */
public final class FetchManager {

    private static final Logger log = LoggerFactory.getLogger(FetchManager.class);

    /** Kafka's fixed {@code min.incremental.fetch.session.eviction.ms}: 2 minutes. */
    public static final long MIN_INCREMENTAL_FETCH_SESSION_EVICTION_MS = 120_000;

    private final Time time;
    private final FetchSessionCache cache;
    private final LongAdder[] requests = new LongAdder[FetchContext.Kind.values().length * 2];

    public FetchManager(Time time, FetchSessionCache cache) {
        this.time = time;
        this.cache = cache;
        for (int i = 0; i < requests.length; i++) {
            requests[i] = new LongAdder();
        }
    }

    public FetchSessionCache cache() {
        return cache;
    }

    /**
     * @param version      the request's version: from 13 partitions are named by topic id
     * @param metadata     the request's session id and epoch
     * @param fromFollower whether a follower sends it (its session is privileged)
     * @param fetchData    the partitions the request names (a null name for an unknown topic id)
     * @param toForget     the partitions the request removes from its session
     * @param topicNames   names topic ids the session held while they were unknown
     */
    public FetchContext newContext(short version, FetchMetadata metadata, boolean fromFollower,
                                   Map<TopicIdPartition, FetchRequest.PartitionData> fetchData,
                                   List<TopicIdPartition> toForget, Function<Uuid, String> topicNames) {
        FetchContext context = metadata.isFull()
            ? fullContext(version, metadata, fromFollower, fetchData)
            : incrementalContext(version, metadata, fetchData, toForget, topicNames);
        requests[context.kind().ordinal() * 2 + (fromFollower ? 1 : 0)].increment();
        return context;
    }

    private FetchContext fullContext(short version, FetchMetadata metadata, boolean fromFollower,
                                     Map<TopicIdPartition, FetchRequest.PartitionData> fetchData) {
        if (metadata.sessionId() != FetchMetadata.INVALID_SESSION_ID && cache.remove(metadata.sessionId())) {
            log.debug("Removed fetch session {}", metadata.sessionId());
        }
        LinkedHashMap<TopicIdPartition, FetchRequest.PartitionData> partitions = new LinkedHashMap<>(fetchData);
        return metadata.epoch() == FetchMetadata.FINAL_EPOCH
            ? new FetchContext.Sessionless(partitions)
            : new FetchContext.Full(time, cache, partitions, version >= 13, fromFollower);
    }

    private FetchContext incrementalContext(short version, FetchMetadata metadata,
                                            Map<TopicIdPartition, FetchRequest.PartitionData> fetchData,
                                            List<TopicIdPartition> toForget, Function<Uuid, String> topicNames) {
        FetchContext updated = cache.locked(() -> {
            Optional<FetchSession> found = cache.get(metadata.sessionId());
            if (found.isEmpty()) {
                log.debug("Fetch session {} not found", metadata.sessionId());
                return new FetchContext.SessionError(Errors.FETCH_SESSION_ID_NOT_FOUND);
            }
            FetchSession session = found.get();
            synchronized (session) {
                if (session.epoch() != metadata.epoch()) {
                    log.debug("Fetch session {}: expected epoch {}, got {}", session.id(), session.epoch(), metadata.epoch());
                    return new FetchContext.SessionError(Errors.INVALID_FETCH_SESSION_EPOCH);
                }
                if (session.usesTopicIds() != (version >= 13)) {
                    log.debug("Fetch session {} {} topic ids; a v{} request cannot", session.id(),
                        session.usesTopicIds() ? "uses" : "does not use", version);
                    return new FetchContext.SessionError(Errors.FETCH_SESSION_TOPIC_ID_ERROR);
                }
                session.update(fetchData, toForget);
                if (session.size() == 0) {
                    log.debug("Closing fetch session {}: no partitions left", session.id());
                    cache.remove(session);
                    return new FetchContext.Sessionless(new LinkedHashMap<>(fetchData));
                }
                cache.touch(session, time.milliseconds());
                session.nextEpoch();
                return new FetchContext.Incremental(metadata, session, null);
            }
        });
        // The partitions to read are copied under the session's lock only, not the cache's: a session
        // of thousands of partitions does not hold up every other fetch. A request of the same session
        // coming in meanwhile moves its epoch on, which this one's answer then reports.
        return updated instanceof FetchContext.Incremental incremental
            ? incremental.withPartitions(incremental.session().partitionsToFetch(topicNames))
            : updated;
    }

    /** Fetch requests served as {@code kind} since start, from followers or from consumers. */
    public long requests(FetchContext.Kind kind, boolean fromFollower) {
        return requests[kind.ordinal() * 2 + (fromFollower ? 1 : 0)].sum();
    }
}
