package io.tributary.broker.api;

import io.tributary.broker.group.GroupCoordinator;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.HeartbeatResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.HeartbeatRequest;
import org.apache.kafka.common.requests.HeartbeatResponse;
import org.apache.kafka.common.resource.ResourceType;

/** Heartbeat (v0-4): keeps a member's session; REBALANCE_IN_PROGRESS tells it to rejoin. */
public final class HeartbeatHandler extends VersionedHandler {

    private final GroupCoordinator coordinator;

    public HeartbeatHandler(GroupCoordinator coordinator, BrokerAuthorizer authorizer) {
        super(ApiKeys.HEARTBEAT, 0, 4);
        this.coordinator = coordinator;
        this.authorizer = authorizer;
    }

    private final BrokerAuthorizer authorizer;

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        HeartbeatRequest request = (HeartbeatRequest) r;
        if (!authorizer.authorize(context, AclOperation.READ, ResourceType.GROUP, request.data().groupId())) {
            // READ on the group, else GROUP_AUTHORIZATION_FAILED (Kafka).
            return Responses.completed(context, request.getErrorResponse(0, Errors.GROUP_AUTHORIZATION_FAILED.exception()));
        }
        var error = coordinator.heartbeat(request.data().groupId(), request.data().memberId(),
            request.data().groupInstanceId(), request.data().generationId());
        return Responses.completed(context, new HeartbeatResponse(new HeartbeatResponseData().setErrorCode(error.code())));
    }
}
