package io.tributary.broker.api;

import io.tributary.broker.cluster.BrokerFeatures;
import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.group.GroupCoordinator;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.ShareGroupHeartbeatRequestData;
import org.apache.kafka.common.message.ShareGroupHeartbeatResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.ShareGroupHeartbeatRequest;
import org.apache.kafka.common.requests.ShareGroupHeartbeatResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * ShareGroupHeartbeat (v1, KIP-932): share-group membership ({@code KafkaShareConsumer}). Served
 * once the cluster's {@code share.version} is at least 1 (new clusters start there;
 * {@code kafka-features upgrade --feature share.version=1} enables it on an older one), else
 * UNSUPPORTED_VERSION. READ on the group, else GROUP_AUTHORIZATION_FAILED; DESCRIBE on every topic
 * subscribed, else TOPIC_AUTHORIZATION_FAILED, as Kafka checks. The rest is the group coordinator's
 * ({@link io.tributary.broker.group.ModernGroupCoordinator#shareGroupHeartbeat}).
 */
public final class ShareGroupHeartbeatHandler extends VersionedHandler {

    private final GroupCoordinator coordinator;
    private final MetadataCache metadataCache;
    private final BrokerAuthorizer authorizer;

    public ShareGroupHeartbeatHandler(GroupCoordinator coordinator, MetadataCache metadataCache,
                                      BrokerAuthorizer authorizer) {
        super(ApiKeys.SHARE_GROUP_HEARTBEAT, 1, 1);
        this.coordinator = coordinator;
        this.metadataCache = metadataCache;
        this.authorizer = authorizer;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        ShareGroupHeartbeatRequestData data = ((ShareGroupHeartbeatRequest) r).data();
        if (metadataCache.finalizedFeatures().level(BrokerFeatures.SHARE_VERSION) < 1) {
            return answer(context, error(Errors.UNSUPPORTED_VERSION, "Share groups are not enabled: share.version is "
                + "below 1 (kafka-features upgrade --feature share.version=1)"));
        }
        if (!authorizer.authorize(context, AclOperation.READ, ResourceType.GROUP, data.groupId())) {
            return answer(context, error(Errors.GROUP_AUTHORIZATION_FAILED, null));
        }
        if (data.subscribedTopicNames() != null && !data.subscribedTopicNames().isEmpty()
                && authorizer.filter(context, AclOperation.DESCRIBE, ResourceType.TOPIC, data.subscribedTopicNames())
                    .size() < new java.util.HashSet<>(data.subscribedTopicNames()).size()) {
            return answer(context, error(Errors.TOPIC_AUTHORIZATION_FAILED,
                "The group has subscribed to topics that it is not authorized to describe."));
        }
        return coordinator.modernGroups().shareGroupHeartbeat(data, context.clientId(),
            context.clientAddress().getHostAddress()).thenApply(response -> Responses.of(context,
                new ShareGroupHeartbeatResponse(response)));
    }

    private static ShareGroupHeartbeatResponseData error(Errors error, String message) {
        return new ShareGroupHeartbeatResponseData().setErrorCode(error.code()).setErrorMessage(message);
    }

    private static CompletableFuture<Response> answer(RequestContext context, ShareGroupHeartbeatResponseData data) {
        return Responses.completed(context, new ShareGroupHeartbeatResponse(data));
    }
}
