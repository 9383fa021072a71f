package io.tributary.broker.api;

import io.tributary.broker.cluster.BrokerFeatures;
import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.metrics.BrokerTopicStats;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.quota.ClientQuotaManager;
import io.tributary.broker.security.BrokerAuthorizer;
import io.tributary.broker.share.AcquiredRange;
import io.tributary.broker.share.ShareAcknowledgement;
import io.tributary.broker.share.ShareComponents;
import io.tributary.broker.share.ShareFetchParams;
import io.tributary.broker.share.ShareFetchPartitionResult;
import io.tributary.broker.share.ShareSessionContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.ShareFetchRequestData;
import org.apache.kafka.common.message.ShareFetchResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.ShareFetchRequest;
import org.apache.kafka.common.requests.ShareFetchResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * ShareFetch (v1-2, KIP-932): a share group member's fetch. Acknowledgements piggybacked on it are
 * applied first; then the share session's partitions are read (long-polling up to
 * {@code max_wait_ms} for {@code min_bytes}) and up to {@code max_records} records acquired for the
 * member, answered as the batches holding them with their {@code AcquiredRecords} ranges and the
 * acquisition lock timeout. v2 adds {@code share_acquire_mode} (1, record_limit, makes
 * {@code max_records} exact, KIP-1206), {@code is_renew_ack} (acknowledgements only, no fetch,
 * KIP-1222) and the RENEW acknowledgement type (4; INVALID_REQUEST in a v1 request). The member is not checked against the group's membership, as in Kafka.
 *
 * <p>Errors as Kafka's: UNSUPPORTED_VERSION while the finalized {@code share.version} is below 1;
 * GROUP_AUTHORIZATION_FAILED without READ on the group; session errors (SHARE_SESSION_NOT_FOUND,
 * INVALID_SHARE_SESSION_EPOCH, SHARE_SESSION_LIMIT_REACHED, INVALID_REQUEST) for the whole request;
 * per partition UNKNOWN_TOPIC_ID, TOPIC_AUTHORIZATION_FAILED (no READ on the topic),
 * NOT_LEADER_OR_FOLLOWER with the leader's id, epoch and endpoint (KIP-951), and in
 * {@code acknowledge_error_code} the acknowledgements' errors (INVALID_RECORD_STATE, ...).
 *
 * <p>The records answered count against the consumer fetch quota ({@code consumer_byte_rate},
 * KIP-13) of the request's user and client id, as Kafka's Fetch and ShareFetch: a fetch reads at
 * most what the quota allows in one window, and a client over its quota gets a positive
 * {@code throttle_time_ms} and its connection is muted for that long (KIP-219). Unlike Kafka, which
 * answers a throttled ShareFetch empty and leaves its records acquired until their lock times out,
 * the records already acquired are still answered (and stay counted), so none is dropped silently.
 */
public final class ShareFetchHandler extends VersionedHandler {

    /** Records acquired per fetch when a request sets no positive {@code max_records} (Kafka's {@code max.poll.records} default). */
    static final int DEFAULT_MAX_RECORDS = 500;

    private final ShareComponents shares;
    private final MetadataCache metadataCache;
    private final BrokerAuthorizer authorizer;
    private final BrokerTopicStats topicStats;
    /** {@code consumer_byte_rate} (KIP-13): the bytes of records answered, per user and client id. */
    private final ClientQuotaManager fetchQuota;
    private final int fetchMaxBytes;

    /**
     * @param topicStats    counts the bytes answered per topic ({@code bytesout}), as consumers' fetches
     * @param fetchQuota    the consumer fetch quota ({@code consumer_byte_rate}, KIP-13), shared with Fetch
     * @param fetchMaxBytes most bytes one response carries ({@code fetch.max.bytes})
     */
    public ShareFetchHandler(ShareComponents shares, MetadataCache metadataCache, BrokerAuthorizer authorizer,
                             BrokerTopicStats topicStats, ClientQuotaManager fetchQuota, int fetchMaxBytes) {
        super(ApiKeys.SHARE_FETCH, 1, 2);
        this.fetchQuota = fetchQuota;
        this.shares = shares;
        this.topicStats = topicStats;
        this.metadataCache = metadataCache;
        this.authorizer = authorizer;
        this.fetchMaxBytes = fetchMaxBytes;
    }

