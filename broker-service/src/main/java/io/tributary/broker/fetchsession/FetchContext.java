package io.tributary.broker.fetchsession;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.FetchMetadata;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.requests.FetchResponse;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one Fetch request means under KIP-227, made by {@link FetchManager#newContext}: the
 * partitions to read, and how the response is shaped from what was read. Four kinds, as in Kafka:
 * <ul>
 *   <li>{@link SessionError}: the request named a session that is gone, or the wrong epoch; the
 *       response is that error alone and the fetcher starts over with a full request;</li>
 *   <li>{@link Sessionless}: a full request that asks for no session (epoch -1), answered in full
 *       with session id 0;</li>
 *   <li>{@link Full}: a full request (epoch 0) answered in full, which creates a session when the
 *       cache has room and answers with its id (or 0);</li>
 *   <li>{@link Incremental}: a request of an existing session; every partition of the session is
 *       read, and the response carries only those with records, errors, or a changed high watermark
 *       or log start offset.</li>
 * </ul>
 * Thread-safety: a context serves one request; the session it shares is locked where it is read.
 */
public sealed interface FetchContext {

    /** The kind of context, for metrics and tests. */
    enum Kind { SESSION_ERROR, SESSIONLESS, FULL, INCREMENTAL }

    Kind kind();

    /**
     * The partitions to read, in order, with their request parameters: the request's own for a
     * full fetch, every partition of the session for an incremental one. A name is null where a
     * topic id is unknown here.
     */
    LinkedHashMap<TopicIdPartition, FetchRequest.PartitionData> partitions();

    /**
     * The response to send, from what was read for each of {@link #partitions()} (same order).
     * {@code nodeEndpoints} are the leaders' endpoints for KIP-951 hints (v16+), or empty.
     */
    FetchResponse response(LinkedHashMap<TopicIdPartition, FetchResponseData.PartitionData> read, List<Node> nodeEndpoints);

    /**
     * The response to a fetch whose client is over its quota: no partitions, and the throttle time;
     * the session, if any, stays as it was (what was read is not counted as sent).
     */
    FetchResponse throttledResponse(int throttleMs);

    /** An answer with no partitions: a session error, or a throttled fetch. */
    private static FetchResponse empty(Errors error, int throttleMs, int sessionId) {
        return FetchResponse.of(error, throttleMs, sessionId, new LinkedHashMap<>(), List.of());
    }

    /** The request's session could not be used: {@code FETCH_SESSION_ID_NOT_FOUND}, {@code INVALID_FETCH_SESSION_EPOCH} or {@code FETCH_SESSION_TOPIC_ID_ERROR}. */
    record SessionError(Errors error) implements FetchContext {
        @Override
        public Kind kind() {
            return Kind.SESSION_ERROR;
        }

        @Override
        public LinkedHashMap<TopicIdPartition, FetchRequest.PartitionData> partitions() {
            return new LinkedHashMap<>();
        }

        @Override
        public FetchResponse response(LinkedHashMap<TopicIdPartition, FetchResponseData.PartitionData> read,
                                      List<Node> nodeEndpoints) {
            return empty(error, 0, FetchMetadata.INVALID_SESSION_ID);
        }

        @Override
        public FetchResponse throttledResponse(int throttleMs) {
            return empty(error, throttleMs, FetchMetadata.INVALID_SESSION_ID);
        }
    }

    /** A full fetch that keeps no session. */
    record Sessionless(LinkedHashMap<TopicIdPartition, FetchRequest.PartitionData> partitions) implements FetchContext {
        @Override
        public Kind kind() {
            return Kind.SESSIONLESS;
        }

        @Override
        public FetchResponse response(LinkedHashMap<TopicIdPartition, FetchResponseData.PartitionData> read,
                                      List<Node> nodeEndpoints) {
            return FetchResponse.of(Errors.NONE, 0, FetchMetadata.INVALID_SESSION_ID, read, nodeEndpoints);
        }

        @Override
        public FetchResponse throttledResponse(int throttleMs) {
            return empty(Errors.NONE, throttleMs, FetchMetadata.INVALID_SESSION_ID);
        }
    }

    /** A full fetch that opens a session if the cache takes one. */
    final class Full implements FetchContext {
        private final Time time;
        private final FetchSessionCache cache;
        private final LinkedHashMap<TopicIdPartition, FetchRequest.PartitionData> partitions;
        private final boolean usesTopicIds;
        private final boolean fromFollower;

        Full(Time time, FetchSessionCache cache, LinkedHashMap<TopicIdPartition, FetchRequest.PartitionData> partitions,
             boolean usesTopicIds, boolean fromFollower) {
            this.time = time;
            this.cache = cache;
            this.partitions = partitions;
            this.usesTopicIds = usesTopicIds;
            this.fromFollower = fromFollower;
        }

        @Override
        public Kind kind() {
            return Kind.FULL;
        }

        @Override
        public LinkedHashMap<TopicIdPartition, FetchRequest.PartitionData> partitions() {
            return partitions;
        }

        @Override
        public FetchResponse response(LinkedHashMap<TopicIdPartition, FetchResponseData.PartitionData> read,
                                      List<Node> nodeEndpoints) {
            int sessionId = cache.maybeCreateSession(time.milliseconds(), fromFollower, read.size(), usesTopicIds,
                session -> read.forEach((tp, data) -> {
                    CachedPartition cached = new CachedPartition(tp.topic(), tp.topicId(), tp.partition(),
                        partitions.get(tp));
                    cached.rememberSent(data);
                    session.add(tp, cached);
                }));
            return FetchResponse.of(Errors.NONE, 0, sessionId, read, nodeEndpoints);
        }

        /** No session is created for a throttled full fetch (the client sends a full one again). */
        @Override
        public FetchResponse throttledResponse(int throttleMs) {
            return empty(Errors.NONE, throttleMs, FetchMetadata.INVALID_SESSION_ID);
        }
    }

    /** A request of an existing session; the session's epoch has already moved to the next one. */
    final class Incremental implements FetchContext {
        private static final Logger log = LoggerFactory.getLogger(Incremental.class);

        private final FetchMetadata requestMetadata;
        private final FetchSession session;
        private final LinkedHashMap<TopicIdPartition, FetchRequest.PartitionData> partitions;

        Incremental(FetchMetadata requestMetadata, FetchSession session,
                    LinkedHashMap<TopicIdPartition, FetchRequest.PartitionData> partitions) {
            this.requestMetadata = requestMetadata;
            this.session = session;
            this.partitions = partitions;
        }

        @Override
        public Kind kind() {
            return Kind.INCREMENTAL;
        }

        FetchSession session() {
            return session;
        }

        Incremental withPartitions(LinkedHashMap<TopicIdPartition, FetchRequest.PartitionData> partitions) {
            return new Incremental(requestMetadata, session, partitions);
        }

        @Override
        public LinkedHashMap<TopicIdPartition, FetchRequest.PartitionData> partitions() {
            return partitions;
        }

        /** Leaves out the partitions with nothing new, remembers what is sent, and moves those with records to the end. */
        @Override
        public FetchResponse response(LinkedHashMap<TopicIdPartition, FetchResponseData.PartitionData> read,
                                      List<Node> nodeEndpoints) {
            synchronized (session) {
                int expectedEpoch = FetchMetadata.nextEpoch(requestMetadata.epoch());
                if (session.epoch() != expectedEpoch) {
                    // Another request of the session came in while this one was read: a duplicate.
                    log.info("Incremental fetch session {} expected epoch {}, but got {}. Possible duplicate request.",
                        session.id(), expectedEpoch, session.epoch());
                    return empty(Errors.INVALID_FETCH_SESSION_EPOCH, 0, session.id());
                }
                Iterator<Map.Entry<TopicIdPartition, FetchResponseData.PartitionData>> it = read.entrySet().iterator();
                List<TopicIdPartition> withRecords = new java.util.ArrayList<>();
                while (it.hasNext()) {
                    Map.Entry<TopicIdPartition, FetchResponseData.PartitionData> e = it.next();
                    CachedPartition cached = session.partition(e.getKey());
                    if (cached != null && !cached.mustRespond(e.getValue(), true)) {
                        it.remove();
                    } else if (FetchResponse.recordsSize(e.getValue()) > 0) {
                        withRecords.add(e.getKey());
                    }
                }
                withRecords.forEach(session::moveToEnd);
            }
            return FetchResponse.of(Errors.NONE, 0, session.id(), read, nodeEndpoints);
        }

        @Override
        public FetchResponse throttledResponse(int throttleMs) {
            synchronized (session) {
                Errors error = session.epoch() == FetchMetadata.nextEpoch(requestMetadata.epoch()) ? Errors.NONE
                    : Errors.INVALID_FETCH_SESSION_EPOCH;
                return empty(error, throttleMs, session.id());
            }
        }
    }
}
