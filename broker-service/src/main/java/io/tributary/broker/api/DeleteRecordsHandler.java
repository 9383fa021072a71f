package io.tributary.broker.api;

import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.replica.DeleteRecordsResult;
import io.tributary.broker.replica.ReplicaManager;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.DeleteRecordsRequestData;
import org.apache.kafka.common.message.DeleteRecordsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.DeleteRecordsRequest;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.DeleteRecordsResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * DeleteRecords (v0-2, KIP-107): moves each partition's log start offset up to the given
 * offset (-1: the high watermark) and answers with the new low watermark. Whole segments below
 * it are deleted by the next retention run. An offset above the high watermark gets
 * OFFSET_OUT_OF_RANGE. Each topic needs DELETE on it: otherwise its partitions get
 * TOPIC_AUTHORIZATION_FAILED with low watermark -1, whether or not it exists, as Kafka.
 */
public final class DeleteRecordsHandler extends VersionedHandler {

    private final ReplicaManager replicaManager;
    private final BrokerAuthorizer authorizer;

    public DeleteRecordsHandler(ReplicaManager replicaManager, BrokerAuthorizer authorizer) {
        super(ApiKeys.DELETE_RECORDS, 0, 2);
        this.replicaManager = replicaManager;
        this.authorizer = authorizer;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        DeleteRecordsRequest request = (DeleteRecordsRequest) r;
        DeleteRecordsResponseData data = new DeleteRecordsResponseData().setThrottleTimeMs(0);
        Set<String> deletable = authorizer.filter(context, AclOperation.DELETE, ResourceType.TOPIC,
            request.data().topics().stream().map(DeleteRecordsRequestData.DeleteRecordsTopic::name).toList());
        for (DeleteRecordsRequestData.DeleteRecordsTopic topic : request.data().topics()) {
            DeleteRecordsResponseData.DeleteRecordsTopicResult topicResult =
                new DeleteRecordsResponseData.DeleteRecordsTopicResult().setName(topic.name());
            for (DeleteRecordsRequestData.DeleteRecordsPartition p : topic.partitions()) {
                if (!deletable.contains(topic.name())) {
                    topicResult.partitions().add(new DeleteRecordsResponseData.DeleteRecordsPartitionResult()
                        .setPartitionIndex(p.partitionIndex()).setLowWatermark(DeleteRecordsResponse.INVALID_LOW_WATERMARK)
                        .setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code()));
                    continue;
                }
                DeleteRecordsResult result = replicaManager.deleteRecords(
                    new TopicPartition(topic.name(), p.partitionIndex()), p.offset());
                topicResult.partitions().add(new DeleteRecordsResponseData.DeleteRecordsPartitionResult()
                    .setPartitionIndex(p.partitionIndex()).setLowWatermark(result.lowWatermark())
                    .setErrorCode(result.error().code()));
            }
            data.topics().add(topicResult);
        }
        return Responses.completed(context, new DeleteRecordsResponse(data));
    }
}
