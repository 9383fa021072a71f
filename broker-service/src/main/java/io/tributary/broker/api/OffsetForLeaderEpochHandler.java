package io.tributary.broker.api;

import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.replica.EpochEndOffset;
import io.tributary.broker.replica.ReplicaManager;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.OffsetForLeaderEpochRequestData;
import org.apache.kafka.common.message.OffsetForLeaderEpochResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.OffsetsForLeaderEpochRequest;
import org.apache.kafka.common.requests.OffsetsForLeaderEpochResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * OffsetForLeaderEpoch (v2-4, KIP-101/KIP-320): for each partition the largest leader epoch at
 * most the requested one and the offset where it ends. Consumers use it to validate their
 * position after a leader change; followers to find where their log diverged.
 */
public final class OffsetForLeaderEpochHandler extends VersionedHandler {

    private final ReplicaManager replicaManager;

    public OffsetForLeaderEpochHandler(ReplicaManager replicaManager, BrokerAuthorizer authorizer) {
        super(ApiKeys.OFFSET_FOR_LEADER_EPOCH, 2, 4);
        this.replicaManager = replicaManager;
        this.authorizer = authorizer;
    }

    private final BrokerAuthorizer authorizer;

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        OffsetsForLeaderEpochRequest request = (OffsetsForLeaderEpochRequest) r;
        OffsetForLeaderEpochResponseData response = new OffsetForLeaderEpochResponseData().setThrottleTimeMs(0);
        // A follower with CLUSTER_ACTION on the cluster may ask about any topic; otherwise DESCRIBE on each topic (Kafka).
        java.util.Set<String> allowed = request.data().replicaId() >= 0
                && authorizer.authorizeCluster(context, AclOperation.CLUSTER_ACTION)
            ? request.data().topics().stream().map(OffsetForLeaderEpochRequestData.OffsetForLeaderTopic::topic)
                .collect(java.util.stream.Collectors.toSet())
            : authorizer.filter(context, AclOperation.DESCRIBE, ResourceType.TOPIC, request.data().topics().stream()
                .map(OffsetForLeaderEpochRequestData.OffsetForLeaderTopic::topic).toList());
        for (OffsetForLeaderEpochRequestData.OffsetForLeaderTopic topic : request.data().topics()) {
            OffsetForLeaderEpochResponseData.OffsetForLeaderTopicResult topicResult =
                new OffsetForLeaderEpochResponseData.OffsetForLeaderTopicResult().setTopic(topic.topic());
            for (OffsetForLeaderEpochRequestData.OffsetForLeaderPartition p : topic.partitions()) {
                if (!allowed.contains(topic.topic())) {
                    topicResult.partitions().add(new OffsetForLeaderEpochResponseData.EpochEndOffset()
                        .setPartition(p.partition()).setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code())
                        .setLeaderEpoch(-1).setEndOffset(-1));
                    continue;
                }
                EpochEndOffset end = replicaManager.lastOffsetForLeaderEpoch(
                    new TopicPartition(topic.topic(), p.partition()), p.currentLeaderEpoch(), p.leaderEpoch());
                topicResult.partitions().add(new OffsetForLeaderEpochResponseData.EpochEndOffset()
                    .setPartition(p.partition()).setErrorCode(end.error().code())
                    .setLeaderEpoch(end.leaderEpoch()).setEndOffset(end.endOffset()));
            }
            response.topics().add(topicResult);
        }
        return Responses.completed(context, new OffsetsForLeaderEpochResponse(response));
    }
}
