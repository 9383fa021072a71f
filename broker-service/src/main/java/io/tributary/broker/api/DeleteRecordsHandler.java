package io.tributary.broker.api;

import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.replica.DeleteRecordsResult;
import io.tributary.broker.replica.ReplicaManager;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.DeleteRecordsRequestData;
import org.apache.kafka.common.message.DeleteRecordsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.DeleteRecordsRequest;
import org.apache.kafka.common.requests.DeleteRecordsResponse;

/**
 * DeleteRecords (v0-2, KIP-107): moves each partition's log start offset up to the given
 * offset (-1: the high watermark) and answers with the new low watermark. Whole segments below
 * it are deleted by the next retention run. An offset above the high watermark gets
 * OFFSET_OUT_OF_RANGE.
 */
public final class DeleteRecordsHandler extends VersionedHandler {

    private final ReplicaManager replicaManager;

    public DeleteRecordsHandler(ReplicaManager replicaManager) {
        super(ApiKeys.DELETE_RECORDS, 0, 2);
        this.replicaManager = replicaManager;
    }

    @Override
    public boolean blocking() {
        return true;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        DeleteRecordsRequest request = (DeleteRecordsRequest) r;
        DeleteRecordsResponseData data = new DeleteRecordsResponseData().setThrottleTimeMs(0);
        for (DeleteRecordsRequestData.DeleteRecordsTopic topic : request.data().topics()) {
            DeleteRecordsResponseData.DeleteRecordsTopicResult topicResult =
                new DeleteRecordsResponseData.DeleteRecordsTopicResult().setName(topic.name());
            for (DeleteRecordsRequestData.DeleteRecordsPartition p : topic.partitions()) {
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