    /** The member sessions whose latest ShareFetch came over the connection end with it, as in Kafka. */
    @Override
    public void connectionClosed(String connectionId) {
        shares.connectionClosed(connectionId);
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        ShareFetchRequestData data = ((ShareFetchRequest) r).data();
        if (metadataCache.finalizedFeatures().level(BrokerFeatures.SHARE_VERSION) < 1) {
            return error(context, Errors.UNSUPPORTED_VERSION);
        }
        if (!authorizer.authorize(context, AclOperation.READ, ResourceType.GROUP, data.groupId())) {
            return error(context, Errors.GROUP_AUTHORIZATION_FAILED);
        }
        if (data.groupId() == null || data.groupId().isEmpty() || data.memberId() == null || data.memberId().isEmpty()) {
            return error(context, Errors.INVALID_REQUEST);
        }
        List<Uuid> topicIds = new ArrayList<>();
        data.topics().forEach(t -> topicIds.add(t.topicId()));
        data.forgottenTopicsData().forEach(t -> topicIds.add(t.topicId()));
        ShareRequestPartitions partitions = new ShareRequestPartitions(context, metadataCache, authorizer, topicIds);
        List<TopicIdPartition> toFetch = new ArrayList<>();
        Map<TopicIdPartition, List<ShareAcknowledgement>> acks = new LinkedHashMap<>();
        Map<TopicIdPartition, Errors> ackRefused = new LinkedHashMap<>();
        for (ShareFetchRequestData.FetchTopic topic : data.topics()) {
            for (ShareFetchRequestData.FetchPartition p : topic.partitions()) {
                TopicIdPartition tip = partitions.accept(topic.topicId(), p.partitionIndex());
                if (tip == null) {
                    continue;
                }
                toFetch.add(tip);
                if (p.acknowledgementBatches().stream().anyMatch(b ->
                        ShareRequestPartitions.renewRefused(context.apiVersion(), b.acknowledgeTypes()))) {
                    ackRefused.put(tip, Errors.INVALID_REQUEST);
                } else if (!p.acknowledgementBatches().isEmpty()) {
                    List<ShareAcknowledgement> batches = new ArrayList<>();
                    p.acknowledgementBatches().forEach(b -> batches.add(
                        new ShareAcknowledgement(b.firstOffset(), b.lastOffset(), b.acknowledgeTypes())));
                    acks.put(tip, batches);
                }
            }
        }
        List<TopicIdPartition> toForget = new ArrayList<>();
        data.forgottenTopicsData().forEach(t -> t.partitions().forEach(p -> toForget.add(partitions.named(t.topicId(), p))));
        String groupId = data.groupId();
        String memberId = data.memberId();
        ShareSessionContext session = shares.sessions().fetchContext(groupId, memberId, data.shareSessionEpoch(),
            data.shareSessionEpoch() == -1 ? List.of() : toFetch, toForget, !acks.isEmpty() || !ackRefused.isEmpty(),
            context.connectionId());
        if (session.error() != Errors.NONE) {
            return error(context, session.error());
        }
        CompletableFuture<Map<TopicIdPartition, Errors>> acknowledged = (acks.isEmpty()
            ? CompletableFuture.completedFuture(Map.<TopicIdPartition, Errors>of())
            : shares.partitionManager().acknowledge(groupId, memberId, acks)).thenApply(errors -> {
                Map<TopicIdPartition, Errors> all = new LinkedHashMap<>(ackRefused);
                all.putAll(errors);
                return all;
            });
        boolean fetch = !session.isFinal() && !(context.apiVersion() >= 2 && data.isRenewAck());
        // At most what the quota allows in one window (more is always throttled), as Kafka.
        int maxBytes = Math.min(Math.min(data.maxBytes(), fetchMaxBytes),
            fetchQuota.maxValueInQuotaWindow(context.principal().getName(), context.clientId()));
        ShareFetchParams params = new ShareFetchParams(groupId, memberId, data.maxWaitMs(), Math.min(data.minBytes(), maxBytes),
            maxBytes, data.maxRecords() > 0 ? data.maxRecords() : DEFAULT_MAX_RECORDS,
            context.apiVersion() >= 2 && data.shareAcquireMode() == 1);
        return acknowledged.thenCompose(ackErrors -> {
            if (session.isFinal()) {
                return shares.sessionClosed(groupId, memberId)
                    .thenApply(v -> response(context, groupId, ackErrors, Map.of(), partitions.refused()));
            }
            if (!fetch) {
                return CompletableFuture.completedFuture(response(context, groupId, ackErrors, Map.of(), partitions.refused()));
            }
            return shares.partitionManager().fetch(params, session.partitions())
                .thenApply(fetched -> response(context, groupId, ackErrors, fetched, partitions.refused()));
        });
    }

