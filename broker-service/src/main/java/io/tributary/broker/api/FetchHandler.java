package io.tributary.broker.api;

import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.metrics.BrokerTopicStats;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.replica.FetchParams;
import io.tributary.broker.replica.FetchPartition;
import io.tributary.broker.replica.FetchPartitionResult;
import io.tributary.broker.replica.ReplicaManager;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.FetchMetadata;
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
 * <p>Incremental fetch sessions (KIP-227) are declined per protocol: every response carries
 * session id 0, so clients send full requests; a request naming a session gets
 * FETCH_SESSION_ID_NOT_FOUND, and a session epoch other than initial or final gets
 * INVALID_FETCH_SESSION_EPOCH.
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
    private final int fetchMaxBytes;

    /**
     * @param fetchMaxBytes most bytes a consumer's fetch gets ({@code fetch.max.bytes})
     */
    public FetchHandler(ReplicaManager replicaManager, MetadataCache metadataCache, BrokerTopicStats topicStats,
                        BrokerAuthorizer authorizer, int fetchMaxBytes) {
        super(ApiKeys.FETCH, 4, 18);
        this.fetchMaxBytes = fetchMaxBytes;
        this.replicaManager = replicaManager;
        this.metadataCache = metadataCache;
        this.topicStats = topicStats;
        this.authorizer = authorizer;
    }

    /** A partition of the request and how the response names its topic. */
    private record Entry(String topicName, Uuid topicId, int partition, TopicPartition tp) {
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        FetchRequest request = (FetchRequest) r;
        FetchRequestData data = request.data();
        short version = context.apiVersion();
        FetchMetadata metadata = request.metadata();
        if (metadata.sessionId() != FetchMetadata.INVALID_SESSION_ID) {
            return Responses.completed(context, FetchResponse.of(new FetchResponseData()
                .setErrorCode(Errors.FETCH_SESSION_ID_NOT_FOUND.code()).setSessionId(0)));
        }
        if (metadata.epoch() != FetchMetadata.INITIAL_EPOCH && metadata.epoch() != FetchMetadata.FINAL_EPOCH) {
            return Responses.completed(context, FetchResponse.of(new FetchResponseData()
                .setErrorCode(Errors.INVALID_FETCH_SESSION_EPOCH.code()).setSessionId(0)));
        }
        List<Entry> entries = new ArrayList<>();
        LinkedHashMap<TopicPartition, FetchPartition> fetchInfos = new LinkedHashMap<>();
        boolean fromFollower = request.replicaId() >= 0;
        // Followers need CLUSTER_ACTION on the cluster, consumers READ on each topic; the partitions
        // of a topic they may not read are answered TOPIC_AUTHORIZATION_FAILED, as in Kafka. Null:
        // everything readable (no authorizer costs no lookups).
        java.util.Set<String> readable = !authorizer.enabled() ? null : fromFollower
            ? (authorizer.authorizeCluster(context, AclOperation.CLUSTER_ACTION) ? null : java.util.Set.of())
            : authorizer.filter(context, AclOperation.READ, ResourceType.TOPIC, data.topics().stream()
                .map(t -> version >= 13 ? metadataCache.topicName(t.topicId()).orElse(null) : t.topic())
                .filter(java.util.Objects::nonNull).toList());
        java.util.Set<TopicPartition> denied = new java.util.HashSet<>();
        for (FetchRequestData.FetchTopic topic : data.topics()) {
            String name = version >= 13 ? metadataCache.topicName(topic.topicId()).orElse(null) : topic.topic();
            for (FetchRequestData.FetchPartition p : topic.partitions()) {
                TopicPartition tp = name == null ? null : new TopicPartition(name, p.partition());
                entries.add(new Entry(topic.topic(), topic.topicId(), p.partition(), tp));
                if (tp != null && readable != null && !readable.contains(name)) {
                    denied.add(tp);
                } else if (tp != null) {
                    fetchInfos.put(tp, new FetchPartition(p.fetchOffset(), p.currentLeaderEpoch(), p.partitionMaxBytes(),
                        p.lastFetchedEpoch()));
                }
            }
        }
        IsolationLevel isolation = request.isolationLevel();
        org.apache.kafka.common.replica.ClientMetadata clientMetadata = version >= 11 && request.replicaId() < 0
            ? new org.apache.kafka.common.replica.ClientMetadata.DefaultClientMetadata(
                data.rackId() == null ? "" : data.rackId(), context.clientId(), context.clientAddress(),
                context.principal(), context.listenerName())
            : null;
        // A consumer gets at most fetch.max.bytes, whatever it asks for (followers size their own fetches).
        int maxBytes = fromFollower ? request.maxBytes() : Math.min(request.maxBytes(), fetchMaxBytes);
        FetchParams params = new FetchParams(request.replicaId(), request.maxWait(), request.minBytes(),
            maxBytes, isolation, clientMetadata);
        return replicaManager.fetchMessages(params, fetchInfos)
            .thenApply(results -> Responses.of(context, FetchResponse.of(response(entries, results, denied, isolation,
                fromFollower, version, context.listenerName()))));
    }

    private FetchResponseData response(List<Entry> entries, Map<TopicPartition, FetchPartitionResult> results,
                                       java.util.Set<TopicPartition> denied, IsolationLevel isolation,
                                       boolean fromFollower, short version, String listenerName) {
        FetchResponseData data = new FetchResponseData().setThrottleTimeMs(0).setErrorCode(Errors.NONE.code()).setSessionId(0);
        LeaderHints hints = new LeaderHints(metadataCache, listenerName);
        Map<String, FetchResponseData.FetchableTopicResponse> byTopic = new LinkedHashMap<>();
        for (Entry entry : entries) {
            FetchPartitionResult result = entry.tp() == null ? FetchPartitionResult.error(Errors.UNKNOWN_TOPIC_ID)
                : denied.contains(entry.tp()) ? FetchPartitionResult.error(Errors.TOPIC_AUTHORIZATION_FAILED)
                : results.get(entry.tp());
            FetchResponseData.FetchableTopicResponse topic = byTopic.computeIfAbsent(entry.topicName() + "/" + entry.topicId(),
                k -> {
                    FetchResponseData.FetchableTopicResponse t = new FetchResponseData.FetchableTopicResponse()
                        .setTopic(entry.topicName()).setTopicId(entry.topicId());
                    data.responses().add(t);
                    return t;
                });
            FetchResponseData.PartitionData partitionData = new FetchResponseData.PartitionData()
                .setPartitionIndex(entry.partition())
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
            if (version >= 16 && entry.tp() != null && LeaderHints.wanted(result.error())) {
                hints.leaderOf(entry.tp()).ifPresent(leader -> partitionData.setCurrentLeader(
                    new FetchResponseData.LeaderIdAndEpoch().setLeaderId(leader.leader())
                        .setLeaderEpoch(leader.leaderEpoch())));
            }
            topic.partitions().add(partitionData);
            if (entry.tp() != null && !denied.contains(entry.tp())) {
                topicStats.recordFetched(entry.tp().topic(), fromFollower,
                    result.records() == null ? 0 : result.records().sizeInBytes(), result.error() != Errors.NONE);
            }
        }
        if (version >= 16) {
            hints.nodes().forEach(node -> data.nodeEndpoints().add(new FetchResponseData.NodeEndpoint()
                .setNodeId(node.id()).setHost(node.host()).setPort(node.port()).setRack(node.rack())));
        }
        return data;
    }
}
