package io.tributary.broker.api;

import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.replica.ListOffsetResult;
import io.tributary.broker.replica.ReplicaManager;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.ListOffsetsRequestData;
import org.apache.kafka.common.message.ListOffsetsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.ListOffsetsRequest;
import org.apache.kafka.common.requests.ListOffsetsResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * ListOffsets (v1-10): per partition the earliest offset (-2, the log start offset), the latest
 * (-1, the high watermark, or the last stable offset for read_committed), the record with the
 * largest timestamp (-3, KIP-734), the earliest local offset (-4), or the first offset whose
 * timestamp is at least the given one (-1 offset when none). Without tiered storage the latest
 * tiered offset (-5, KIP-1005) is -1. Every occurrence of a partition asked more than once gets
 * INVALID_REQUEST, as in Kafka.
 */
public final class ListOffsetsHandler extends VersionedHandler {

    private final ReplicaManager replicaManager;

    public ListOffsetsHandler(ReplicaManager replicaManager, BrokerAuthorizer authorizer) {
        super(ApiKeys.LIST_OFFSETS, 1, 10);
        this.replicaManager = replicaManager;
        this.authorizer = authorizer;
    }

    private final BrokerAuthorizer authorizer;

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        ListOffsetsRequest request = (ListOffsetsRequest) r;
        ListOffsetsResponseData response = new ListOffsetsResponseData().setThrottleTimeMs(0);
        Set<TopicPartition> seen = new HashSet<>();
        Set<TopicPartition> duplicates = new HashSet<>();
        for (ListOffsetsRequestData.ListOffsetsTopic topic : request.data().topics()) {
            for (ListOffsetsRequestData.ListOffsetsPartition p : topic.partitions()) {
                TopicPartition tp = new TopicPartition(topic.name(), p.partitionIndex());
                if (!seen.add(tp)) {
                    duplicates.add(tp);
                }
            }
        }
        // DESCRIBE on each topic, else TOPIC_AUTHORIZATION_FAILED for its partitions (Kafka).
        Set<String> describable = authorizer.filter(context, AclOperation.DESCRIBE, ResourceType.TOPIC,
            request.data().topics().stream().map(ListOffsetsRequestData.ListOffsetsTopic::name).toList());
        for (ListOffsetsRequestData.ListOffsetsTopic topic : request.data().topics()) {
            ListOffsetsResponseData.ListOffsetsTopicResponse topicResponse =
                new ListOffsetsResponseData.ListOffsetsTopicResponse().setName(topic.name());
            for (ListOffsetsRequestData.ListOffsetsPartition p : topic.partitions()) {
                TopicPartition tp = new TopicPartition(topic.name(), p.partitionIndex());
                ListOffsetsResponseData.ListOffsetsPartitionResponse partition =
                    new ListOffsetsResponseData.ListOffsetsPartitionResponse().setPartitionIndex(p.partitionIndex());
                if (!describable.contains(topic.name())) {
                    partition.setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code()).setOffset(-1).setTimestamp(-1);
                } else if (duplicates.contains(tp)) {
                    partition.setErrorCode(Errors.INVALID_REQUEST.code()).setOffset(-1).setTimestamp(-1);
                } else {
                    ListOffsetResult result = replicaManager.listOffset(tp, p.timestamp(),
                        request.isolationLevel(), p.currentLeaderEpoch());
                    partition.setErrorCode(result.error().code()).setOffset(result.offset())
                        .setTimestamp(result.timestamp());
                    if (context.apiVersion() >= 4) {
                        partition.setLeaderEpoch(result.leaderEpoch());
                    }
                }
                topicResponse.partitions().add(partition);
            }
            response.topics().add(topicResponse);
        }
        return Responses.completed(context, new ListOffsetsResponse(response));
    }
}
