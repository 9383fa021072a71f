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
import org.apache.kafka.common.message.ReadShareGroupStateSummaryRequestData;
import org.apache.kafka.common.message.ReadShareGroupStateSummaryResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.ReadShareGroupStateSummaryRequest;
import org.apache.kafka.common.requests.ReadShareGroupStateSummaryResponse;
import org.apache.kafka.coordinator.share.ShareGroupOffset;

/**
 * ReadShareGroupStateSummary (v0-1, KIP-932), sent by a group coordinator describing a share
 * group's offsets: each share-partition's state epoch, leader epoch and start offset (v1: its
 * delivery complete count), without the batches and without storing a leader epoch. A share-partition
 * never initialized reads as start offset -1. Needs CLUSTER_ACTION on the cluster; per partition
 * NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE.
 */
public final class ReadShareGroupStateSummaryHandler extends VersionedHandler {

    private final ShareCoordinator coordinator;
    private final BrokerAuthorizer authorizer;

    ReadShareGroupStateSummaryHandler(ShareCoordinator coordinator, BrokerAuthorizer authorizer) {
        super(ApiKeys.READ_SHARE_GROUP_STATE_SUMMARY, 0, 1);
        this.coordinator = coordinator;
        this.authorizer = authorizer;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        ReadShareGroupStateSummaryRequest request = (ReadShareGroupStateSummaryRequest) r;
        if (!authorizer.authorizeCluster(context, AclOperation.CLUSTER_ACTION)) {
            return Responses.clusterAuthorizationFailed(context, request);
        }
        String groupId = request.data().groupId();
        List<CompletableFuture<ReadShareGroupStateSummaryResponseData.ReadStateSummaryResult>> topics = new ArrayList<>();
        for (ReadShareGroupStateSummaryRequestData.ReadStateSummaryData topic : request.data().topics()) {
            List<CompletableFuture<ReadShareGroupStateSummaryResponseData.PartitionResult>> partitions = new ArrayList<>();
            for (ReadShareGroupStateSummaryRequestData.PartitionData p : topic.partitions()) {
                partitions.add(coordinator.read(new ShareStateKey(groupId, topic.topicId(), p.partition()), -1)
                    .thenApply(read -> result(p.partition(), read)));
            }
            topics.add(ShareStateCalls.all(partitions).thenApply(results ->
                new ReadShareGroupStateSummaryResponseData.ReadStateSummaryResult().setTopicId(topic.topicId())
                    .setPartitions(results)));
        }
        return ShareStateCalls.all(topics).thenApply(results -> Responses.of(context,
            new ReadShareGroupStateSummaryResponse(new ReadShareGroupStateSummaryResponseData().setResults(results))));
    }

    private static ReadShareGroupStateSummaryResponseData.PartitionResult result(int partition,
                                                                                  ShareCoordinator.ReadResult read) {
        ReadShareGroupStateSummaryResponseData.PartitionResult result =
            new ReadShareGroupStateSummaryResponseData.PartitionResult().setPartition(partition)
                .setErrorCode(read.error().code()).setErrorMessage(ShareStateCalls.message(read.error()))
                .setStateEpoch(0).setLeaderEpoch(-1).setStartOffset(-1).setDeliveryCompleteCount(-1);
        if (read.error() == Errors.NONE && read.state().isPresent()) {
            ShareGroupOffset state = read.state().get();
            result.setStateEpoch(state.stateEpoch()).setLeaderEpoch(state.leaderEpoch()).setStartOffset(state.startOffset())
                .setDeliveryCompleteCount(state.deliveryCompleteCount());
        }
        return result;
    }
}
