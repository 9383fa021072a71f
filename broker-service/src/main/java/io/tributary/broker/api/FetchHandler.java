package io.tributary.broker.api;

import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.fetchsession.FetchContext;
import io.tributary.broker.fetchsession.FetchManager;
import io.tributary.broker.metrics.BrokerTopicStats;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.quota.ClientQuotaManager;
import io.tributary.broker.replica.FetchParams;
import io.tributary.broker.replica.FetchPartition;
import io.tributary.broker.replica.FetchPartitionResult;
import io.tributary.broker.replica.ReplicaManager;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.requests.FetchResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * Fetch (v4-18): reads each partition from its fetch offset, up to the high watermark for
 * consumers, and long-polls up to {@code max.wait.ms} for {@code min.bytes}. Records go out
 * as file slices with zero copy. {@code max.bytes} and partition max bytes bound the response,
 * softly for the first batch (KIP-74). read_committed reads up to the last stable offset and gets
 * the aborted transactions its records overlap, so the consumer skips them (KIP-98).
 *
 * <p>Incremental fetch sessions (KIP-227): a full fetch at epoch 0 opens a session when the
 * cache ({@code max.incremental.fetch.session.cache.slots}) has room, and later requests of the
 * session name only the partitions whose parameters changed and get only the partitions with
 * something new; every partition of the session is still read. Session errors are answered
 * FETCH_SESSION_ID_NOT_FOUND, INVALID_FETCH_SESSION_EPOCH or FETCH_SESSION_TOPIC_ID_ERROR with no
 * partitions ({@link FetchManager}).
 *
 * <p>A fetch with a replica id (in {@code ReplicaState} from v15, KIP-903) is a follower's: it
 * reads to the log end, records the follower's progress for the ISR and high watermark, and may
 * answer {@code DivergingEpoch} instead of records when the follower's last fetched epoch ends
 * earlier on the leader (KIP-595).
 *
 * <p>Fetch from the closest replica (KIP-392): a consumer's fetch (v11+, with its rack) may be
 * served by a follower, up to the follower's high watermark; a leader with a
 * {@code replica.selector.class} answers a new fetch with the replica to use instead.
 *
 * <p>The bytes of records answered are counted per topic for consumers ({@code bytesout}) and as
 * replication bytes for followers ({@link BrokerTopicStats}).
 */
public final class FetchHandler extends VersionedHandler {

    private final ReplicaManager replicaManager;
    private final MetadataCache metadataCache;
    private final BrokerTopicStats topicStats;
    private final BrokerAuthorizer authorizer;
    private final FetchManager fetchManager;
    /** {@code consumer_byte_rate} (KIP-13): consumers' fetched bytes; followers are not counted. */
    private final ClientQuotaManager fetchQuota;
    private final int fetchMaxBytes;

    /**
     * @param fetchManager  the broker's incremental fetch sessions
     * @param fetchMaxBytes most bytes a consumer's fetch gets ({@code fetch.max.bytes})
     */
    public FetchHandler(ReplicaManager replicaManager, MetadataCache metadataCache, BrokerTopicStats topicStats,
                        BrokerAuthorizer authorizer, FetchManager fetchManager, ClientQuotaManager fetchQuota,
                        int fetchMaxBytes) {
        super(ApiKeys.FETCH, 4, 18);
        this.fetchQuota = fetchQuota;
        this.fetchManager = fetchManager;
        this.fetchMaxBytes = fetchMaxBytes;
        this.replicaManager = replicaManager;
        this.metadataCache = metadataCache;
        this.topicStats = topicStats;
        this.authorizer = authorizer;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        FetchRequest request = (FetchRequest) r;
        FetchRequestData data = request.data();
        short version = context.apiVersion();
        boolean fromFollower = request.replicaId() >= 0;
        Map<Uuid, String> topicNames = version >= 13 ? topicNames(data) : Map.of();
        FetchContext fetchContext = fetchManager.newContext(version, request.metadata(), fromFollower,
            request.fetchData(topicNames), request.forgottenTopics(topicNames),
            id -> metadataCache.topicName(id).orElse(null));
        if (fetchContext.kind() == FetchContext.Kind.SESSION_ERROR) {
            return Responses.completed(context, fetchContext.response(new LinkedHashMap<>(), List.of()));
        }
        LinkedHashMap<TopicIdPartition, FetchRequest.PartitionData> partitions = fetchContext.partitions();
        // Followers need CLUSTER_ACTION on the cluster, consumers READ on each topic; the partitions
        // of a topic they may not read are answered TOPIC_AUTHORIZATION_FAILED, as in Kafka. Null:
        // everything readable (no authorizer costs no lookups).
        Set<String> readable = !authorizer.enabled() ? null : fromFollower
            ? (authorizer.authorizeCluster(context, AclOperation.CLUSTER_ACTION) ? null : Set.of())
            : authorizer.filter(context, AclOperation.READ, ResourceType.TOPIC, partitions.keySet().stream()
                .map(TopicIdPartition::topic).filter(Objects::nonNull).distinct().toList());
        LinkedHashMap<TopicPartition, FetchPartition> fetchInfos = new LinkedHashMap<>();
        Set<TopicPartition> denied = new HashSet<>();
        partitions.forEach((tip, p) -> {
            if (tip.topic() == null) {
                return;
            }
            if (readable != null && !readable.contains(tip.topic())) {
                denied.add(tip.topicPartition());
            } else {
                fetchInfos.put(tip.topicPartition(), new FetchPartition(p.fetchOffset,
                    p.currentLeaderEpoch.orElse(RecordBatch.NO_PARTITION_LEADER_EPOCH), p.maxBytes,
                    p.lastFetchedEpoch.orElse(RecordBatch.NO_PARTITION_LEADER_EPOCH)));
            }
        });
        IsolationLevel isolation = request.isolationLevel();
        org.apache.kafka.common.replica.ClientMetadata clientMetadata = version >= 11 && !fromFollower
            ? new org.apache.kafka.common.replica.ClientMetadata.DefaultClientMetadata(
                data.rackId() == null ? "" : data.rackId(), context.clientId(), context.clientAddress(),
                context.principal(), context.listenerName())
            : null;
        // A consumer gets at most fetch.max.bytes, whatever it asks for, and at most what its quota
        // allows in one quota window (followers size their own fetches).
        int maxBytes = fromFollower ? request.maxBytes() : Math.min(Math.min(request.maxBytes(), fetchMaxBytes),
            fetchQuota.maxValueInQuotaWindow(context.principal().getName(), context.clientId()));
        // min.bytes above what the answer may hold would make every fetch wait out max.wait.ms.
        FetchParams params = new FetchParams(request.replicaId(), request.maxWait(), Math.min(request.minBytes(), maxBytes),
            maxBytes, isolation, clientMetadata);
        return replicaManager.fetchMessages(params, fetchInfos)
            .thenApply(results -> response(context, fetchContext, results, denied, isolation, fromFollower, version));
    }

