package io.tributary.broker.api;

import io.tributary.broker.group.GroupCoordinator;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.DescribeGroupsRequestData;
import org.apache.kafka.common.message.DescribeGroupsResponseData.DescribedGroup;
import org.apache.kafka.common.message.DescribeGroupsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.DescribeGroupsRequest;
import org.apache.kafka.common.requests.DescribeGroupsResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * DescribeGroups (v0-6): state, protocol and members of each group this broker coordinates.
 * Member metadata and assignments are given only while the group is Stable. An unknown group
 * is reported in state Dead with no error before v6 and with GROUP_ID_NOT_FOUND from v6
 * (KIP-1043); a group of another coordinator gets NOT_COORDINATOR. Authorized operations
 * (v3+, KIP-430) are every group operation, since there is no authorizer.
 */
public final class DescribeGroupsHandler extends VersionedHandler {

    private final GroupCoordinator coordinator;

    public DescribeGroupsHandler(GroupCoordinator coordinator, BrokerAuthorizer authorizer) {
        super(ApiKeys.DESCRIBE_GROUPS, 0, 6);
        this.coordinator = coordinator;
        this.authorizer = authorizer;
    }

    private final BrokerAuthorizer authorizer;

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        DescribeGroupsRequestData data = ((DescribeGroupsRequest) r).data();
        short version = context.apiVersion();
        Errors notFound = version >= 6 ? Errors.GROUP_ID_NOT_FOUND : Errors.NONE;
        DescribeGroupsResponseData response = new DescribeGroupsResponseData().setThrottleTimeMs(0);
        for (String groupId : data.groups()) {
            if (!authorizer.authorize(context, AclOperation.DESCRIBE, ResourceType.GROUP, groupId)) {
                response.groups().add(new DescribedGroup().setGroupId(groupId)
                    .setErrorCode(Errors.GROUP_AUTHORIZATION_FAILED.code())
                    .setErrorMessage(version >= 6 ? Errors.GROUP_AUTHORIZATION_FAILED.message() : null));
                continue;
            }
            DescribedGroup group = coordinator.describeGroup(groupId, notFound);
            if (version >= 6 && group.errorCode() != Errors.NONE.code()) {
                Errors error = Errors.forCode(group.errorCode());
                group.setErrorMessage(error == Errors.GROUP_ID_NOT_FOUND
                    ? "Group " + groupId + " not found." : error.message());
            }
            if (version >= 3 && data.includeAuthorizedOperations() && group.errorCode() == Errors.NONE.code()) {
                group.setAuthorizedOperations(authorizer.enabled()
                    ? AuthorizedOperations.of(authorizer, context, ResourceType.GROUP, groupId)
                    : AuthorizedOperations.GROUP_ALL);
            }
            response.groups().add(group);
        }
        return Responses.completed(context, new DescribeGroupsResponse(response));
    }
}
