package io.tributary.broker.api;

import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.cluster.TopicAssignment;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.message.DescribeTopicPartitionsRequestData;
import org.apache.kafka.common.message.DescribeTopicPartitionsResponseData;
import org.apache.kafka.common.message.DescribeTopicPartitionsResponseData.DescribeTopicPartitionsResponsePartition;
import org.apache.kafka.common.message.DescribeTopicPartitionsResponseData.DescribeTopicPartitionsResponseTopic;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.DescribeTopicPartitionsRequest;
import org.apache.kafka.common.requests.DescribeTopicPartitionsResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * DescribeTopicPartitions (v0, KIP-966): topics and their partitions in pages, which Kafka 4's
 * {@code kafka-topics --describe} and {@code Admin.describeTopics} use instead of Metadata. As
 * Kafka's {@code DescribeTopicPartitionsRequestHandler}:
 * <ul>
 *   <li>topics are described in name order, from the cursor's topic and partition on; an empty
 *       topic list means every topic the principal may DESCRIBE (others are left out), a named topic
 *       it may not is TOPIC_AUTHORIZATION_FAILED with a zero id;</li>
 *   <li>one answer describes at most {@code min(ResponsePartitionLimit, max.request.partition.size.limit)}
 *       partitions (at least 1); when partitions remain, NextCursor names the first of them;</li>
 *   <li>a named topic that does not exist (or is being deleted) is UNKNOWN_TOPIC_OR_PARTITION, an
 *       invalid name INVALID_TOPIC_EXCEPTION; a cursor topic missing from a non-empty list, or a
 *       negative cursor partition, makes the whole request INVALID_REQUEST.</li>
 * </ul>
 * Partitions carry no error: one without a live leader on the request's listener has leader -1.
 * Eligible leader replicas (KIP-966's ELR) are not kept here, so both ELR lists are empty, as
 * Kafka sends them while {@code eligible.leader.replicas.version} is 0 (kafka-clients cannot read null).
 */
public final class DescribeTopicPartitionsHandler extends VersionedHandler {

    private final MetadataCache metadataCache;
    private final BrokerAuthorizer authorizer;
    private final int maxPartitionsPerResponse;

    /** @param maxPartitionsPerResponse {@code max.request.partition.size.limit} */
    public DescribeTopicPartitionsHandler(MetadataCache metadataCache, BrokerAuthorizer authorizer,
                                          int maxPartitionsPerResponse) {
        super(ApiKeys.DESCRIBE_TOPIC_PARTITIONS, 0, 0);
        this.metadataCache = metadataCache;
        this.authorizer = authorizer;
        this.maxPartitionsPerResponse = maxPartitionsPerResponse;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        DescribeTopicPartitionsRequestData request = ((DescribeTopicPartitionsRequest) r).data();
        boolean allTopics = request.topics().isEmpty();
        DescribeTopicPartitionsRequestData.Cursor cursor = request.cursor();
        String cursorTopic = cursor == null ? "" : cursor.topicName();
        TreeSet<String> names = new TreeSet<>();
        if (allTopics) {
            metadataCache.topicNames().stream().filter(t -> t.compareTo(cursorTopic) >= 0)
                .filter(t -> !metadataCache.isPendingDeletion(t)).forEach(names::add);
        } else {
            request.topics().stream().map(DescribeTopicPartitionsRequestData.TopicRequest::name)
                .filter(t -> t != null && t.compareTo(cursorTopic) >= 0).forEach(names::add);
            if (cursor != null && !names.contains(cursor.topicName())) {
                return invalid(context, r, "DescribeTopicPartitionsRequest topic list should contain the cursor topic: "
                    + cursor.topicName());
            }
        }
        if (cursor != null && cursor.partitionIndex() < 0) {
            return invalid(context, r, "DescribeTopicPartitionsRequest cursor partition must be valid: " + cursor);
        }
        Set<String> describable = authorizer.filter(context, AclOperation.DESCRIBE, ResourceType.TOPIC, names);
        DescribeTopicPartitionsResponseData response = new DescribeTopicPartitionsResponseData().setThrottleTimeMs(0);
        List<DescribeTopicPartitionsResponseTopic> refused = new ArrayList<>();
        int remaining = Math.max(Math.min(maxPartitionsPerResponse, request.responsePartitionLimit()), 1);
        for (String name : names) {
            if (!describable.contains(name)) {
                if (!allTopics) {
                    refused.add(new DescribeTopicPartitionsResponseTopic().setName(name).setTopicId(Uuid.ZERO_UUID)
                        .setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code()).setIsInternal(false));
                }
                continue;
            }
            if (remaining == 0) {
                // Every partition of the topics before is described: the next answer starts at this one.
                response.setNextCursor(new DescribeTopicPartitionsResponseData.Cursor().setTopicName(name).setPartitionIndex(0));
                break;
            }
            Optional<TopicAssignment> assignment = metadataCache.topic(name).filter(t -> !metadataCache.isPendingDeletion(name));
            if (assignment.isEmpty()) {
                if (!allTopics) {
                    response.topics().add(new DescribeTopicPartitionsResponseTopic().setName(name)
                        .setErrorCode((Topic.isValid(name) ? Errors.UNKNOWN_TOPIC_OR_PARTITION : Errors.INVALID_TOPIC_EXCEPTION).code())
                        .setTopicId(Uuid.ZERO_UUID).setIsInternal(Topic.isInternal(name)));
                }
                continue;
            }
            Map<Integer, List<Integer>> replicas = assignment.get().replicas();
            int start = name.equals(cursorTopic) ? cursor.partitionIndex() : 0;
            int end = (int) Math.min(replicas.size(), (long) start + remaining);
            DescribeTopicPartitionsResponseTopic topic = new DescribeTopicPartitionsResponseTopic().setName(name)
                .setErrorCode(Errors.NONE.code()).setTopicId(assignment.get().topicId())
                .setIsInternal(Topic.isInternal(name))
                .setTopicAuthorizedOperations(authorizer.enabled()
                    ? AuthorizedOperations.of(authorizer, context, ResourceType.TOPIC, name) : AuthorizedOperations.TOPIC_ALL);
            for (int p = start; p < end; p++) {
                List<Integer> assigned = replicas.get(p);
                if (assigned != null) {
                    topic.partitions().add(partition(context, new TopicPartition(name, p), assigned));
                }
            }
            response.topics().add(topic);
            if (end < replicas.size()) {
                response.setNextCursor(new DescribeTopicPartitionsResponseData.Cursor().setTopicName(name).setPartitionIndex(end));
                break;
            }
            remaining -= Math.max(0, end - start);
        }
        refused.forEach(response.topics()::add);
        return Responses.completed(context, new DescribeTopicPartitionsResponse(response));
    }

    private DescribeTopicPartitionsResponsePartition partition(RequestContext context, TopicPartition tp, List<Integer> replicas) {
        PartitionView view = PartitionView.of(metadataCache, tp, replicas, context.listenerName(), false);
        return new DescribeTopicPartitionsResponsePartition()
            .setPartitionIndex(tp.partition())
            .setErrorCode(Errors.NONE.code())
            .setLeaderId(view.leaderId())
            .setLeaderEpoch(view.leaderEpoch())
            .setReplicaNodes(new ArrayList<>(view.replicas()))
            .setIsrNodes(new ArrayList<>(view.isr()))
            .setOfflineReplicas(new ArrayList<>(view.offlineReplicas()))
            .setEligibleLeaderReplicas(new ArrayList<>())
            .setLastKnownElr(new ArrayList<>());
    }

    private static CompletableFuture<Response> invalid(RequestContext context, AbstractRequest request, String message) {
        return Responses.completed(context, request.getErrorResponse(0, new InvalidRequestException(message)));
    }
}