    /** The names of the topic ids a v13+ request names, in its partitions and its forgotten ones (unknown ids left out). */
    private Map<Uuid, String> topicNames(FetchRequestData data) {
        Map<Uuid, String> names = new HashMap<>();
        for (FetchRequestData.FetchTopic topic : data.topics()) {
            metadataCache.topicName(topic.topicId()).ifPresent(name -> names.put(topic.topicId(), name));
        }
        for (FetchRequestData.ForgottenTopic topic : data.forgottenTopicsData()) {
            metadataCache.topicName(topic.topicId()).ifPresent(name -> names.put(topic.topicId(), name));
        }
        return names;
    }

    /**
     * The answer from what was read; a consumer over its {@code consumer_byte_rate} gets an empty
     * answer with the throttle time instead (what was read is not counted), as Kafka answers it.
     */
    private Response response(RequestContext context, FetchContext fetchContext,
                              Map<TopicPartition, FetchPartitionResult> results, Set<TopicPartition> denied,
                              IsolationLevel isolation, boolean fromFollower, short version) {
        LeaderHints hints = new LeaderHints(metadataCache, context.listenerName());
        long recordBytes = 0;
        LinkedHashMap<TopicIdPartition, FetchResponseData.PartitionData> read = new LinkedHashMap<>();
        for (TopicIdPartition tip : fetchContext.partitions().keySet()) {
            TopicPartition tp = tip.topic() == null ? null : tip.topicPartition();
            FetchPartitionResult result = tp == null ? FetchPartitionResult.error(Errors.UNKNOWN_TOPIC_ID)
                : denied.contains(tp) ? FetchPartitionResult.error(Errors.TOPIC_AUTHORIZATION_FAILED)
                : results.get(tp);
            FetchResponseData.PartitionData partitionData = new FetchResponseData.PartitionData()
                .setPartitionIndex(tip.partition())
                .setErrorCode(result.error().code())
                .setHighWatermark(result.highWatermark())
                .setLastStableOffset(result.lastStableOffset())
                .setLogStartOffset(result.logStartOffset())
                .setAbortedTransactions(isolation == IsolationLevel.READ_COMMITTED && result.error() == Errors.NONE
                    ? new ArrayList<>(result.abortedTransactions()) : null)
                .setPreferredReadReplica(result.preferredReadReplica())
                .setRecords(result.records() == null ? MemoryRecords.EMPTY : result.records());
            if (result.isDiverging()) {
                partitionData.setDivergingEpoch(new FetchResponseData.EpochEndOffset()
                    .setEpoch(result.divergingEpoch()).setEndOffset(result.divergingEndOffset()));
            }
            if (version >= 16 && tp != null && LeaderHints.wanted(result.error())) {
                hints.leaderOf(tp).ifPresent(leader -> partitionData.setCurrentLeader(
                    new FetchResponseData.LeaderIdAndEpoch().setLeaderId(leader.leader())
                        .setLeaderEpoch(leader.leaderEpoch())));
            }
            read.put(tip, partitionData);
            recordBytes += result.records() == null ? 0 : result.records().sizeInBytes();
        }
        List<Node> nodeEndpoints = new ArrayList<>();
        if (version >= 16) {
            hints.nodes().forEach(n -> nodeEndpoints.add(new Node(n.id(), n.host(), n.port(), n.rack())));
        }
        if (!fromFollower && recordBytes > 0) {
            String user = context.principal().getName();
            int throttleMs = fetchQuota.recordAndGetThrottleTimeMs(user, context.clientId(), recordBytes);
            if (throttleMs > 0) {
                fetchQuota.unrecord(user, context.clientId(), recordBytes);
                return new Response.Throttled(Responses.of(context, fetchContext.throttledResponse(throttleMs)), throttleMs);
            }
        }
        // Counted once the records are really sent (not for an answer throttled empty).
        for (TopicIdPartition tip : fetchContext.partitions().keySet()) {
            TopicPartition tp = tip.topic() == null ? null : tip.topicPartition();
            FetchPartitionResult result = tp == null || denied.contains(tp) ? null : results.get(tp);
            if (result != null) {
                topicStats.recordFetched(tp.topic(), fromFollower,
                    result.records() == null ? 0 : result.records().sizeInBytes(), result.error() != Errors.NONE);
            }
        }
        return Responses.of(context, fetchContext.response(read, nodeEndpoints));
    }
}
