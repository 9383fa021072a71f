package io.tributary.broker.api;

import io.tributary.broker.group.GroupCoordinator;
import io.tributary.broker.group.ShareGroupOffsets;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.DeleteGroupsRequestData;
import org.apache.kafka.common.message.DeleteGroupsResponseData.DeletableGroupResult;
import org.apache.kafka.common.message.DeleteGroupsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.DeleteGroupsRequest;
import org.apache.kafka.common.requests.DeleteGroupsResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * DeleteGroups (v0-3): deletes empty groups and their committed offsets; a share group's share
 * coordinator state goes first (DeleteShareGroupState of every partition it has state for, as Kafka
 * 4.4 does; its error keeps the group). Errors per group:
 * GROUP_ID_NOT_FOUND, NON_EMPTY_GROUP (members remain), NOT_COORDINATOR,
 * COORDINATOR_LOAD_IN_PROGRESS, or the error of writing the tombstones.
 */
public final class DeleteGroupsHandler extends VersionedHandler {

    private final GroupCoordinator coordinator;
    private final ShareGroupOffsets shareGroupOffsets;

    public DeleteGroupsHandler(GroupCoordinator coordinator, ShareGroupOffsets shareGroupOffsets,
                               BrokerAuthorizer authorizer) {
        super(ApiKeys.DELETE_GROUPS, 0, 3);
        this.coordinator = coordinator;
        this.shareGroupOffsets = shareGroupOffsets;
        this.authorizer = authorizer;
    }

    private final BrokerAuthorizer authorizer;

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        DeleteGroupsRequestData data = ((DeleteGroupsRequest) r).data();
        List<String> groupIds = List.copyOf(new LinkedHashSet<>(data.groupsNames()));
        List<CompletableFuture<Errors>> results = new ArrayList<>();
        java.util.Set<String> deletable = authorizer.filter(context, AclOperation.DELETE, ResourceType.GROUP, groupIds);
        for (String groupId : groupIds) {
            results.add(deletable.contains(groupId)
                ? shareGroupOffsets.deleteGroupState(groupId).thenCompose(error -> error != Errors.NONE
                    ? CompletableFuture.completedFuture(error) : coordinator.deleteGroup(groupId))
                : CompletableFuture.completedFuture(Errors.GROUP_AUTHORIZATION_FAILED));
        }
        return CompletableFuture.allOf(results.toArray(CompletableFuture[]::new)).thenApply(done -> {
            DeleteGroupsResponseData response = new DeleteGroupsResponseData().setThrottleTimeMs(0);
            for (int i = 0; i < groupIds.size(); i++) {
                response.results().add(new DeletableGroupResult().setGroupId(groupIds.get(i))
                    .setErrorCode(results.get(i).join().code()));
            }
            return Responses.of(context, new DeleteGroupsResponse(response));
        });
    }
}
