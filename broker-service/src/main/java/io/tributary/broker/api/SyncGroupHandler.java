package io.tributary.broker.api;

import io.tributary.broker.group.GroupCoordinator;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.SyncGroupRequest;
import org.apache.kafka.common.requests.SyncGroupResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * SyncGroup (v0-5): members wait until the leader's assignment is stored, then each gets its
 * part. v5 checks the protocol type and name against the group's (KIP-559).
 */
public final class SyncGroupHandler extends VersionedHandler {

    private final GroupCoordinator coordinator;

    public SyncGroupHandler(GroupCoordinator coordinator, BrokerAuthorizer authorizer) {
        super(ApiKeys.SYNC_GROUP, 0, 5);
        this.coordinator = coordinator;
        this.authorizer = authorizer;
    }

    private final BrokerAuthorizer authorizer;

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        SyncGroupRequest request = (SyncGroupRequest) r;
        if (!authorizer.authorize(context, AclOperation.READ, ResourceType.GROUP, request.data().groupId())) {
            // READ on the group, else GROUP_AUTHORIZATION_FAILED (Kafka).
            return Responses.completed(context, request.getErrorResponse(0, Errors.GROUP_AUTHORIZATION_FAILED.exception()));
        }
        return coordinator.syncGroup(request.data()).thenApply(data -> Responses.of(context, new SyncGroupResponse(data)));
    }
}
