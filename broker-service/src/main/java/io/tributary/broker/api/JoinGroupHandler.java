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
import org.apache.kafka.common.requests.JoinGroupRequest;
import org.apache.kafka.common.requests.JoinGroupResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * JoinGroup (v0-9, advertised from v0 so old librdkafka enables its balanced consumer). The
 * answer may wait for the whole group to rejoin (up to the rebalance timeout). From v4 a new
 * member first gets MEMBER_ID_REQUIRED with its id (KIP-394).
 */
public final class JoinGroupHandler extends VersionedHandler {

    private final GroupCoordinator coordinator;

    public JoinGroupHandler(GroupCoordinator coordinator, BrokerAuthorizer authorizer) {
        super(ApiKeys.JOIN_GROUP, 0, 9);
        this.coordinator = coordinator;
        this.authorizer = authorizer;
    }

    private final BrokerAuthorizer authorizer;

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        JoinGroupRequest request = (JoinGroupRequest) r;
        if (!authorizer.authorize(context, AclOperation.READ, ResourceType.GROUP, request.data().groupId())) {
            // READ on the group, else GROUP_AUTHORIZATION_FAILED (Kafka).
            return Responses.completed(context, request.getErrorResponse(0, Errors.GROUP_AUTHORIZATION_FAILED.exception()));
        }
        String clientHost = context.clientAddress() == null ? "" : context.clientAddress().toString();
        return coordinator.joinGroup(request.data(), context.apiVersion() >= 4, context.apiVersion() >= 9,
            context.clientId(), clientHost)
            .thenApply(data -> {
                if (context.apiVersion() < 7 && data.protocolName() == null) {
                    data.setProtocolName("");
                }
                if (data.leader() == null) {
                    data.setLeader("");
                }
                return Responses.of(context, new JoinGroupResponse(data, context.apiVersion()));
            });
    }
}
