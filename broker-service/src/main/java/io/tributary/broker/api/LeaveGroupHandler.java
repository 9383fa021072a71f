package io.tributary.broker.api;

import io.tributary.broker.group.GroupCoordinator;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.LeaveGroupRequestData;
import org.apache.kafka.common.message.LeaveGroupResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.LeaveGroupRequest;
import org.apache.kafka.common.requests.LeaveGroupResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * LeaveGroup (v0-5): one member up to v2, a batch of members (by member id or group instance
 * id) from v3 (KIP-345), each with its own error. The group rebalances at once.
 */
public final class LeaveGroupHandler extends VersionedHandler {

    private final GroupCoordinator coordinator;

    public LeaveGroupHandler(GroupCoordinator coordinator, BrokerAuthorizer authorizer) {
        super(ApiKeys.LEAVE_GROUP, 0, 5);
        this.coordinator = coordinator;
        this.authorizer = authorizer;
    }

    private final BrokerAuthorizer authorizer;

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        LeaveGroupRequest request = (LeaveGroupRequest) r;
        if (!authorizer.authorize(context, AclOperation.READ, ResourceType.GROUP, request.data().groupId())) {
            // READ on the group, else GROUP_AUTHORIZATION_FAILED (Kafka).
            return Responses.completed(context, request.getErrorResponse(0, Errors.GROUP_AUTHORIZATION_FAILED.exception()));
        }
        LeaveGroupRequestData data = request.data();
        List<GroupCoordinator.Leaving> leaving = new ArrayList<>();
        if (context.apiVersion() >= 3) {
            data.members().forEach(m -> leaving.add(new GroupCoordinator.Leaving(m.memberId(), m.groupInstanceId(), m.reason())));
        } else {
            leaving.add(new GroupCoordinator.Leaving(data.memberId(), null, null));
        }
        Map.Entry<Errors, List<Errors>> result = coordinator.leaveGroup(data.groupId(), leaving);
        LeaveGroupResponseData response = new LeaveGroupResponseData().setThrottleTimeMs(0);
        if (context.apiVersion() >= 3) {
            response.setErrorCode(result.getKey().code());
            for (int i = 0; i < leaving.size() && result.getKey() == Errors.NONE; i++) {
                response.members().add(new LeaveGroupResponseData.MemberResponse().setMemberId(leaving.get(i).memberId())
                    .setGroupInstanceId(leaving.get(i).groupInstanceId()).setErrorCode(result.getValue().get(i).code()));
            }
        } else {
            Errors error = result.getKey() != Errors.NONE ? result.getKey() : result.getValue().get(0);
            response.setErrorCode(error.code());
        }
        return Responses.completed(context, new LeaveGroupResponse(response));
    }
}
