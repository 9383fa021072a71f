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
import org.apache.kafka.common.message.ReadShareGroupStateRequestData;
import org.apache.kafka.common.message.ReadShareGroupStateResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.ReadShareGroupStateRequest;
import org.apache.kafka.common.requests.ReadShareGroupStateResponse;
import org.apache.kafka.coordinator.share.ShareGroupOffset;

/**
 * ReadShareGroupState (v0, KIP-932), sent by a share-partition's new leader: each share-partition's
 * state epoch, start offset and state batches; a share-partition never initialized reads as start
 * offset -1, state epoch 0, no batches, as Kafka answers. A leader epoch above the stored one is
 * stored (fencing the older leader); one below gets FENCED_LEADER_EPOCH. Needs CLUSTER_ACTION on the
 * cluster; per partition also NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE.
 */
public final class ReadShareGroupStateHandler extends VersionedHandler {

    private final ShareCoordinator coordinator;
    private final BrokerAuthorizer authorizer;

    ReadShareGroupStateHandler(ShareCoordinator coordinator, BrokerAuthorizer authorizer) {
        super(ApiKeys.READ_SHARE_GROUP_STATE, 0, 0);
        this.coordinator = coordinator;
        this.authorizer = authorizer;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        ReadShareGroupStateRequest request = (ReadShareGroupStateRequest) r;
        if (!authorizer.authorizeCluster(context, AclOperation.CLUSTER_ACTION)) {
            return Responses.clusterAuthorizationFailed(context, request);
        }
        String groupId = request.data().groupId();
        List<CompletableFuture<ReadShareGroupStateResponseData.ReadStateResult>> topics = new ArrayList<>();
        for (ReadShareGroupStateRequestData.ReadStateData topic : request.data().topics()) {
            List<CompletableFuture<ReadShareGroupStateResponseData.PartitionResult>> partitions = new ArrayList<>();
            for (ReadShareGroupStateRequestData.PartitionData p : topic.partitions()) {
                partitions.add(coordinator.read(new ShareStateKey(groupId, topic.topicId(), p.partition()), p.leaderEpoch())
                    .thenApply(read -> result(p.partition(), read)));
            }
            topics.add(ShareStateCalls.all(partitions).thenApply(results ->
                new ReadShareGroupStateResponseData.ReadStateResult().setTopicId(topic.topicId()).setPartitions(results)));
        }
        return ShareStateCalls.all(topics).thenApply(results -> Responses.of(context,
            new ReadShareGroupStateResponse(new ReadShareGroupStateResponseData().setResults(results))));
    }

    private static ReadShareGroupStateResponseData.PartitionResult result(int partition, ShareCoordinator.ReadResult read) {
        ReadShareGroupStateResponseData.PartitionResult result = new ReadShareGroupStateResponseData.PartitionResult()
            .setPartition(partition).setErrorCode(read.error().code()).setErrorMessage(ShareStateCalls.message(read.error()))
            .setStateEpoch(0).setStartOffset(-1);
        if (read.error() == Errors.NONE && read.state().isPresent()) {
            ShareGroupOffset state = read.state().get();
            result.setStateEpoch(state.stateEpoch()).setStartOffset(state.startOffset())
                .setStateBatches(state.stateBatches().stream().map(b -> new ReadShareGroupStateResponseData.StateBatch()
                    .setFirstOffset(b.firstOffset()).setLastOffset(b.lastOffset()).setDeliveryState(b.deliveryState())
                    .setDeliveryCount(b.deliveryCount())).toList());
        }
        return result;
    }
}
