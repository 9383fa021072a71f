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
import org.apache.kafka.common.message.InitializeShareGroupStateRequestData;
import org.apache.kafka.common.message.InitializeShareGroupStateResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.InitializeShareGroupStateRequest;
import org.apache.kafka.common.requests.InitializeShareGroupStateResponse;

/**
 * InitializeShareGroupState (v0, KIP-932), sent by a group coordinator or partition leader to the
 * share coordinator: (re)creates each share-partition's state with a state epoch and start offset.
 * Needs CLUSTER_ACTION on the cluster (the request's CLUSTER_AUTHORIZATION_FAILED response); per
 * partition NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE or
 * FENCED_STATE_EPOCH (a state epoch below the stored one).
 */
public final class InitializeShareGroupStateHandler extends VersionedHandler {

    private final ShareCoordinator coordinator;
    private final BrokerAuthorizer authorizer;

    InitializeShareGroupStateHandler(ShareCoordinator coordinator, BrokerAuthorizer authorizer) {
        super(ApiKeys.INITIALIZE_SHARE_GROUP_STATE, 0, 0);
        this.coordinator = coordinator;
        this.authorizer = authorizer;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        InitializeShareGroupStateRequest request = (InitializeShareGroupStateRequest) r;
        if (!authorizer.authorizeCluster(context, AclOperation.CLUSTER_ACTION)) {
            return Responses.clusterAuthorizationFailed(context, request);
        }
        String groupId = request.data().groupId();
        List<CompletableFuture<InitializeShareGroupStateResponseData.InitializeStateResult>> topics = new ArrayList<>();
        for (InitializeShareGroupStateRequestData.InitializeStateData topic : request.data().topics()) {
            List<CompletableFuture<InitializeShareGroupStateResponseData.PartitionResult>> partitions = new ArrayList<>();
            for (InitializeShareGroupStateRequestData.PartitionData p : topic.partitions()) {
                partitions.add(coordinator.initialize(new ShareStateKey(groupId, topic.topicId(), p.partition()),
                    p.stateEpoch(), p.startOffset()).thenApply(error -> result(p.partition(), error)));
            }
            topics.add(ShareStateCalls.all(partitions).thenApply(results ->
                new InitializeShareGroupStateResponseData.InitializeStateResult().setTopicId(topic.topicId())
                    .setPartitions(results)));
        }
        return ShareStateCalls.all(topics).thenApply(results -> Responses.of(context,
            new InitializeShareGroupStateResponse(new InitializeShareGroupStateResponseData().setResults(results))));
    }

    private static InitializeShareGroupStateResponseData.PartitionResult result(int partition, Errors error) {
        return new InitializeShareGroupStateResponseData.PartitionResult().setPartition(partition)
            .setErrorCode(error.code()).setErrorMessage(ShareStateCalls.message(error));
    }
}
