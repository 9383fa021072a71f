package io.tributary.broker.api;

import io.tributary.broker.group.GroupCoordinator;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.OffsetDeleteRequestData;
import org.apache.kafka.common.message.OffsetDeleteResponseData;
import org.apache.kafka.common.message.OffsetDeleteResponseData.OffsetDeleteResponsePartition;
import org.apache.kafka.common.message.OffsetDeleteResponseData.OffsetDeleteResponseTopic;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.OffsetDeleteRequest;
import org.apache.kafka.common.requests.OffsetDeleteResponse;

/**
 * OffsetDelete (v0, KIP-496): deletes a group's committed offsets of topics no member
 * subscribes to. Group errors: GROUP_ID_NOT_FOUND, NON_EMPTY_GROUP (an active group that does
 * not use the consumer protocol), NOT_COORDINATOR; partition error GROUP_SUBSCRIBED_TO_TOPIC.
 */
public final class OffsetDeleteHandler extends VersionedHandler {

    private final GroupCoordinator coordinator;

    public OffsetDeleteHandler(GroupCoordinator coordinator) {
        super(ApiKeys.OFFSET_DELETE, 0, 0);
        this.coordinator = coordinator;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        OffsetDeleteRequestData data = ((OffsetDeleteRequest) r).data();
        List<TopicPartition> partitions = new ArrayList<>();
        data.topics().forEach(t -> t.partitions().forEach(p -> partitions.add(new TopicPartition(t.name(), p.partitionIndex()))));
        return coordinator.deleteOffsets(data.groupId(), partitions).thenApply(result -> {
            OffsetDeleteResponseData response = new OffsetDeleteResponseData().setThrottleTimeMs(0)
                .setErrorCode(result.getKey().code());
            if (result.getKey() == Errors.NONE) {
                for (Map.Entry<TopicPartition, Errors> e : result.getValue().entrySet()) {
                    OffsetDeleteResponseTopic topic = response.topics().find(e.getKey().topic());
                    if (topic == null) {
                        topic = new OffsetDeleteResponseTopic().setName(e.getKey().topic());
                        response.topics().add(topic);
                    }
                    topic.partitions().add(new OffsetDeleteResponsePartition().setPartitionIndex(e.getKey().partition())
                        .setErrorCode(e.getValue().code()));
                }
            }
            return Responses.of(context, new OffsetDeleteResponse(response));
        });
    }
}
