package io.tributary.broker.api;

import io.tributary.broker.cluster.BrokerFeatures;
import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.group.GroupCoordinator;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.ConsumerGroupHeartbeatRequestData;
import org.apache.kafka.common.message.ConsumerGroupHeartbeatResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.ConsumerGroupHeartbeatRequest;
import org.apache.kafka.common.requests.ConsumerGroupHeartbeatResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * ConsumerGroupHeartbeat (v0-1, KIP-848): the new consumer rebalance protocol
 * ({@code group.protocol=consumer}). READ on the group, else GROUP_AUTHORIZATION_FAILED; DESCRIBE on
 * every topic subscribed by name, else TOPIC_AUTHORIZATION_FAILED, as Kafka checks. Served once the
 * cluster's {@code group.version} is at least 1 (new clusters start there; {@code kafka-features
 * upgrade --feature group.version=1} enables it on an older one), else UNSUPPORTED_VERSION.
 */
public final class ConsumerGroupHeartbeatHandler extends VersionedHandler {

    private final GroupCoordinator coordinator;
    private final MetadataCache metadataCache;
    private final BrokerAuthorizer authorizer;

    public ConsumerGroupHeartbeatHandler(GroupCoordinator coordinator, MetadataCache metadataCache,
                                         BrokerAuthorizer authorizer) {
        super(ApiKeys.CONSUMER_GROUP_HEARTBEAT, 0, 1);
        this.coordinator = coordinator;
        this.metadataCache = metadataCache;
        this.authorizer = authorizer;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        ConsumerGroupHeartbeatRequestData data = ((ConsumerGroupHeartbeatRequest) r).data();
        if (metadataCache.finalizedFeatures().level(BrokerFeatures.GROUP_VERSION) < 1) {
            return answer(context, error(Errors.UNSUPPORTED_VERSION, "The new consumer group protocol is not enabled: "
                + "group.version is below 1 (kafka-features upgrade --feature group.version=1)"));
        }
        if (!authorizer.authorize(context, AclOperation.READ, ResourceType.GROUP, data.groupId())) {
            return answer(context, error(Errors.GROUP_AUTHORIZATION_FAILED, null));
        }
        if (data.subscribedTopicNames() != null) {
            for (String topic : data.subscribedTopicNames()) {
                if (!authorizer.authorize(context, AclOperation.DESCRIBE, ResourceType.TOPIC, topic)) {
                    return answer(context, error(Errors.TOPIC_AUTHORIZATION_FAILED,
                        "The group has subscribed to topics that it is not authorized to describe."));
                }
            }
        }
        return coordinator.modernGroups().consumerGroupHeartbeat(data, context.apiVersion(), context.clientId(),
            context.clientAddress().getHostAddress()).thenApply(response -> Responses.of(context,
                new ConsumerGroupHeartbeatResponse(response)));
    }

    private static ConsumerGroupHeartbeatResponseData error(Errors error, String message) {
        return new ConsumerGroupHeartbeatResponseData().setErrorCode(error.code()).setErrorMessage(message);
    }

    private static CompletableFuture<Response> answer(RequestContext context, ConsumerGroupHeartbeatResponseData data) {
        return Responses.completed(context, new ConsumerGroupHeartbeatResponse(data));
    }
}
