package io.tributary.broker.api;

import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.BrokerAuthorizer;
import io.tributary.broker.share.coordinator.ShareCoordinator;
import io.tributary.broker.share.coordinator.ShareStateKey;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.DeleteShareGroupStateRequestData;
import org.apache.kafka.common.message.DeleteShareGroupStateResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.DeleteShareGroupStateRequest;
import org.apache.kafka.common.requests.DeleteShareGroupStateResponse;

/**
 * DeleteShareGroupState (v0, KIP-932): removes share-partitions' state (a tombstone in
 * {@code __share_group_state}); NONE for one that has none. Needs CLUSTER_ACTION on the cluster;
 * per partition NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS or COORDINATOR_NOT_AVAILABLE.
 */
public final class DeleteShareGroupStateHandler extends VersionedHandler {

    private final ShareCoordinator coordinator;
    private final BrokerAuthorizer authorizer;

    DeleteShareGroupStateHandler(ShareCoordinator coordinator, BrokerAuthorizer authorizer) {
        super(ApiKeys.DELETE_SHARE_GROUP_STATE, 0, 0);
        this.coordinator = coordinator;
        this.authorizer = authorizer;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        DeleteShareGroupStateRequest request = (DeleteShareGroupStateRequest) r;
        if (!authorizer.authorizeCluster(context, AclOperation.CLUSTER_ACTION)) {
            return Responses.clusterAuthorizationFailed(context, request);
        }
        String groupId = request.data().groupId();
        List<CompletableFuture<DeleteShareGroupStateResponseData.DeleteStateResult>> topics = new ArrayList<>();
        for (DeleteShareGroupStateRequestData.DeleteStateData topic : request.data().topics()) {
            List<CompletableFuture<DeleteShareGroupStateResponseData.PartitionResult>> partitions = new ArrayList<>();
            for (DeleteShareGroupStateRequestData.PartitionData p : topic.partitions()) {
                partitions.add(coordinator.delete(new ShareStateKey(groupId, topic.topicId(), p.partition()))
                    .thenApply(error -> result(p.partition(), error)));
            }
            topics.add(ShareStateCalls.all(partitions).thenApply(results ->
                new DeleteShareGroupStateResponseData.DeleteStateResult().setTopicId(topic.topicId()).setPartitions(results)));
        }
        return ShareStateCalls.all(topics).thenApply(results -> Responses.of(context,
            new DeleteShareGroupStateResponse(new DeleteShareGroupStateResponseData().setResults(results))));
    }

    private static DeleteShareGroupStateResponseData.PartitionResult result(int partition, Errors error) {
        return new DeleteShareGroupStateResponseData.PartitionResult().setPartition(partition)
            .setErrorCode(error.code()).setErrorMessage(ShareStateCalls.message(error));
    }
}
