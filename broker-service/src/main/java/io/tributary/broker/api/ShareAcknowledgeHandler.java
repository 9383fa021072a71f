package io.tributary.broker.api;

import io.tributary.broker.cluster.BrokerFeatures;
import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.BrokerAuthorizer;
import io.tributary.broker.share.ShareAcknowledgement;
import io.tributary.broker.share.ShareComponents;
import io.tributary.broker.share.ShareSessionContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.ShareAcknowledgeRequestData;
import org.apache.kafka.common.message.ShareAcknowledgeResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.ShareAcknowledgeRequest;
import org.apache.kafka.common.requests.ShareAcknowledgeResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * ShareAcknowledge (v1-2, KIP-932): a share group member acknowledges records it acquired
 * (ACCEPT, RELEASE, REJECT, GAP; v2 RENEW, KIP-1222) without fetching more. It must carry the
 * epoch of an open share session (0 is INVALID_SHARE_SESSION_EPOCH); -1 closes the session after
 * the acknowledgements, releasing what the member still holds here.
 *
 * <p>Errors as Kafka's: UNSUPPORTED_VERSION while the finalized {@code share.version} is below 1;
 * GROUP_AUTHORIZATION_FAILED without READ on the group; session errors for the whole request; per
 * partition UNKNOWN_TOPIC_ID, TOPIC_AUTHORIZATION_FAILED (no READ on the topic), INVALID_RECORD_STATE,
 * INVALID_REQUEST (also for RENEW in a v1 request), NOT_LEADER_OR_FOLLOWER with the leader's id, epoch and endpoint (KIP-951).
 */
public final class ShareAcknowledgeHandler extends VersionedHandler {

    private final ShareComponents shares;
    private final MetadataCache metadataCache;
    private final BrokerAuthorizer authorizer;

    public ShareAcknowledgeHandler(ShareComponents shares, MetadataCache metadataCache, BrokerAuthorizer authorizer) {
        super(ApiKeys.SHARE_ACKNOWLEDGE, 1, 2);
        this.shares = shares;
        this.metadataCache = metadataCache;
        this.authorizer = authorizer;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        ShareAcknowledgeRequestData data = ((ShareAcknowledgeRequest) r).data();
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
        ShareRequestPartitions partitions = new ShareRequestPartitions(context, metadataCache, authorizer, topicIds);
        Map<TopicIdPartition, List<ShareAcknowledgement>> acks = new LinkedHashMap<>();
        Map<TopicIdPartition, Errors> renewRefused = new LinkedHashMap<>();
        for (ShareAcknowledgeRequestData.AcknowledgeTopic topic : data.topics()) {
            for (ShareAcknowledgeRequestData.AcknowledgePartition p : topic.partitions()) {
                TopicIdPartition tip = partitions.accept(topic.topicId(), p.partitionIndex());
                if (tip != null && p.acknowledgementBatches().stream().anyMatch(b ->
                        ShareRequestPartitions.renewRefused(context.apiVersion(), b.acknowledgeTypes()))) {
                    renewRefused.put(tip, Errors.INVALID_REQUEST);
                } else if (tip != null) {
                    List<ShareAcknowledgement> batches = new ArrayList<>();
                    p.acknowledgementBatches().forEach(b -> batches.add(
                        new ShareAcknowledgement(b.firstOffset(), b.lastOffset(), b.acknowledgeTypes())));
                    acks.put(tip, batches);
                }
            }
        }
        String groupId = data.groupId();
        String memberId = data.memberId();
        ShareSessionContext session = shares.sessions().acknowledgeContext(groupId, memberId, data.shareSessionEpoch());
        if (session.error() != Errors.NONE) {
            return error(context, session.error());
        }
        return shares.partitionManager().acknowledge(groupId, memberId, acks).thenCompose(errors -> {
            CompletableFuture<Void> released = session.isFinal()
                ? shares.sessionClosed(groupId, memberId) : CompletableFuture.completedFuture(null);
            Map<TopicIdPartition, Errors> refused = new LinkedHashMap<>(partitions.refused());
            refused.putAll(renewRefused);
            return released.thenApply(v -> response(context, groupId, errors, refused));
        });
    }

    private Response response(RequestContext context, String groupId, Map<TopicIdPartition, Errors> errors,
                              Map<TopicIdPartition, Errors> refused) {
        LeaderHints hints = new LeaderHints(metadataCache, context.listenerName());
        Map<Uuid, ShareAcknowledgeResponseData.ShareAcknowledgeTopicResponse> topics = new LinkedHashMap<>();
        Map<TopicIdPartition, Errors> all = new LinkedHashMap<>(refused);
        all.putAll(errors);
        all.forEach((tip, error) -> {
            ShareAcknowledgeResponseData.PartitionData partition = ShareAcknowledgeResponse.partitionResponse(tip, error);
            if (tip.topic() != null && LeaderHints.wanted(error)) {
                hints.leaderOf(tip.topicPartition()).ifPresent(leader -> partition.setCurrentLeader(
                    new ShareAcknowledgeResponseData.LeaderIdAndEpoch().setLeaderId(leader.leader())
                        .setLeaderEpoch(leader.leaderEpoch())));
            }
            topics.computeIfAbsent(tip.topicId(), id -> new ShareAcknowledgeResponseData.ShareAcknowledgeTopicResponse()
                .setTopicId(id)).partitions().add(partition);
        });
        ShareAcknowledgeResponseData data = new ShareAcknowledgeResponseData()
            .setAcquisitionLockTimeoutMs(shares.partitionManager().recordLockDurationMs(groupId));
        topics.values().forEach(t -> data.responses().add(t));
        hints.nodes().forEach(n -> data.nodeEndpoints().add(new ShareAcknowledgeResponseData.NodeEndpoint()
            .setNodeId(n.id()).setHost(n.host()).setPort(n.port()).setRack(n.rack())));
        return Responses.of(context, new ShareAcknowledgeResponse(data));
    }

    private static CompletableFuture<Response> error(RequestContext context, Errors error) {
        return Responses.completed(context, new ShareAcknowledgeResponse(new ShareAcknowledgeResponseData()
            .setErrorCode(error.code())));
    }
}