    private Response response(RequestContext context, String groupId, Map<TopicIdPartition, Errors> ackErrors,
                              Map<TopicIdPartition, ShareFetchPartitionResult> fetched, Map<TopicIdPartition, Errors> refused) {
        LeaderHints hints = new LeaderHints(metadataCache, context.listenerName());
        LinkedHashMap<TopicIdPartition, ShareFetchResponseData.PartitionData> answer = new LinkedHashMap<>();
        long recordBytes = 0;
        refused.forEach((tip, error) -> answer.put(tip, ShareFetchResponse.partitionResponse(tip, error)));
        for (Map.Entry<TopicIdPartition, ShareFetchPartitionResult> entry : fetched.entrySet()) {
            TopicIdPartition tip = entry.getKey();
            ShareFetchPartitionResult result = entry.getValue();
            List<ShareFetchResponseData.AcquiredRecords> acquired = new ArrayList<>(result.acquired().size());
            for (AcquiredRange range : result.acquired()) {
                acquired.add(new ShareFetchResponseData.AcquiredRecords().setFirstOffset(range.firstOffset())
                    .setLastOffset(range.lastOffset()).setDeliveryCount((short) range.deliveryCount()));
            }
            answer.put(tip, ShareFetchResponse.partitionResponse(tip, result.error())
                .setRecords(result.records() == null ? MemoryRecords.EMPTY : result.records())
                .setAcquiredRecords(acquired));
            int bytes = result.records() == null ? 0 : result.records().sizeInBytes();
            topicStats.recordFetched(tip.topic(), false, bytes, result.error() != Errors.NONE);
            recordBytes += bytes;
        }
        ackErrors.forEach((tip, error) -> answer.computeIfAbsent(tip, t -> ShareFetchResponse.partitionResponse(t, Errors.NONE))
            .setAcknowledgeErrorCode(error.code()));
        answer.forEach((tip, data) -> {
            Errors error = Errors.forCode(data.errorCode());
            Errors ackError = Errors.forCode(data.acknowledgeErrorCode());
            if (tip.topic() != null && (LeaderHints.wanted(error) || LeaderHints.wanted(ackError))) {
                hints.leaderOf(tip.topicPartition()).ifPresent(leader -> data.setCurrentLeader(
                    new ShareFetchResponseData.LeaderIdAndEpoch().setLeaderId(leader.leader())
                        .setLeaderEpoch(leader.leaderEpoch())));
            }
        });
        List<Node> nodes = new ArrayList<>();
        hints.nodes().forEach(n -> nodes.add(new Node(n.id(), n.host(), n.port(), n.rack())));
        // Recorded once the answer is built, as Kafka; the acquired records are answered even when
        // throttled (an empty answer would leave them acquired, undelivered, until their lock times out).
        int throttleMs = recordBytes == 0 ? 0
            : fetchQuota.recordAndGetThrottleTimeMs(context.principal().getName(), context.clientId(), recordBytes);
        Response response = Responses.of(context, ShareFetchResponse.of(Errors.NONE, throttleMs, answer, nodes,
            shares.partitionManager().recordLockDurationMs(groupId)));
        return throttleMs > 0 ? new Response.Throttled(response, throttleMs) : response;
    }

    private static CompletableFuture<Response> error(RequestContext context, Errors error) {
        return Responses.completed(context, ShareFetchResponse.of(error, 0, new LinkedHashMap<>(), List.of(), 0));
    }
}
