package io.tributary.broker.api;

import io.tributary.broker.group.GroupCoordinator;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.OffsetDeleteRequestData;
import org.apache.kafka.common.message.OffsetDeleteResponseData.OffsetDeleteResponsePartition;
import org.apache.kafka.common.message.OffsetDeleteResponseData.OffsetDeleteResponseTopic;
import org.apache.kafka.common.message.OffsetDeleteResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.OffsetDeleteRequest;
import org.apache.kafka.common.requests.OffsetDeleteResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * OffsetDelete (v0, KIP-496): deletes a group's committed offsets of topics no member
 * subscribes to. Group errors: GROUP_ID_NOT_FOUND, NON_EMPTY_GROUP (an active group that does
 * not use the consumer protocol), NOT_COORDINATOR; partition error GROUP_SUBSCRIBED_TO_TOPIC.
 */
public final class OffsetDeleteHandler extends VersionedHandler {

    private final GroupCoordinator coordinator;

    public OffsetDeleteHandler(GroupCoordinator coordinator, BrokerAuthorizer authorizer) {
        super(ApiKeys.OFFSET_DELETE, 0, 0);
        this.coordinator = coordinator;
        this.authorizer = authorizer;
    }

    private final BrokerAuthorizer authorizer;

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        OffsetDeleteRequestData data = ((OffsetDeleteRequest) r).data();
        // DELETE on the group (else GROUP_AUTHORIZATION_FAILED), READ on each topic (else its partitions
        // TOPIC_AUTHORIZATION_FAILED), as Kafka checks.
        if (!authorizer.authorize(context, AclOperation.DELETE, ResourceType.GROUP, data.groupId())) {
            return Responses.completed(context, new OffsetDeleteResponse(new OffsetDeleteResponseData()
                .setThrottleTimeMs(0).setErrorCode(Errors.GROUP_AUTHORIZATION_FAILED.code())));
        }
        java.util.Set<String> readable = authorizer.filter(context, AclOperation.READ, ResourceType.TOPIC,
            data.topics().stream().map(t -> t.name()).toList());
        List<TopicPartition> partitions = new ArrayList<>();
        Map<TopicPartition, Errors> denied = new java.util.LinkedHashMap<>();
        data.topics().forEach(t -> t.partitions().forEach(p -> {
            TopicPartition tp = new TopicPartition(t.name(), p.partitionIndex());
            if (readable.contains(t.name())) {
                partitions.add(tp);
            } else {
                denied.put(tp, Errors.TOPIC_AUTHORIZATION_FAILED);
            }
        }));
        return coordinator.deleteOffsets(data.groupId(), partitions).thenApply(outcome -> {
            Map<TopicPartition, Errors> merged = new java.util.LinkedHashMap<>(
                outcome.getValue() == null ? Map.of() : outcome.getValue());
            merged.putAll(denied);
            Map.Entry<Errors, Map<TopicPartition, Errors>> result = Map.entry(outcome.getKey(), merged);
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
