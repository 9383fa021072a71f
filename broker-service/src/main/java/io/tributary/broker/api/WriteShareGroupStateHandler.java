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
import org.apache.kafka.common.message.WriteShareGroupStateRequestData;
import org.apache.kafka.common.message.WriteShareGroupStateResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.WriteShareGroupStateRequest;
import org.apache.kafka.common.requests.WriteShareGroupStateResponse;
import org.apache.kafka.server.share.persister.PersisterStateBatch;

/**
 * WriteShareGroupState (v0-1, KIP-932), sent by a share-partition leader to the share coordinator:
 * merges the given state batches and start offset into each share-partition's state, acknowledged
 * once committed to {@code __share_group_state}. Needs CLUSTER_ACTION on the cluster; per partition
 * NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE, FENCED_LEADER_EPOCH,
 * FENCED_STATE_EPOCH, or INVALID_REQUEST for a share-partition never initialized (as Kafka 4.4). v1 adds the delivery complete count (-1 in v0: unknown).
 */
public final class WriteShareGroupStateHandler extends VersionedHandler {

    private final ShareCoordinator coordinator;
    private final BrokerAuthorizer authorizer;

    WriteShareGroupStateHandler(ShareCoordinator coordinator, BrokerAuthorizer authorizer) {
        super(ApiKeys.WRITE_SHARE_GROUP_STATE, 0, 1);
        this.coordinator = coordinator;
        this.authorizer = authorizer;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        WriteShareGroupStateRequest request = (WriteShareGroupStateRequest) r;
        if (!authorizer.authorizeCluster(context, AclOperation.CLUSTER_ACTION)) {
            return Responses.clusterAuthorizationFailed(context, request);
        }
        String groupId = request.data().groupId();
        List<CompletableFuture<WriteShareGroupStateResponseData.WriteStateResult>> topics = new ArrayList<>();
        for (WriteShareGroupStateRequestData.WriteStateData topic : request.data().topics()) {
            List<CompletableFuture<WriteShareGroupStateResponseData.PartitionResult>> partitions = new ArrayList<>();
            for (WriteShareGroupStateRequestData.PartitionData p : topic.partitions()) {
                List<PersisterStateBatch> batches = p.stateBatches().stream().map(PersisterStateBatch::from).toList();
                int deliveryCompleteCount = context.apiVersion() >= 1 ? p.deliveryCompleteCount() : -1;
                partitions.add(coordinator.write(new ShareStateKey(groupId, topic.topicId(), p.partition()),
                        p.stateEpoch(), p.leaderEpoch(), p.startOffset(), deliveryCompleteCount, batches)
                    .thenApply(error -> result(p.partition(), error)));
            }
            topics.add(ShareStateCalls.all(partitions).thenApply(results ->
                new WriteShareGroupStateResponseData.WriteStateResult().setTopicId(topic.topicId()).setPartitions(results)));
        }
        return ShareStateCalls.all(topics).thenApply(results -> Responses.of(context,
            new WriteShareGroupStateResponse(new WriteShareGroupStateResponseData().setResults(results))));
    }

    private static WriteShareGroupStateResponseData.PartitionResult result(int partition, Errors error) {
        return new WriteShareGroupStateResponseData.PartitionResult().setPartition(partition)
            .setErrorCode(error.code()).setErrorMessage(ShareStateCalls.message(error));
    }
}
