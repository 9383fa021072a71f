package io.tributary.broker.api;

import io.tributary.broker.group.GroupCoordinator;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.ListGroupsRequestData;
import org.apache.kafka.common.message.ListGroupsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.ListGroupsRequest;
import org.apache.kafka.common.requests.ListGroupsResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * ListGroups (v0-5): the groups this broker coordinates, filtered by state (v4+, KIP-518) and
 * by type (v5+, KIP-848; every group here is "classic"). COORDINATOR_LOAD_IN_PROGRESS says
 * some offsets partition is still loading, with the groups already known.
 */
public final class ListGroupsHandler extends VersionedHandler {

    private final GroupCoordinator coordinator;

    public ListGroupsHandler(GroupCoordinator coordinator, BrokerAuthorizer authorizer) {
        super(ApiKeys.LIST_GROUPS, 0, 5);
        this.coordinator = coordinator;
        this.authorizer = authorizer;
    }

    private final BrokerAuthorizer authorizer;

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        ListGroupsRequestData data = ((ListGroupsRequest) r).data();
        short version = context.apiVersion();
        Map.Entry<Errors, List<GroupCoordinator.ListedGroup>> listed = coordinator.listGroups(
            version >= 4 ? data.statesFilter() : List.of(), version >= 5 ? data.typesFilter() : List.of());
        ListGroupsResponseData response = new ListGroupsResponseData().setThrottleTimeMs(0)
            .setErrorCode(listed.getKey().code());
        // DESCRIBE on the cluster lists every group; otherwise only those the principal may DESCRIBE.
        java.util.Set<String> visible = authorizer.authorizeCluster(context, AclOperation.DESCRIBE) ? null
            : authorizer.filter(context, AclOperation.DESCRIBE, ResourceType.GROUP,
                listed.getValue().stream().map(GroupCoordinator.ListedGroup::groupId).toList());
        for (GroupCoordinator.ListedGroup group : listed.getValue()) {
            if (visible != null && !visible.contains(group.groupId())) {
                continue;
            }
            response.groups().add(new ListGroupsResponseData.ListedGroup().setGroupId(group.groupId())
                .setProtocolType(group.protocolType()).setGroupState(group.state()).setGroupType(group.type()));
        }
        return Responses.completed(context, new ListGroupsResponse(response));
    }
}
